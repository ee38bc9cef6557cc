"""Batches through real worker processes over real Postgres and Redis: completion with exact
counts, kill -9 of a worker, a Redis restart, and a misbehaving teacher."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from app.db.models import Batch, Execution, Program, Question, Sample, TeacherCall
from tests.e2e.conftest import PrivateRedis
from tests.support import wait_for

SPEC = {"levels": ["C1", "C2", "C3", "C4", "C5", "C6"], "inputs_per_program": 2, "mutation": False, "seed": 5}


def _assert_consistent(service, batch_id: int, programs: int) -> dict:
    """Every slot has exactly one program; every row is final; nothing is duplicated."""
    with service.session() as s:
        slots = s.scalars(select(Program.slot).where(Program.batch_id == batch_id, Program.variant == 0)).all()
        assert sorted(slots) == list(range(programs))
        in_flight = s.scalar(select(func.count()).where(Sample.batch_id == batch_id, Sample.status.in_(["pending", "executed"])))
        assert in_flight == 0
        unsampled = s.scalar(
            select(func.count()).select_from(Program).where(
                Program.batch_id == batch_id, Program.status == "kept",
                ~select(Sample.id).where(Sample.program_id == Program.id).exists(),
            )
        )
        assert unsampled == 0
        accepted = s.scalar(select(func.count()).where(Sample.batch_id == batch_id, Sample.status == "accepted"))
        samples = s.scalar(select(func.count()).where(Sample.batch_id == batch_id))
        executions = s.scalar(select(func.count()).select_from(Execution).join(Program).where(Program.batch_id == batch_id))
        questions = s.scalar(select(func.count()).select_from(Question).join(Sample).where(Sample.batch_id == batch_id))
        # two hash seeds per executed sample, at most
        assert executions <= 2 * samples
        return {"accepted": accepted, "samples": samples, "questions": questions}


def test_batch_over_c1_to_c6_completes_on_worker_processes(make_service) -> None:
    service = make_service()
    service.start_worker()
    batch_id = service.post_batch(programs=24, **SPEC)
    detail = service.wait_done(batch_id)
    assert detail["status"] == "completed"
    rows = _assert_consistent(service, batch_id, 24)
    assert detail["samples_accepted"] == rows["accepted"] > 0
    assert detail["programs_done"] == 24
    funnel = {stage["stage"]: stage for stage in detail["funnel"]}
    sample_stage = next(v for k, v in funnel.items() if "sample" in k)
    assert sample_stage["total"] == rows["samples"]
    with service.session() as s:
        levels = set(s.scalars(select(Program.level).where(Program.batch_id == batch_id)))
        assert levels == {"C1", "C2", "C3", "C4", "C5", "C6"}
        # the work really ran in the worker processes (Celery), not here
        assert s.get(Batch, batch_id).started_at is not None


def test_kill_9_a_worker_mid_batch_then_another_finishes_it(make_service) -> None:
    service = make_service(EXECSYNTH_WORKER__VISIBILITY_TIMEOUT_S="6", EXECSYNTH_WORKER__CHUNK_SIZE="4")
    first = service.start_worker(concurrency=2)
    batch_id = service.post_batch(programs=48, **SPEC)

    def some_progress() -> bool:
        with service.session() as s:
            return s.scalar(select(func.count()).where(Sample.batch_id == batch_id)) >= 8

    wait_for(some_progress, timeout=120, what="the batch to start")
    first.kill9()
    with service.session() as s:
        from app.synthesis.repository import unfinished_slots

        assert s.get(Batch, batch_id).status == "running"
        assert unfinished_slots(s, batch_id, 48), "the kill must land mid-batch"
    service.start_worker(concurrency=2)
    detail = service.wait_done(batch_id, timeout=300)
    assert detail["status"] == "completed"
    rows = _assert_consistent(service, batch_id, 48)
    assert detail["samples_accepted"] == rows["accepted"]
    with service.session() as s:
        calls = s.execute(
            select(TeacherCall.request_key, func.count()).where(TeacherCall.batch_id == batch_id).group_by(TeacherCall.request_key)
        ).all()
        assert all(n == 1 for _, n in calls)


@pytest.fixture()
def private_redis(tmp_path) -> Iterator[PrivateRedis]:
    """A Redis of this test's own, to stop and start: it keeps nothing on disk."""
    private = PrivateRedis(tmp_path)
    private.start()
    yield private
    private.stop()


