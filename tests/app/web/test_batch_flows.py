"""Starting and cancelling a batch from the dashboard, the batch detail panel (teacher calls,
rejected programs), export downloads, inline errors, failed-batch colours, the log axis and
the key check: each in a real chromium against the real server."""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timezone

import pytest
from sqlalchemy.orm import Session

from app.db.models import Batch, Export, Program, TeacherCall
from app.db.session import get_engine
from tests.app.web.conftest import KEY_STORAGE, Live, change_and_wait, chart_data, open_dashboard, screenshot, wait_refreshed

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

BAD = "rgb(231, 111, 81)"


def _batch(live: Live, status: str, **values) -> int:
    with Session(get_engine(live.db_url)) as session:
        batch = Batch(spec={"levels": ["C1"], "programs": 4}, seed=7, status=status, teacher="builtin",
                      programs_requested=4, created_at=datetime.now(timezone.utc), **values)
        session.add(batch)
        session.commit()
        return batch.id


def _pick_batch(page, batch_id: int) -> None:
    page.wait_for_selector(f"#bp-batch option[value='{batch_id}']", state="attached", timeout=20000)
    page.select_option("#bp-batch", str(batch_id))
    page.wait_for_function("() => document.getElementById('bp-status').textContent !== 'no batch'")


def test_the_form_starts_a_batch_and_the_panel_cancels_it(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    page.wait_for_selector("#bf-teacher option[value='builtin']", state="attached")
    page.fill("#bf-programs", "4")
    page.fill("#bf-inputs", "2")
    for level in ("C3", "C4", "C5", "C6"):
        page.uncheck(f"#bf-levels input[value='{level}']")
    page.select_option("#bf-types", ["str"])
    methods = page.evaluate("() => [...document.querySelectorAll('#bf-methods option')].map(o => o.value)")
    assert "split" in methods and "append" not in methods  # methods follow the chosen types
    page.select_option("#bf-methods", ["split"])
    page.fill("#bf-seed", "41")
    page.click("#bf-submit")
    page.wait_for_function("() => document.getElementById('bf-result').dataset.state === 'ok'")
    text = page.text_content("#bf-result")
    batch_id = int(text.split("#")[1].split()[0].rstrip(":"))
    posted = live.api(f"/v1/batches/{batch_id}")
    assert (posted["status"], posted["programs_requested"], posted["seed"], posted["teacher"]) == ("pending", 4, 41, "builtin")
    spec = posted["spec"]
    assert (spec["levels"], spec["types"], spec["methods"], spec["inputs_per_program"]) == (["C1", "C2"], ["str"], ["split"], 2)
    page.wait_for_selector(f"#batches tr[data-batch='{batch_id}']", timeout=20000)

    _pick_batch(page, batch_id)
    assert page.is_enabled("#bp-cancel")
    page.click("#bp-cancel")
    page.wait_for_function("() => document.getElementById('bp-status').textContent === 'cancelled'", timeout=20000)
    assert live.api(f"/v1/batches/{batch_id}")["status"] == "cancelled"
    assert page.is_disabled("#bp-cancel")
    screenshot(page, "dashboard-new-batch.png")
    assert console.errors == []


def test_form_errors_are_shown_next_to_the_form(browser, live: Live, chart_library) -> None:
    page, _ = open_dashboard(browser, live)
    page.wait_for_selector("#bf-teacher option", state="attached")
    page.fill("#bf-programs", "5000000")  # over the API's limit
    page.click("#bf-submit")
    page.wait_for_function("() => document.getElementById('bf-result').dataset.state === 'error'")
    assert "programs" in page.text_content("#bf-result") and "invalid_request" in page.text_content("#bf-result")
    page.fill("#bf-programs", "3")
    for box in page.locator("#bf-levels input").all():
        box.uncheck()
    page.click("#bf-submit")
    page.wait_for_function("() => document.getElementById('bf-result').textContent.includes('at least one of levels')")

    without_key, _ = open_dashboard(browser, live, with_key=False)
    without_key.wait_for_selector("#bf-teacher option", state="attached")
    without_key.click("#bf-submit")
    without_key.wait_for_function("() => document.getElementById('bf-result').dataset.state === 'error'")
    assert "API key" in without_key.text_content("#bf-result")


def test_the_batch_panel_shows_teacher_calls_and_rejected_programs(browser, live: Live, chart_library) -> None:
    batch_id = _batch(live, "failed", error="teacher 'gpt' failed: gave up after 6 attempt(s): HTTP 500")
    with Session(get_engine(live.db_url)) as session:
        ok = TeacherCall(batch_id=batch_id, request_key="slot:0/generate", purpose="generate", teacher="gpt", model="m-1",
                         prompt=[{"role": "user", "content": "Write f using str.split <b>now</b>"}],
                         raw_completion=["```python\ndef f(s): return s.split()\n```"], status="ok",
                         prompt_tokens=321, completion_tokens=54, latency_ms=900.0, cost_usd=0.00123)
        bad = TeacherCall(batch_id=batch_id, request_key="slot:1/generate", purpose="generate", teacher="gpt", model="m-1",
                          prompt=[{"role": "user", "content": "x"}], status="error",
                          error="gave up after 6 attempt(s): HTTP 500", attempts=6)
        session.add_all([ok, bad])
        session.flush()
        session.add(Program(batch_id=batch_id, slot=0, origin="teacher", teacher_call_id=ok.id, constraint_type="str",
                            constraint_method="split", level="C3", requested={"control_flow_depth": 2},
                            measured={"control_flow_depth": 0}, status="rejected", reject_reason="constraint_mismatch",
                            reject_detail="control_flow_depth: requested 2, measured 0"))
        session.commit()
        ok_id, bad_id = ok.id, bad.id
    page, console = open_dashboard(browser, live)
    _pick_batch(page, batch_id)
    page.wait_for_selector(f"#bp-calls tr[data-call='{bad_id}']")
    assert page.locator("#bp-calls tr[data-call]").count() == 2
    bad_row = page.locator(f"#bp-calls tr[data-call='{bad_id}']").locator("td").all_inner_texts()
    assert bad_row[2] == "error" and bad_row[6] == "gave up after 6 attempt(s): HTTP 500"
    ok_row = page.locator(f"#bp-calls tr[data-call='{ok_id}']").locator("td").all_inner_texts()
    assert ok_row[3:6] == ["900 ms", "321 + 54", "$0.0012"]
    page.click(f"#bp-calls tr[data-call='{ok_id}']")
    assert page.text_content("#bp-prompt") == "[user]\nWrite f using str.split <b>now</b>"  # text, never markup
    assert "def f(s): return s.split()" in page.text_content("#bp-completion")
    rejected = page.locator("#bp-programs tr[data-program]").locator("td").all_inner_texts()
    assert rejected[4:] == ["constraint_mismatch", "control_flow_depth: requested 2, measured 0"]
    assert "HTTP 500" in page.text_content("#bp-batch-error") and page.is_visible("#bp-batch-error")
    assert page.is_disabled("#bp-cancel")  # a failed batch cannot be cancelled
    page.select_option("#bp-call-status", "error")
    page.wait_for_function("() => document.querySelectorAll('#bp-calls tr[data-call]').length === 1")
    # the failed batch is coloured: its progress bar takes the error colour, never the green one
    bar = page.locator(f"#batches tr[data-batch='{batch_id}'] .progress span")
    assert bar.evaluate("e => getComputedStyle(e).backgroundColor") == BAD
    assert bar.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    screenshot(page, "dashboard-batch-panel.png")
    assert console.errors == []


def test_export_files_download_and_warnings_show_inline(browser, live: Live, chart_library, tmp_path) -> None:
    content = b'{"prompt": "x"}\n'
    (tmp_path / "all.jsonl").write_bytes(content)
    digest = hashlib.sha256(content).hexdigest()
    with Session(get_engine(live.db_url)) as session:
        row = Export(kind="manual", format="openai", spec={"format": "openai"}, status="done", attempts=1,
                     sample_count=1, out_dir=str(tmp_path), window_key=f"dl-{uuid.uuid4().hex}",
                     files=[{"path": "all.jsonl", "split": "all", "rows": 1, "sha256": digest, "bytes": len(content)}],
                     manifest={"warnings": ["split 'eval' is empty: no eligible sample was left for it"]})
        session.add(row)
        session.commit()
        export_id = row.id
    page, console = open_dashboard(browser, live)
    shown = page.locator(f"#exports tr[data-export='{export_id}']")
    link = shown.locator("a.download[data-file='all.jsonl']")
    assert link.get_attribute("href") == f"/v1/exports/{export_id}/files/all.jsonl"
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == "all.jsonl"
    with open(download.path(), "rb") as got:
        assert got.read() == content
    assert shown.locator("[data-field=warning]").inner_text().startswith("split 'eval' is empty")
    assert console.errors == []


def test_an_invalid_key_never_shows_as_valid(browser, live: Live, chart_library) -> None:
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem({KEY_STORAGE!r}, 'esk_not-a-real-key')")
    page = context.new_page()
    page.goto(live.base + "/dashboard")
    wait_refreshed(page, 1)
    assert page.get_attribute("#key-state", "data-state") == "invalid"
    assert page.text_content("#key-state") == "key refused" and "ok" not in page.get_attribute("#key-state", "class")
    assert "unknown API key" in page.inner_text("#notices")
    good, _ = open_dashboard(browser, live)
    assert good.get_attribute("#key-state", "data-state") == "valid" and "ok" in good.get_attribute("#key-state", "class")
    context.close()


def test_the_log_axis_option_switches_the_count_charts(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    scale = "id => { const c = Chart.getChart(id); return c.options.scales[c.options.indexAxis === 'y' ? 'x' : 'y'].type; }"
    charts = ["chart-level", "chart-type", "chart-passrate", "chart-funnel"]
    assert [page.evaluate(scale, c) for c in charts] == ["linear"] * 4
    page.check("#log-axis")
    assert [page.evaluate(scale, c) for c in charts] == ["logarithmic"] * 4
    before = int(page.evaluate("document.body.dataset.refreshed"))
    page.click("#refresh-now")
    wait_refreshed(page, before + 1)
    assert page.evaluate(scale, "chart-level") == "logarithmic"  # kept across refreshes
    page.uncheck("#log-axis")
    assert page.evaluate(scale, "chart-type") == "linear"
    assert console.errors == []


def test_the_funnel_follows_the_type_and_level_filters(browser, live: Live, chart_library) -> None:
    page, console = open_dashboard(browser, live)
    overall = live.api("/v1/stats/funnel")["overall"]
    sliced = live.api("/v1/stats/funnel", level="C2")["overall"]
    assert [s["total"] for s in sliced] != [s["total"] for s in overall]  # the seeded data differ by level
    change_and_wait(page, "#f-level", "C2")
    shown = chart_data(page, "chart-funnel")
    assert shown["datasets"][0]["data"] == [s["passed"] for s in sliced]
    assert shown["datasets"][1]["data"] == [s["rejected"] for s in sliced]
    change_and_wait(page, "#f-level", "")
    assert chart_data(page, "chart-funnel")["datasets"][0]["data"] == [s["passed"] for s in overall]
    assert console.errors == []
