"""POST/GET /v1/batches and cancel, against real Postgres and Redis."""

from __future__ import annotations

import base64
import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from sqlalchemy import func, select

from app.db.models import Batch
from app.db.session import session_scope
from tests.app.api.factory import add_program, add_sample, add_teacher_calls, make_batch

SPEC = {"types": ["str"], "methods": ["split"], "levels": ["C1", "C3"], "programs": 20,
        "inputs_per_program": 2, "seed": 11}


def _batch_count(url: str) -> int:
    with session_scope(url) as session:
        return session.scalar(select(func.count()).select_from(Batch))


def _queued_batch_ids(redis_url: str) -> list[int]:
    """Batch ids of the start messages waiting in the Redis list of the `pipeline` queue."""
    ids = []
    for raw in redis.Redis.from_url(redis_url).lrange("pipeline", 0, -1):
        message = json.loads(raw)
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        if message["headers"]["task"] == "execsynth.pipeline.start_batch":
            ids.append(args[0])
        elif message["headers"]["task"] == "execsynth.pipeline.start_batches":
            ids.extend(args[0])
    return ids


def test_post_creates_a_pending_batch_and_queues_start_batch(client, auth, migrated_pg, api_redis_url) -> None:
    response = client.post("/v1/batches", json=SPEC, headers=auth)
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["status"] == "pending" and body["programs_requested"] == 20 and body["seed"] == 11
    assert response.headers["location"] == f"/v1/batches/{body['id']}"
    with session_scope(migrated_pg) as session:
        row = session.get(Batch, body["id"])
        assert (row.status, row.programs_requested, row.teacher, row.priority) == ("pending", 20, "builtin", 5)
        assert row.spec["levels"] == ["C1", "C3"] and row.spec["difficulty"]["keep_band"] is None  # features mode: labels only
        assert row.api_key_id is not None
    assert body["id"] in _queued_batch_ids(api_redis_url)


def test_seed_is_drawn_and_recorded_when_omitted(client, auth) -> None:
    spec = {k: v for k, v in SPEC.items() if k != "seed"}
    first = client.post("/v1/batches", json=spec, headers=auth).json()
    second = client.post("/v1/batches", json=spec, headers=auth).json()
    assert first["id"] != second["id"] and first["seed"] != second["seed"]
    assert first["spec"]["seed"] is None


def test_idempotency_key_returns_the_same_batch_and_conflicts_on_a_new_body(client, auth, migrated_pg, api_redis_url) -> None:
    key = {"Idempotency-Key": uuid.uuid4().hex, **auth}
    first = client.post("/v1/batches", json=SPEC, headers=key)
    before = _batch_count(migrated_pg)
    again = client.post("/v1/batches", json=SPEC, headers=key)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]
    other = client.post("/v1/batches", json={**SPEC, "programs": 21}, headers=key)
    assert other.status_code == 409 and other.json()["error"] == "conflict"
    assert str(first.json()["id"]) in other.json()["detail"]
    assert _batch_count(migrated_pg) == before
    assert _queued_batch_ids(api_redis_url).count(first.json()["id"]) == 1


def test_concurrent_retries_with_one_key_create_one_batch(client, auth, migrated_pg) -> None:
    key = {"Idempotency-Key": uuid.uuid4().hex, **auth}
    before = _batch_count(migrated_pg)
    with ThreadPoolExecutor(8) as pool:
        responses = list(pool.map(lambda _: client.post("/v1/batches", json=SPEC, headers=key), range(8)))
    assert sorted(r.status_code for r in responses).count(202) == 1
    assert {r.json()["id"] for r in responses} == {responses[0].json()["id"]}
    assert _batch_count(migrated_pg) == before + 1