def test_batch_completes_across_a_redis_restart(make_service, private_redis) -> None:
    service = make_service(
        broker_url=private_redis.url, EXECSYNTH_WORKER__CHUNK_SIZE="4",
        EXECSYNTH_WORKER__STALL_AFTER_S="4", EXECSYNTH_WORKER__RESUME_EVERY_S="2",
    )
    service.start_worker()
    service.start_beat()
    batch_id = service.post_batch(programs=40, **SPEC)

    def started() -> bool:
        with service.session() as s:
            return s.scalar(select(func.count()).where(Program.batch_id == batch_id)) >= 4

    wait_for(started, timeout=120, what="the batch to start")
    private_redis.stop()  # every queued message is lost
    time.sleep(2)
    private_redis.start()
    detail = service.wait_done(batch_id, timeout=300)
    # (a failed batch says why; the workers' last log lines say what led there)
    assert detail["status"] == "completed", (detail.get("error"), [w.log()[-2000:] for w in service.workers])
    _assert_consistent(service, batch_id, 40)


def test_a_batch_whose_start_message_was_lost_is_started_by_the_beat(make_service, private_redis) -> None:
    service = make_service(broker_url=private_redis.url, EXECSYNTH_WORKER__STALL_AFTER_S="3",
                           EXECSYNTH_WORKER__RESUME_EVERY_S="1")
    batch_id = service.post_batch(programs=8, **SPEC)  # no worker yet: the start message waits in Redis
    private_redis.stop()  # ...and is lost with it
    private_redis.start()
    assert service.status(batch_id) == "pending"
    service.start_worker()
    service.start_beat()
    detail = service.wait_done(batch_id, timeout=300)
    assert detail["status"] == "completed"
    _assert_consistent(service, batch_id, 8)


def _program_for(prompt: str, index: int) -> str:
    return (
        "Here is the program.\n```python\n"
        f"def helper(items):\n    return [x * {index % 7 + 2} for x in items]\n\n"
        f"def solve(items):\n    total = 0\n    for v in helper(items):\n        if v > {index % 5}:\n            total += v\n    return total + {index}\n\n"
        "print(solve([1, 2, 3, 4]))\n```"
    )


def test_teacher_failures_are_retried_or_recorded_and_the_batch_completes(make_service) -> None:
    from tests.fakes.openai_server import FakeOpenAIServer, Hang, MalformedJSON, RateLimit, ServerError

    def responder(request) -> str:
        return _program_for(request.last_user_message, request.index)

    def rule(index: int, payload: dict):
        # 1 in 3 calls misbehaves; calls 30-35 fail on every attempt (exhausted retries)
        if 30 <= index < 60 and index % 2 == 0:
            return ServerError(status=500)
        return [None, RateLimit(retry_after="0"), ServerError(status=503), MalformedJSON(), Hang()][index % 5] if index % 3 == 0 else None

    with FakeOpenAIServer(responder=responder, rule=rule) as server:
        teachers = {"fake": {"kind": "openai", "base_url": server.base_url, "model": "fake-coder", "max_retries": 2,
                             "backoff_base_s": 0.01, "backoff_max_s": 0.2, "request_timeout_s": 2.0, "concurrency": 4}}
        service = make_service(EXECSYNTH_TEACHERS=json.dumps(teachers))
        service.start_worker()
        batch_id = service.post_batch(programs=12, teacher="fake", **{**SPEC, "levels": ["C1"]})
        detail = service.wait_done(batch_id, timeout=240)
        stats = server.stats()
    assert detail["status"] == "completed"
    _assert_consistent(service, batch_id, 12)
    with service.session() as s:
        calls = s.scalars(select(TeacherCall).where(TeacherCall.batch_id == batch_id)).all()
        assert calls and all(c.status in ("ok", "error") for c in calls)
        assert any(c.attempts > 1 for c in calls), "some calls were retried"
        assert sum(c.prompt_tokens for c in calls) > 0
        reasons = dict(s.execute(
            select(Program.reject_reason, func.count()).where(Program.batch_id == batch_id).group_by(Program.reject_reason)
        ).all())
    assert stats.chat_requests > len(calls)  # retries happened over real HTTP
    assert {"RateLimit", "ServerError", "MalformedJSON", "Hang"} <= set(stats.served)
    assert stats.max_in_flight <= 4  # the teacher's concurrency held across the worker's processes
    # every program is kept or rejected with a reason (constraint checks may reject these fixed programs)
    assert sum(reasons.values()) == 12
