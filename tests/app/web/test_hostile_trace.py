"""A hostile trace is shown as text (issue 13, item 6): every value the sample browser renders
goes into text nodes, and the page is served with a Content-Security-Policy."""

from __future__ import annotations

import pytest
import json
import urllib.request

from tests.app.web.conftest import Live, open_dashboard

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

PAYLOAD = "<img src=x onerror=\"window.__pwned = 1\">"


def _hostile(sample: dict) -> dict:
    steps = sample["execution"]["trace"]["steps"]
    steps[0] = {**steps[0], "line": PAYLOAD, "depth": "<b id=pwned-depth>9</b>", "func": f"<i>{PAYLOAD}</i>",
                "event": "line\" onmouseover=\"window.__pwned = 2",
                "locals": {f"<u>{PAYLOAD}</u>": {"type": "<s>str</s>", "repr": f"'{PAYLOAD}'"}}}
    sample["program"]["source"] = f"def f(s):\n    return '{PAYLOAD}'\n"
    sample["questions"] = [{**q, "prompt": PAYLOAD, "gold_answer": PAYLOAD} for q in sample["questions"]]
    return sample


def test_a_trace_step_with_html_is_rendered_as_text(browser, live: Live, chart_library) -> None:
    sample_id = live.all_samples(status="accepted")[0]["id"]

    def setup(page):
        def rewrite(route):
            response = route.fetch()
            route.fulfill(response=response, body=json.dumps(_hostile(response.json())),
                          headers={**response.headers, "content-type": "application/json"})

        page.route(f"**/v1/samples/{sample_id}", rewrite)

    page, console = open_dashboard(browser, live, setup=setup)
    page.click(f"#samples tr[data-sample='{sample_id}']")
    page.wait_for_function(f"() => document.getElementById('sample-title').textContent.startsWith('#{sample_id} ')")
    event = page.text_content("#trace-event")
    assert PAYLOAD in event and f"<i>{PAYLOAD}</i>" in event and "<b id=pwned-depth>9</b>" in event
    locals_row = page.evaluate("() => [...document.querySelectorAll('#trace-locals tbody td')].map(c => c.textContent)")
    assert locals_row == [f"<u>{PAYLOAD}</u>", "<s>str</s>", f"'{PAYLOAD}'"]
    assert PAYLOAD in page.text_content("#sample-code") and PAYLOAD in page.text_content("#questions")
    injected = page.evaluate("""() => ({
        elements: document.querySelectorAll('#sample-body img, #sample-body i, #sample-body u, #sample-body s, #pwned-depth').length,
        handlers: [...document.querySelectorAll('#sample-body *')].filter(e => e.hasAttribute('onerror') || e.hasAttribute('onmouseover')).length,
        pwned: window.__pwned || 0})""")
    assert injected == {"elements": 0, "handlers": 0, "pwned": 0}
    assert console.errors == []


def test_the_page_is_served_with_a_content_security_policy(live: Live) -> None:
    with urllib.request.urlopen(live.base + "/dashboard") as response:
        policy = response.headers["Content-Security-Policy"]
        page = response.read().decode()
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "onerror=" not in page and "<script>" not in page