def test_concurrent_posts_are_written_as_groups_with_their_own_answers(make_client, new_key, migrated_pg, api_redis_url) -> None:
    """Requests that arrive together share a commit and a start message, and each still gets
    its own answer: new batches, a replay, a conflict, a bad spec, a bad key, a spent budget."""
    client = make_client()
    good, limited = {"X-API-Key": new_key("grouped")}, {"X-API-Key": new_key("small", rate_limit=2)}
    idem = uuid.uuid4().hex
    requests = (
        [({**SPEC, "seed": n}, good) for n in range(12)]
        + [(SPEC, {**good, "Idempotency-Key": idem})] * 3
        + [({**SPEC, "programs": 21}, {**good, "Idempotency-Key": idem})]
        + [({**SPEC, "teacher": "gpt-9"}, good), (SPEC, {"X-API-Key": "esk_nope"})]
        + [(SPEC, limited)] * 4
    )
    before = _batch_count(migrated_pg)
    with ThreadPoolExecutor(len(requests)) as pool:
        responses = list(pool.map(lambda r: client.post("/v1/batches", json=r[0], headers=r[1]), requests))
    codes = [r.status_code for r in responses]
    assert codes[:12] == [202] * 12 and len({r.json()["id"] for r in responses[:12]}) == 12
    assert [r.json()["seed"] for r in responses[:12]] == list(range(12))
    keyed, clash = responses[12:15], responses[15]
    same_key = [r.status_code for r in keyed + [clash]]  # whichever body came first created the batch
    assert same_key.count(202) == 1 and 409 in same_key and set(same_key) <= {200, 202, 409}
    assert len({r.json()["id"] for r in keyed + [clash] if r.status_code != 409}) == 1
    assert codes[16:18] == [422, 401] and "unknown teacher" in responses[16].json()["detail"]
    assert sorted(codes[18:]) == [202, 202, 429, 429]
    assert next(r for r in responses[18:] if r.status_code == 429).headers["retry-after"]
    created = {r.json()["id"] for r in responses if r.status_code == 202}
    assert _batch_count(migrated_pg) == before + len(created) == before + 15
    queued = _queued_batch_ids(api_redis_url)
    assert created <= set(queued) and len(queued) == len(set(queued))  # each batch started once
    intake = client.app.state.batch_intake
    assert intake.groups_written < len(requests)  # they really were grouped


def test_a_lone_post_is_a_group_of_one(make_client, auth) -> None:
    client = make_client()
    for n in range(3):
        assert client.post("/v1/batches", json={**SPEC, "seed": n}, headers=auth).status_code == 202
    assert client.app.state.batch_intake.groups_written == 3


@pytest.mark.parametrize(("change", "status", "needle"), [
    ({"types": ["str", "complex"]}, 422, "unknown types ['complex']"),
    ({"methods": ["split", "frobnicate"]}, 422, "unknown methods ['frobnicate']"),
    ({"teacher": "gpt-9"}, 422, "unknown teacher 'gpt-9'"),
    ({"difficulty": {"mode": "solver"}}, 422, "needs a solver name"),
    ({"difficulty": {"mode": "solver", "solver": "nobody"}}, 422, "unknown solver 'nobody'"),
    ({"difficulty": {"keep_band": [0.5, 0.2]}}, 422, "keep_band"),
    ({"programs": -1}, 422, "greater than or equal to 1"),
    ({"programs": 10**12}, 422, "less than or equal to 1000000"),
    ({"inputs_per_program": 0}, 422, "greater than or equal to 1"),
    ({"levels": ["C9"]}, 422, "C1"),
    ({"levels": [], "knobs": []}, 422, "at least one of levels"),
    ({"knobs": [{"control_flow_depth": 2, "blueprint": ["for"]}]}, 422, "blueprint length"),
    ({"colour": "red"}, 422, "Extra inputs are not permitted"),
    ({"naturalness": {"skip": ["dead_stores"]}}, 422, "unknown naturalness checks ['dead_stores']"),
])
def test_bad_specs_get_a_4xx_naming_the_problem_and_write_nothing(client, auth, migrated_pg, change, status, needle) -> None:
    before = _batch_count(migrated_pg)
    response = client.post("/v1/batches", json={**SPEC, **change}, headers=auth)
    assert response.status_code == status, response.text
    assert needle in response.text
    assert _batch_count(migrated_pg) == before


@pytest.mark.parametrize(("body", "content_type", "status"), [
    ("programs=3", "application/x-www-form-urlencoded", 415),
    (json.dumps(SPEC), "text/plain", 415),
    ("{not json", "application/json", 400),  # unparseable: 400 (422 is for a parsed body that is invalid)
    ("[1, 2]", "application/json", 422),
])
def test_wrong_content_types_and_malformed_bodies(client, auth, migrated_pg, body, content_type, status) -> None:
    before = _batch_count(migrated_pg)
    response = client.post("/v1/batches", content=body, headers={"Content-Type": content_type, **auth})
    assert response.status_code == status, response.text
    assert _batch_count(migrated_pg) == before


def test_custom_knobs_and_configured_teachers_are_accepted(make_client, auth) -> None:
    client = make_client(teachers={"local-vllm": {"kind": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "m"}})
    spec = {**SPEC, "levels": [], "knobs": [{"other_methods": True, "control_flow_depth": 2, "blueprint": ["for", "if"]}],
            "teacher": "local-vllm", "difficulty": {"mode": "solver", "solver": "builtin", "keep_band": [0, 0.3], "k": 8}}
    response = client.post("/v1/batches", json=spec, headers=auth)
    assert response.status_code == 202, response.text
    assert response.json()["teacher"] == "local-vllm"
    assert response.json()["spec"]["knobs"][0]["blueprint"] == ["for", "if"]


