"""GET /v1/samples (filters, opaque cursor) and GET /v1/samples/{id}."""

from __future__ import annotations

import pytest

from tests.app.api.factory import add_program, add_sample, make_batch


@pytest.fixture()
def seeded(migrated_pg):
    batch_id = make_batch(migrated_pg)
    p1 = add_program(migrated_pg, batch_id, 0, type_="str", method="split", level="C1")
    p2 = add_program(migrated_pg, batch_id, 1, type_="list", method="append", level="C3")
    ids = {
        "easy": add_sample(migrated_pg, batch_id, p1, 0, passes=9, score=0.1, questions=3),
        "hard": add_sample(migrated_pg, batch_id, p1, 1, passes=1, score=0.8),
        "mid": add_sample(migrated_pg, batch_id, p2, 0, passes=3, score=0.5, type_="list", method="append", level="C3"),
        "timeout": add_sample(migrated_pg, batch_id, p2, 1, status="rejected", reason="timeout", passes=None, score=None,
                              type_="list", method="append", level="C3"),
    }
    return batch_id, ids


def _ids(client, auth, **params) -> list[int]:
    response = client.get("/v1/samples", params=params, headers=auth)
    assert response.status_code == 200, response.text
    return [s["id"] for s in response.json()["items"]]


def test_filters(client, auth, seeded) -> None:
    batch_id, ids = seeded
    assert _ids(client, auth, batch_id=batch_id) == sorted(ids.values())
    assert _ids(client, auth, batch_id=batch_id, type="list") == [ids["mid"], ids["timeout"]]
    assert _ids(client, auth, batch_id=batch_id, method="split", level="C1") == [ids["easy"], ids["hard"]]
    assert _ids(client, auth, batch_id=batch_id, status="rejected") == [ids["timeout"]]
    assert _ids(client, auth, batch_id=batch_id, reject_reason="timeout") == [ids["timeout"]]
    assert _ids(client, auth, batch_id=batch_id, solver_passes_min=0, solver_passes_max=3) == [ids["hard"], ids["mid"]]
    assert _ids(client, auth, batch_id=batch_id, difficulty_min=0.5) == [ids["hard"], ids["mid"]]
    assert _ids(client, auth, batch_id=batch_id, difficulty_max=0.2) == [ids["easy"]]


def test_cursor_pages_visit_every_row_once(client, auth, seeded) -> None:
    batch_id, ids = seeded
    seen, cursor, pages = [], None, 0
    while True:
        params = {"batch_id": batch_id, "limit": 1} | ({"cursor": cursor} if cursor else {})
        page = client.get("/v1/samples", params=params, headers=auth).json()
        seen += [s["id"] for s in page["items"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert cursor.isascii() and not cursor.isdigit()  # opaque, not a bare id
    assert seen == sorted(ids.values()) and pages == 4


@pytest.mark.parametrize(("params", "status", "needle"), [
    ({"cursor": "not-a-cursor"}, 400, "invalid cursor"),
    ({"cursor": "czE6LTE"}, 400, "invalid cursor"),  # "s1:-1"
    ({"limit": 0}, 422, "greater than or equal to 1"),
    ({"limit": 501}, 422, "less than or equal to 500"),
    ({"solver_passes_min": 5, "solver_passes_max": 2}, 422, "greater than solver_passes_max"),
    ({"status": "maybe"}, 422, "accepted"),
    ({"colour": "red"}, 422, "Extra inputs are not permitted"),
    ({"type": "st\x00r"}, 422, "should match pattern"),  # Postgres text cannot hold NUL: found by the fuzz
])
def test_bad_queries(client, auth, params, status, needle) -> None:
    response = client.get("/v1/samples", params=params, headers=auth)
    assert response.status_code == status and needle in response.text, response.text


def test_detail_has_program_input_result_trace_questions_provenance(client, auth, seeded) -> None:
    _, ids = seeded
    body = client.get(f"/v1/samples/{ids['easy']}", headers=auth).json()
    assert body["program"]["source"].startswith("def f(s):") and body["program"]["entry_point"] == "f"
    assert body["args_source"] == "'a,b,0'" and body["execution"]["args_source"] == "'a,b,0'"
    assert body["execution"]["result"] == {"type": "list", "repr": "['a', 'b']"}
    assert body["execution"]["trace"]["steps"][0]["line"] == 2
    assert [q["kind"] for q in body["questions"]] == ["io", "variable", "variable"]
    assert body["questions"][1]["gold_answer"] == "a1"
    assert body["provenance"]["teacher_model"] == "builtin" and body["provenance"]["python_version"] == "3.11.9"
    assert body["provenance"]["prompt_template"] == "gen-v1" and body["solver_passes"] == 9
    slim = client.get(f"/v1/samples/{ids['easy']}", params={"include_trace": False}, headers=auth).json()
    assert slim["execution"]["trace"] is None and slim["execution"]["result"] == body["execution"]["result"]


def test_unknown_sample_is_404(client, auth) -> None:
    response = client.get("/v1/samples/987654321", headers=auth)
    assert response.status_code == 404 and response.json()["detail"] == "no sample 987654321"
