"""The page in a real chromium: no console errors, charts drawn from exactly the numbers the
API returns, and filters that change them."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app.stats.service import fold_difficulty
from tests.app.web.conftest import Live, change_and_wait, chart_data, open_dashboard, screenshot

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


def expected_stacks(buckets: list[dict]) -> dict:
    return {"labels": [b["key"] for b in buckets],
            "datasets": [{"label": "accepted", "data": [b["accepted"] for b in buckets]},
                         {"label": "not accepted", "data": [b["total"] - b["accepted"] for b in buckets]}]}


def heatmap_cells(page) -> dict[str, dict[str, int]]:
    cells = page.evaluate("""() => [...document.querySelectorAll('#heatmap td[data-level]')]
        .filter(td => td.textContent).map(td => [td.dataset.level, td.dataset.rate, Number(td.textContent)])""")
    table: dict[str, dict[str, int]] = {}
    for level, rate, n in cells:
        table.setdefault(level, {})[rate] = n
    return table


def assert_difficulty_charts(page, stats: dict) -> None:
    assert chart_data(page, "chart-level") == expected_stacks(stats["by_level"])
    assert chart_data(page, "chart-type") == expected_stacks(stats["by_type"])
    passrate = chart_data(page, "chart-passrate")
    assert passrate["labels"] == [f"{b['pass_rate']:.1f}" for b in stats["pass_rate"]]
    assert passrate["datasets"][0]["data"] == [b["accepted"] for b in stats["pass_rate"]]
    assert passrate["datasets"][1]["data"] == [b["total"] - b["accepted"] for b in stats["pass_rate"]]
    assert heatmap_cells(page) == stats["level_pass_rate"]


def server_fold(rows: list[dict]) -> dict:
    """The API's own fold over sample rows: what /v1/stats/difficulty would say for them."""
    grouped = [(r["constraint_type"], r["constraint_method"], r["level"], r["status"], r["solver_k"],
                r["solver_passes"], 1) for r in rows]
    return fold_difficulty(grouped, 0).model_dump(mode="json")


