"""Sample browser, API key handling, auto-refresh and the missing-library message, each in a
real chromium against the real server."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy.orm import Session

from app.db.models import Batch
from app.db.session import get_engine
from tests.app.web.conftest import KEY_STORAGE, Live, open_dashboard, screenshot, wait_refreshed

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


def current_line(page) -> int:
    lines = page.evaluate("() => [...document.querySelectorAll('#sample-code .ln.current')].map(e => Number(e.dataset.line))")
    assert len(lines) == 1
    return lines[0]


def test_sample_browser_shows_a_sample_and_steps_through_its_trace(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    listed = [int(v) for v in page.evaluate("() => [...document.querySelectorAll('#samples tr[data-sample]')].map(r => r.dataset.sample)")]
    accepted = [r["id"] for r in live.all_samples(status="accepted")]
    assert listed == accepted  # the list defaults to accepted samples, in id order
    sample_id = next(i for i in accepted if len(live.api(f"/v1/samples/{i}")["execution"]["trace"]["steps"]) > 4)
    sample = live.api(f"/v1/samples/{sample_id}")
    steps = sample["execution"]["trace"]["steps"]

    page.click(f"#samples tr[data-sample='{sample_id}']")
    page.wait_for_function(f"() => document.getElementById('sample-title').textContent.startsWith('#{sample_id} ')")
    code_lines = page.evaluate("() => [...document.querySelectorAll('#sample-code .ln')].map(e => e.textContent)")
    source = sample["program"]["source"].rstrip("\n").split("\n")
    assert code_lines == [f"{i}{text or ' '}" for i, text in enumerate(source, 1)]  # numbered, verbatim
    assert page.text_content("#sample-input") == f"{sample['program']['entry_point']}({sample['args_source']})"
    result = sample["execution"]["result"]
    assert page.text_content("#sample-result") == f"{result['repr']}   ({result['type']})"

    assert page.text_content("#trace-pos") == f"step 1 / {len(steps)}"
    assert current_line(page) == steps[0]["line"]
    assert page.is_disabled("#trace-prev")
    for i in range(1, 4):
        page.click("#trace-next")
        assert page.text_content("#trace-pos") == f"step {i + 1} / {len(steps)}"
        assert current_line(page) == steps[i]["line"]
        shown = page.evaluate("() => [...document.querySelectorAll('#trace-locals tbody tr')].map(r => [...r.cells].map(c => c.textContent.trim()))")
        assert shown == [[name, v["type"], v["repr"]] for name, v in steps[i]["locals"].items()] or \
            (not steps[i]["locals"] and shown == [["no locals yet"]])
    page.click("#trace-prev")
    assert current_line(page) == steps[2]["line"]
    page.keyboard.press("ArrowRight")
    assert current_line(page) == steps[3]["line"]

    rows = page.evaluate("() => [...document.querySelectorAll('#questions tbody tr')].map(r => [r.dataset.kind, r.cells[2].textContent, r.cells[3].textContent])")
    assert rows == [[q["kind"], q["prompt"], q["gold_answer"]] for q in sample["questions"]]
    assert sample["questions"][0]["kind"] == "io" and len(sample["questions"]) > 1
    screenshot(page, "dashboard-sample.png")
    assert console.errors == []


def test_without_a_key_public_panels_work_and_a_saved_key_unlocks_samples(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live, with_key=False)
    assert "API key" in page.inner_text("#notices")
    assert page.text_content("#samples tbody") .strip() == "enter an API key to browse samples"
    assert page.text_content("#kpi-total") == str(live.api("/v1/stats/difficulty")["total"])  # stats need no key
    assert console.errors == []  # no sample request was even tried

    before = int(page.evaluate("document.body.dataset.refreshed"))
    page.fill("#api-key", live.key)
    page.click("#key-save")
    wait_refreshed(page, before + 1)
    assert page.evaluate(f"localStorage.getItem({KEY_STORAGE!r})") == live.key
    assert page.input_value("#api-key") == ""  # the secret does not stay on screen
    assert page.locator("#samples tr[data-sample]").count() == len(live.all_samples(status="accepted"))

    page.reload()  # the key survives a reload
    wait_refreshed(page, 1)
    assert page.locator("#samples tr[data-sample]").count() > 0

    page.evaluate(f"localStorage.setItem({KEY_STORAGE!r}, 'esk_not-a-real-key')")
    page.click("#refresh-now")
    page.wait_for_function("() => document.getElementById('notices').textContent.includes('unknown API key')")
    assert "HTTP 401" in page.inner_text("#notices")
    assert page.get_attribute("#key-state", "data-state") == "invalid" and "ok" not in page.get_attribute("#key-state", "class")


def test_auto_refresh_picks_up_a_new_batch(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    page.select_option("#refresh-every", "5")
    with Session(get_engine(live.db_url)) as session:
        batch = Batch(spec={"levels": ["C1"], "programs": 3}, seed=99, status="pending", teacher="builtin",
                      programs_requested=3, created_at=datetime.now(timezone.utc))
        session.add(batch)
        session.commit()
        new_id = batch.id
    page.wait_for_selector(f"#batches tr[data-batch='{new_id}']", timeout=20000)
    assert page.locator(f"#batches tr[data-batch='{new_id}'] .progress-text").inner_text() == "0 / 3"
    assert page.locator(f"#f-batch option[value='{new_id}']").count() == 1
    page.uncheck("#auto-refresh")
    done = int(page.evaluate("document.body.dataset.refreshed"))
    page.wait_for_timeout(6000)
    assert int(page.evaluate("document.body.dataset.refreshed")) == done  # unchecked: no more refreshes
    assert console.errors == []


def test_a_missing_chart_library_is_reported_on_the_page(browser, live: Live) -> None:
    def without_library(page) -> None:  # what the server answers when app/web/vendor is empty
        page.route("**/dashboard/vendor/chart.umd.js", lambda route: route.fulfill(
            status=404, content_type="application/json",
            body='{"error": "asset_missing", "detail": "the charting library is not installed"}'))

    page, console = open_dashboard(browser, live, setup=without_library)
    assert "scripts/install_web_assets.sh" in page.inner_text("#notices")
    assert page.text_content("#kpi-total") == str(live.api("/v1/stats/difficulty")["total"])  # tables still work
    assert [e for e in console.errors if "404" not in e] == []


def test_export_runs_are_listed(browser, live: Live, chart_library) -> None:
    from app.db.models import Export

    with Session(get_engine(live.db_url)) as session:
        row = Export(kind="incremental", format="verl", spec={"format": "verl"}, status="failed", attempts=2,
                     error="disk full", sample_count=0, files=[], window_key=f"dash-test-{datetime.now().timestamp()}",
                     window_start=datetime(2026, 11, 28, 2, tzinfo=timezone.utc),
                     window_end=datetime(2026, 11, 29, 2, tzinfo=timezone.utc))
        session.add(row)
        session.commit()
        export_id = row.id
    page, console = open_dashboard(browser, live)
    shown = page.locator(f'#exports tr[data-export="{export_id}"]')
    assert shown.count() == 1
    cells = shown.locator("td").all_inner_texts()
    assert cells[:3] == [f"#{export_id}", "incremental", "verl"] and cells[3].startswith("failed")
    assert shown.locator("[data-field=error]").inner_text() == "disk full"  # inline, not in a tooltip
    assert cells[4] == "2026-11-28 02:00 → 2026-11-29 02:00" and cells[6] == "2"
    listed = live.api("/v1/exports", limit=20)
    assert page.locator("#exports tr[data-export]").count() == len(listed["items"])
    assert console.errors == []

    page_without_key, _ = open_dashboard(browser, live, with_key=False)
    assert "enter an API key" in page_without_key.text_content("#exports tbody")