def test_list_is_paginated_newest_first(client, auth) -> None:
    ids = [client.post("/v1/batches", json=SPEC, headers=auth).json()["id"] for _ in range(3)]
    page = client.get("/v1/batches", params={"limit": 2, "status": "pending"}).json()
    assert [b["id"] for b in page["items"]] == ids[::-1][:2]
    assert page["total"] >= 3 and page["limit"] == 2
    second = client.get("/v1/batches", params={"limit": 2, "offset": 1, "status": "pending"}).json()
    assert second["items"][0]["id"] == ids[1]
    assert client.get("/v1/batches", params={"status": "\x00"}).status_code == 422


def test_detail_counts_equal_the_rows(client, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg, programs_requested=10, started_minutes_ago=2.0)
    add_teacher_calls(migrated_pg, batch_id, ok=4, errors=1, tokens=(100, 50), cost=0.02)
    kept = [add_program(migrated_pg, batch_id, slot) for slot in range(3)]
    add_program(migrated_pg, batch_id, 3, status="rejected", reason="syntax_error")
    add_program(migrated_pg, batch_id, 0, variant=1)  # a mutant: not a new slot
    for i in range(3):
        add_sample(migrated_pg, batch_id, kept[0], index=i)
    add_sample(migrated_pg, batch_id, kept[1], status="rejected", reason="too_easy")
    add_sample(migrated_pg, batch_id, kept[1], index=1, status="rejected", reason="too_easy")
    add_sample(migrated_pg, batch_id, kept[2], status="rejected", reason="timeout")
    add_sample(migrated_pg, batch_id, kept[2], index=1, status="pending", passes=None)

    body = client.get(f"/v1/batches/{batch_id}").json()
    stages = {s["stage"]: s for s in body["funnel"]}
    assert stages["teacher_calls"] | {} == {"stage": "teacher_calls", "total": 5, "passed": 4, "rejected": 1, "in_progress": 0, "reasons": {"error": 1}}
    assert (stages["programs"]["total"], stages["programs"]["passed"], stages["programs"]["reasons"]) == (5, 4, {"syntax_error": 1})
    assert stages["samples"]["reasons"] == {"too_easy": 2, "timeout": 1}
    assert (stages["samples"]["passed"], stages["samples"]["in_progress"]) == (3, 1)
    assert body["samples_accepted"] == 3 and body["programs_done"] == 4
    assert (body["prompt_tokens"], body["completion_tokens"]) == (500, 250)
    assert body["cost_usd"] == pytest.approx(0.10)
    assert body["cost_per_accepted_usd"] == pytest.approx(0.10 / 3)
    assert body["accepted_per_minute"] == pytest.approx(1.5, rel=0.05)
    # from final slots: 1 and 3 are done; slot 0's mutant has no input yet and slot 2 has a
    # sample in flight -> 8 left at 2 per 2 minutes
    assert body["eta_seconds"] == pytest.approx(120 * 8 / 2, rel=0.05)


def test_detail_of_a_batch_with_nothing_yet(client, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg, status="pending", started_minutes_ago=None)
    body = client.get(f"/v1/batches/{batch_id}").json()
    assert [s["total"] for s in body["funnel"]] == [0, 0, 0]
    assert (body["cost_per_accepted_usd"], body["accepted_per_minute"], body["eta_seconds"]) == (None, None, None)


def test_cancel(client, auth, migrated_pg) -> None:
    batch_id = client.post("/v1/batches", json=SPEC, headers=auth).json()["id"]
    response = client.post(f"/v1/batches/{batch_id}/cancel", headers=auth)
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert response.json()["finished_at"] is not None
    assert client.post(f"/v1/batches/{batch_id}/cancel", headers=auth).json()["status"] == "cancelled"
    done = make_batch(migrated_pg, status="completed")
    conflict = client.post(f"/v1/batches/{done}/cancel", headers=auth)
    assert conflict.status_code == 409 and "already completed" in conflict.json()["detail"]
    with session_scope(migrated_pg) as session:
        assert session.get(Batch, done).status == "completed"


def test_unknown_batch_is_404(client, auth) -> None:
    assert client.get("/v1/batches/999999999").json() == {"error": "not_found", "detail": "no batch 999999999"}
    assert client.post("/v1/batches/999999999/cancel", headers=auth).status_code == 404
    assert client.get("/v1/batches/0").status_code == 422