def test_page_loads_clean_and_every_chart_shows_the_api_numbers(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    stats = live.api("/v1/stats/difficulty")
    # the seeded set (so the charts are not empty): 21 finished samples and 3 still in flight
    assert (stats["total"], stats["accepted"], stats["rejected"]) == (24, 7, 14)
    assert_difficulty_charts(page, stats)
    assert page.inner_text("#kpi-total") == "24" and page.inner_text("#kpi-accepted") == "7"
    # accepted / finished, not / all samples (7 / 24 = 29.2% would count in-flight ones as refused)
    assert stats["acceptance_rate"] == 0.3333 and page.inner_text("#kpi-rate") == "33.3%"

    funnel = live.api("/v1/stats/funnel")["overall"]
    drawn = chart_data(page, "chart-funnel")
    assert drawn["labels"] == [s["stage"].replace("_", " ") for s in funnel]
    assert [d["data"] for d in drawn["datasets"]] == [[s[k] for s in funnel] for k in ("passed", "rejected", "in_progress")]
    reasons = page.evaluate("""() => [...document.querySelectorAll('#reasons .reason')]
        .map(r => [r.dataset.stage, r.dataset.reason, Number(r.querySelector('.reason-n').textContent)])""")
    assert reasons == [[s["stage"], reason, n] for s in funnel for reason, n in s["reasons"].items()]

    for batch_id in live.batch_ids:
        detail = live.api(f"/v1/batches/{batch_id}")
        row = page.locator(f"#batches tr[data-batch='{batch_id}']")
        assert row.locator("[data-field=accepted]").inner_text() == str(detail["samples_accepted"])
        tokens = detail["prompt_tokens"] + detail["completion_tokens"]
        assert row.locator("[data-field=tokens]").inner_text() == f"{tokens:,}"
        assert row.locator("[data-field=cost]").inner_text() == f"${detail['cost_usd']:.4f}"
        assert row.locator("[data-field=cost-per-accepted]").inner_text() == f"${detail['cost_per_accepted_usd']:.4f}"
        assert row.locator(".progress-text").inner_text() == f"{detail['programs_done']} / {detail['programs_requested']}"
    running = live.api(f"/v1/batches/{live.batch_ids[1]}")
    assert running["status"] == "running" and running["eta_seconds"] > 0
    assert page.locator(f"#batches tr[data-batch='{live.batch_ids[1]}'] [data-field=eta]").inner_text().endswith("s")

    features = chart_data(page, "chart-features")
    rows = live.all_samples()
    levels = sorted({r["level"] for r in rows if r["difficulty_score"] is not None})
    assert features["labels"] == levels
    for level, mean in zip(levels, features["datasets"][0]["data"]):
        scores = [r["difficulty_score"] for r in rows if r["level"] == level and r["difficulty_score"] is not None]
        assert mean == pytest.approx(sum(scores) / len(scores))

    page.select_option("#feature-pick", "trace_steps")  # the server's per-level means over every sample
    page.wait_for_function("() => Chart.getChart('chart-features').data.datasets[0].label === 'mean trace steps'")
    per_level: dict[str, list[int]] = {}
    for r in rows:  # few enough that every sample of a level is read: the ground truth
        steps = live.api(f"/v1/samples/{r['id']}", include_trace="false")["features"].get("trace_steps")
        if steps is not None:
            per_level.setdefault(r["level"], []).append(steps)
    drawn = chart_data(page, "chart-features")
    assert drawn["labels"] == sorted(per_level)
    assert drawn["datasets"][0]["data"] == pytest.approx([sum(v) / len(v) for _, v in sorted(per_level.items())], abs=1e-4)
    page.select_option("#feature-pick", "difficulty_score")
    page.wait_for_function("() => Chart.getChart('chart-features').data.datasets[0].label === 'mean difficulty score'")
    shot = screenshot(page, "dashboard.png")
    assert shot.stat().st_size > 50_000
    assert console.errors == []


def test_filters_change_the_charts_to_the_filtered_api_numbers(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    old, new = live.batch_ids
    change_and_wait(page, "#f-batch", str(new))
    running = live.api("/v1/stats/difficulty", batch_id=new)
    assert_difficulty_charts(page, running)
    assert running["total"] > running["accepted"] + running["rejected"]  # the batch has samples in flight
    assert page.inner_text("#kpi-rate") == f"{100 * running['accepted'] / (running['accepted'] + running['rejected']):.1f}%"
    assert page.text_content("#funnel-scope") == f"batch {new}"
    batch_funnel = next(b for b in live.api("/v1/stats/funnel")["batches"] if b["batch_id"] == new)["funnel"]
    assert chart_data(page, "chart-funnel")["datasets"][0]["data"] == [s["passed"] for s in batch_funnel]

    change_and_wait(page, "#f-batch", "")
    change_and_wait(page, "#f-type", "list")
    listed = server_fold(live.all_samples(type="list"))
    assert listed["total"] == 10  # 7 finished, 3 in flight
    assert_difficulty_charts(page, listed)
    methods = page.evaluate("() => [...document.querySelectorAll('#f-method option')].map(o => o.value).filter(Boolean)")
    assert "append" in methods and "upper" not in methods  # the method list follows the type
    change_and_wait(page, "#f-method", "append")
    assert chart_data(page, "chart-level") == expected_stacks(server_fold(live.all_samples(type="list", method="append"))["by_level"])

    change_and_wait(page, "#f-type", "")
    change_and_wait(page, "#f-level", "C2")
    assert_difficulty_charts(page, server_fold(live.all_samples(level="C2")))

    change_and_wait(page, "#f-level", "")
    today = datetime.now(timezone.utc).date().isoformat()
    change_and_wait(page, "#f-from", today)
    recent = [r for r in live.all_samples() if r["created_at"][:10] >= today]
    assert recent and {r["batch_id"] for r in recent} == {new}  # the old batch is three days old
    assert_difficulty_charts(page, server_fold(recent))
    assert page.inner_text("#kpi-total") == str(len(recent))
    folded = server_fold(recent)  # the page folds these rows itself: the same rate as the API's
    assert folded["total"] > folded["accepted"] + folded["rejected"]
    assert page.inner_text("#kpi-rate") == f"{100 * folded['acceptance_rate']:.1f}%"
    shown = page.evaluate("() => [...document.querySelectorAll('#samples tr[data-sample]')].map(r => Number(r.dataset.sample))")
    assert shown and set(shown) <= {r["id"] for r in recent}
    assert console.errors == []
