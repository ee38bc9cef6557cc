"""GET /v1/batches/{id}/teacher-calls and /programs, GET /v1/teachers, rounded costs."""

from __future__ import annotations

from app.db.models import Program, TeacherCall
from app.db.session import session_scope
from tests.app.api.factory import add_program, make_batch

PROMPT = [{"role": "system", "content": "You write Python."}, {"role": "user", "content": "Use str.split at level C1."}]


def _add_call(url: str, batch_id: int, index: int, cost: float, error: str | None = None) -> int:
    with session_scope(url) as session:
        call = TeacherCall(
            batch_id=batch_id, request_key=f"slot:{index}/generate", purpose="generate", teacher="gpt", model="m-1",
            prompt=PROMPT, prompt_template="gen-v1", params={"temperature": 0.8},
            raw_completion=None if error else [f"```python\ndef f(s):\n    return s.split()  # {index}\n```"],
            status="error" if error else "ok", error=error, prompt_tokens=120 + index, completion_tokens=40,
            latency_ms=812.5, cost_usd=cost, attempts=6 if error else 1)
        session.add(call)
        session.flush()
        return call.id


def test_teacher_calls_show_prompt_completion_tokens_cost_and_error(client, auth, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg)
    ok_id = _add_call(migrated_pg, batch_id, 0, 0.1)
    bad_id = _add_call(migrated_pg, batch_id, 1, 0.2, error="gave up after 6 attempt(s): HTTP 500")
    page = client.get(f"/v1/batches/{batch_id}/teacher-calls", headers=auth).json()
    assert [c["id"] for c in page["items"]] == [ok_id, bad_id] and page["next_cursor"] is None
    ok, bad = page["items"]
    assert ok["prompt"] == PROMPT and "s.split()  # 0" in ok["raw_completion"][0]
    assert (ok["status"], ok["prompt_tokens"], ok["completion_tokens"], ok["latency_ms"], ok["cost_usd"]) == ("ok", 120, 40, 812.5, 0.1)
    assert (bad["status"], bad["error"], bad["attempts"], bad["raw_completion"]) == (
        "error", "gave up after 6 attempt(s): HTTP 500", 6, None)
    errors_only = client.get(f"/v1/batches/{batch_id}/teacher-calls", params={"status": "error"}, headers=auth).json()
    assert [c["id"] for c in errors_only["items"]] == [bad_id]
    lean = client.get(f"/v1/batches/{batch_id}/teacher-calls", params={"include_text": "false"}, headers=auth).json()
    assert lean["items"][0]["prompt"] is None and lean["items"][0]["prompt_tokens"] == 120
    # the batch's cost is the sum 0.1 + 0.2, shown without binary noise (0.30000000000000004)
    assert client.get(f"/v1/batches/{batch_id}").json()["cost_usd"] == 0.3


def test_teacher_calls_page_by_cursor_and_need_a_key(client, auth, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg)
    ids = [_add_call(migrated_pg, batch_id, i, 0.01) for i in range(5)]
    seen, cursor = [], None
    while True:
        params = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = client.get(f"/v1/batches/{batch_id}/teacher-calls", params=params, headers=auth).json()
        seen += [c["id"] for c in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == ids
    assert client.get(f"/v1/batches/{batch_id}/teacher-calls").status_code == 401
    assert client.get("/v1/batches/999999999/teacher-calls", headers=auth).json()["error"] == "not_found"
    assert client.get(f"/v1/batches/{batch_id}/teacher-calls", params={"cursor": "nope"}, headers=auth).status_code == 400


def test_programs_show_reject_reason_and_detail(client, auth, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg)
    kept = add_program(migrated_pg, batch_id, 0)
    rejected = add_program(migrated_pg, batch_id, 1, status="rejected", reason="constraint_mismatch")
    with session_scope(migrated_pg) as session:
        session.get(Program, rejected).reject_detail = "control_flow_depth: requested 2, measured 0"
    page = client.get(f"/v1/batches/{batch_id}/programs", headers=auth).json()
    assert [p["id"] for p in page["items"]] == [kept, rejected]
    row = page["items"][1]
    assert (row["status"], row["reject_reason"], row["reject_detail"]) == (
        "rejected", "constraint_mismatch", "control_flow_depth: requested 2, measured 0")
    assert row["requested"] == {"nested_calls": True} and row["measured"] == {"control_flow_depth": 0}
    only = client.get(f"/v1/batches/{batch_id}/programs", params={"status": "rejected"}, headers=auth).json()
    assert [p["id"] for p in only["items"]] == [rejected]
    by_reason = client.get(f"/v1/batches/{batch_id}/programs", params={"reject_reason": "timeout"}, headers=auth).json()
    assert by_reason["items"] == []


def test_teachers_lists_names_kinds_models_and_never_keys(make_client) -> None:
    client = make_client(teachers={
        "gpt": {"kind": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "gpt-4o-mini", "api_key": "sk-secret-123"},
        "typo": {"kind": "opneai", "model": "x"},
    }, default_teacher="gpt")
    response = client.get("/v1/teachers")
    assert response.status_code == 200 and "sk-secret-123" not in response.text
    body = response.json()
    assert body["default"] == "gpt"
    by_name = {t["name"]: t for t in body["items"]}
    assert set(by_name) == {"builtin", "gpt", "typo"}
    assert (by_name["gpt"]["kind"], by_name["gpt"]["model"], by_name["gpt"]["default"], by_name["gpt"]["error"]) == (
        "openai", "gpt-4o-mini", True, None)
    assert by_name["builtin"]["kind"] == "builtin" and by_name["builtin"]["default"] is False
    assert "unknown kind 'opneai'" in by_name["typo"]["error"]
