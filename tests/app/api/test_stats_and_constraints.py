"""GET /v1/stats/difficulty, /v1/stats/funnel and /v1/constraints."""

from __future__ import annotations

import threading
import time

from sqlalchemy import select

from app.db.session import session_scope
from app.stats.cache import SnapshotCache
from tests.app.api.factory import add_program, add_sample, add_teacher_calls, make_batch


def test_difficulty_distributions_and_level_by_pass_rate_table(client, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg)
    p1 = add_program(migrated_pg, batch_id, 0)
    p2 = add_program(migrated_pg, batch_id, 1, type_="list", method="append", level="C3")
    add_sample(migrated_pg, batch_id, p1, 0, passes=0)
    add_sample(migrated_pg, batch_id, p1, 1, passes=3)
    add_sample(migrated_pg, batch_id, p2, 0, passes=3, type_="list", method="append", level="C3")
    add_sample(migrated_pg, batch_id, p2, 1, status="rejected", reason="too_easy", passes=10,
               type_="list", method="append", level="C3")
    add_sample(migrated_pg, batch_id, p2, 2, status="rejected", reason="timeout", passes=None,
               type_="list", method="append", level="C3")

    body = client.get("/v1/stats/difficulty", params={"batch_id": batch_id}).json()
    assert (body["total"], body["accepted"]) == (5, 3)
    by_type = {b["key"]: b for b in body["by_type"]}
    assert by_type["str"] | {} == {"key": "str", "total": 2, "accepted": 2, "rejected": 0, "acceptance_rate": 1.0,
                                   "solved_samples": 2, "mean_pass_rate": 0.15}
    assert (body["rejected"], body["acceptance_rate"]) == (2, 0.6)
    assert (by_type["list"]["total"], by_type["list"]["solved_samples"]) == (3, 2)
    assert by_type["list"]["mean_pass_rate"] == 0.65
    assert [(m["type"], m["method"], m["total"]) for m in body["by_method"]] == [("list", "append", 3), ("str", "split", 2)]
    assert [(b["key"], b["total"]) for b in body["by_level"]] == [("C1", 2), ("C3", 3)]
    assert [(b["pass_rate"], b["total"], b["accepted"]) for b in body["pass_rate"]] == [(0.0, 1, 1), (0.3, 2, 2), (1.0, 1, 0)]
    assert body["level_pass_rate"] == {"C1": {"0.0": 1, "0.3": 1}, "C3": {"0.3": 1, "1.0": 1}}
    accepted = client.get("/v1/stats/difficulty", params={"batch_id": batch_id, "status": "accepted"}).json()
    assert accepted["total"] == 3 and accepted["level_pass_rate"] == {"C1": {"0.0": 1, "0.3": 1}, "C3": {"0.3": 1}}


def test_feature_means_per_level_with_filters(client, migrated_pg) -> None:
    batch_id = make_batch(migrated_pg)
    p1 = add_program(migrated_pg, batch_id, 0)
    p2 = add_program(migrated_pg, batch_id, 1, type_="list", method="append", level="C3")
    add_sample(migrated_pg, batch_id, p1, 0, score=1.0, features={"trace_steps": 10, "loop_iterations": 2})
    add_sample(migrated_pg, batch_id, p1, 1, score=2.0, features={"trace_steps": 20, "loop_iterations": 4})
    add_sample(migrated_pg, batch_id, p1, 2, score=None, status="pending", features={})  # not executed yet
    add_sample(migrated_pg, batch_id, p2, 0, score=4.5, type_="list", method="append", level="C3",
               features={"trace_steps": 7, "loop_iterations": 0})

    body = client.get("/v1/stats/features", params={"batch_id": batch_id}).json()
    assert body["features"][:3] == ["difficulty_score", "trace_steps", "lines_executed"]
    levels = {lv["level"]: lv for lv in body["levels"]}
    assert list(levels) == ["C1", "C3"]
    assert (levels["C1"]["samples"], levels["C1"]["with_features"]) == (3, 2)
    c1 = levels["C1"]["means"]
    assert (c1["difficulty_score"], c1["trace_steps"], c1["loop_iterations"], c1["helper_calls"]) == (1.5, 15.0, 3.0, None)
    assert levels["C3"]["means"]["trace_steps"] == 7.0

    only_list = client.get("/v1/stats/features", params={"batch_id": batch_id, "type": "list"}).json()
    assert [lv["level"] for lv in only_list["levels"]] == ["C3"]
    accepted = client.get("/v1/stats/features", params={"batch_id": batch_id, "status": "accepted", "level": "C1"}).json()
    assert [(lv["samples"], lv["means"]["trace_steps"]) for lv in accepted["levels"]] == [(2, 15.0)]
    future = client.get("/v1/stats/features", params={"batch_id": batch_id, "created_from": "2999-01-01T00:00:00Z"}).json()
    assert future["levels"] == []
    window = client.get("/v1/stats/features", params={"batch_id": batch_id, "created_from": "2000-01-01",
                                                      "created_to": "2999-01-01"}).json()
    assert sum(lv["samples"] for lv in window["levels"]) == 4

    bad = client.get("/v1/stats/features", params={"created_from": "2026-02-01", "created_to": "2026-01-01"})
    assert bad.status_code == 400 and "must be before" in bad.json()["detail"]
    assert client.get("/v1/stats/features", params={"status": "nope"}).status_code == 422


def test_feature_means_on_sqlite(tmp_path) -> None:
    """The JSON extraction is portable: the embedded (SQLite) deployment runs the same query."""
    from app.db import migrate
    from app.stats import repository
    from app.stats.service import FEATURE_NAMES

    url = f"sqlite:///{tmp_path / 'stats.db'}"
    migrate.upgrade(url)
    batch_id = make_batch(url)
    program = add_program(url, batch_id, 0)
    add_sample(url, batch_id, program, 0, score=1.0, features={"trace_steps": 3, "control_depth": 1})
    add_sample(url, batch_id, program, 1, score=3.0, features={"trace_steps": 5})
    with session_scope(url) as session:
        [(level, n, with_features, score, *means)] = repository.feature_means(session, FEATURE_NAMES, batch_id=batch_id)
    named = dict(zip(FEATURE_NAMES, means))
    assert (level, n, with_features, score) == ("C1", 2, 2, 2.0)
    assert (named["trace_steps"], named["control_depth"], named["helper_calls"]) == (4.0, 1.0, None)


def test_funnel_overall_and_per_batch(client, migrated_pg) -> None:
    before = client.get("/v1/stats/funnel").json()["overall"]
    batch_id = make_batch(migrated_pg)
    add_teacher_calls(migrated_pg, batch_id, ok=2, errors=1)
    program = add_program(migrated_pg, batch_id, 0)
    add_program(migrated_pg, batch_id, 1, status="rejected", reason="no_print_call")
    add_sample(migrated_pg, batch_id, program, 0)
    add_sample(migrated_pg, batch_id, program, 1, status="rejected", reason="too_easy")
    body = client.get("/v1/stats/funnel", params={"batches": 5}).json()
    mine = next(b for b in body["batches"] if b["batch_id"] == batch_id)
    stages = {s["stage"]: s for s in mine["funnel"]}
    assert (stages["teacher_calls"]["total"], stages["teacher_calls"]["passed"]) == (3, 2)
    assert stages["programs"]["reasons"] == {"no_print_call": 1} and stages["samples"]["reasons"] == {"too_easy": 1}
    assert body["batches"][0]["batch_id"] == batch_id and len(body["batches"]) <= 5
    grew = [a["total"] - b["total"] for a, b in zip(body["overall"], before)]
    assert grew == [3, 2, 2]


def test_stats_snapshot_is_reused_within_its_ttl(make_client, migrated_pg) -> None:
    client = make_client(stats_ttl_s=60)
    batch_id = make_batch(migrated_pg)
    program = add_program(migrated_pg, batch_id, 0)
    add_sample(migrated_pg, batch_id, program, 0)
    first = client.get("/v1/stats/difficulty", params={"batch_id": batch_id}).json()
    add_sample(migrated_pg, batch_id, program, 1)
    cached = client.get("/v1/stats/difficulty", params={"batch_id": batch_id}).json()
    assert cached["total"] == first["total"] == 1 and cached["computed_at"] == first["computed_at"]
    assert cached["max_age_s"] == 60


def _settle(cache: SnapshotCache, key: str, expected, timeout: float = 10.0) -> None:
    """Wait for a background refresh of `key` to store `expected`."""
    deadline = time.monotonic() + timeout
    while cache.peek(key) != expected:
        assert time.monotonic() < deadline, f"{key} never became {expected!r}"
        time.sleep(0.01)


def test_snapshot_cache_expires_and_computes_once_per_key() -> None:
    now, calls = [0.0], []
    cache = SnapshotCache(5, clock=lambda: now[0])
    compute = lambda: calls.append(1) or len(calls)  # noqa: E731
    assert [cache.get("a", compute), cache.get("a", compute)] == [1, 1]
    assert cache.get("b", compute) == 2
    now[0] = 3.0  # "a" is due for a refresh: its caller gets it at once and a refresh starts behind it
    assert cache.get("a", compute) == 1
    _settle(cache, "a", 3)
    assert cache.get("a", compute) == 3 and len(calls) == 3


def test_no_snapshot_older_than_the_ttl_is_served() -> None:
    now, calls = [0.0], []
    cache = SnapshotCache(5, clock=lambda: now[0])
    compute = lambda: calls.append(1) or len(calls)  # noqa: E731
    assert cache.get("a", compute) == 1
    now[0] = 600.0  # an idle spell: the old snapshot is not served, the caller waits for a new one
    assert cache.peek("a") is None
    assert cache.get("a", compute) == 2 and len(calls) == 2


def test_stale_snapshot_is_served_while_a_background_refresh_runs() -> None:
    now = [0.0]
    cache = SnapshotCache(5, clock=lambda: now[0])
    assert cache.get("a", lambda: "v1") == "v1"
    now[0] = 4.0  # due for a refresh
    entered, release, calls = threading.Event(), threading.Event(), []

    def slow_refresh() -> str:
        calls.append(threading.current_thread().name)
        entered.set()
        release.wait(10)
        return "v2"

    assert cache.get("a", slow_refresh) == "v1"  # the caller that noticed does not wait either
    assert entered.wait(10)
    assert [cache.get("a", slow_refresh) for _ in range(3)] == ["v1"] * 3  # one refresh at a time
    release.set()
    _settle(cache, "a", "v2")
    assert calls == ["snapshot-refresh"]


def test_a_failed_refresh_keeps_the_old_snapshot_and_is_retried() -> None:
    now = [0.0]
    cache = SnapshotCache(5, clock=lambda: now[0])
    cache.get("a", lambda: "v1")
    now[0] = 4.0
    failed = threading.Event()

    def broken() -> str:
        failed.set()
        raise RuntimeError("database away")

    assert cache.get("a", broken) == "v1"
    assert failed.wait(10)
    deadline = time.monotonic() + 10
    while cache.peek("a") != "v2":  # the failed refresh released its lock: a later caller starts another
        assert cache.get("a", lambda: "v2") in ("v1", "v2") and time.monotonic() < deadline
        time.sleep(0.01)


def test_first_computation_makes_concurrent_callers_wait() -> None:
    cache = SnapshotCache(5, clock=lambda: 0.0)
    calls, gate = [], threading.Event()

    def compute() -> int:
        calls.append(1)
        gate.wait(10)
        return 7

    threads = [threading.Thread(target=lambda: out.append(cache.get("k", compute))) for _ in range(4)]
    out: list[int] = []
    for t in threads:
        t.start()
    time.sleep(0.2)
    gate.set()
    for t in threads:
        t.join(10)
    assert out == [7, 7, 7, 7] and len(calls) == 1


def test_startup_computes_the_default_snapshots(settings, migrated_pg) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.stats import service

    batch_id = make_batch(migrated_pg)
    add_sample(migrated_pg, batch_id, add_program(migrated_pg, batch_id, 0), 0)
    # a busy machine must not age the warm snapshots out meanwhile
    app = create_app(settings.model_copy(update={"api": settings.api.model_copy(update={"stats_ttl_s": 3600.0})}))
    with TestClient(app) as client:  # runs the lifespan
        cache = app.state.stats_cache
        deadline = time.monotonic() + 60
        while (cache.peek(service.difficulty_key(None, None)) is None or cache.peek(service.funnel_key(50)) is None) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        warm = cache.peek(service.difficulty_key(None, None))
        assert warm is not None and cache.peek(service.funnel_key(50)) is not None
        assert client.get("/v1/stats/difficulty").content == warm  # served from the warm snapshot


def test_constraints_catalog(client) -> None:
    body = client.get("/v1/constraints").json()
    assert body["total"] == 186 and len(body["entries"]) == 186
    assert body["types"][:3] == ["str", "set", "list"]
    assert [lv["name"] for lv in body["levels"]] == ["C1", "C2", "C3", "C4", "C5", "C6"]
    assert body["levels"][5] == {"name": "C6", "nested_calls": True, "other_methods": True, "call_chain": True, "control_flow_depth": 3}
    zips = client.get("/v1/constraints", params={"type": "zip"}).json()
    assert zips["total"] == 1 and zips["entries"][0]["type"] == "zip"
    assert client.get("/v1/constraints", params={"type": "nope"}).json()["total"] == 0


def test_funnel_respects_type_method_level_and_date_filters(client, migrated_pg) -> None:
    from datetime import datetime, timedelta, timezone

    from app.db.models import Program, TeacherCall

    batch_id = make_batch(migrated_pg)
    add_teacher_calls(migrated_pg, batch_id, ok=2, errors=1)
    split = add_program(migrated_pg, batch_id, 0, type_="str", method="split", level="C1")
    append = add_program(migrated_pg, batch_id, 1, type_="list", method="append", level="C3")
    add_program(migrated_pg, batch_id, 2, status="rejected", reason="constraint_mismatch", type_="list",
                method="append", level="C3")
    add_sample(migrated_pg, batch_id, split, 0)
    add_sample(migrated_pg, batch_id, append, 0, type_="list", method="append", level="C3")
    add_sample(migrated_pg, batch_id, append, 1, status="rejected", reason="too_easy", type_="list", method="append", level="C3")
    with session_scope(migrated_pg) as session:
        calls = session.scalars(select(TeacherCall.id).where(TeacherCall.batch_id == batch_id,
                                                             TeacherCall.status == "ok").order_by(TeacherCall.id)).all()
        session.get(Program, split).teacher_call_id = calls[0]
        session.get(Program, append).teacher_call_id = calls[1]

    def stages(**params) -> dict:
        body = client.get("/v1/stats/funnel", params={"batches": 5, **params})
        assert body.status_code == 200, body.text
        mine = next(b for b in body.json()["batches"] if b["batch_id"] == batch_id)
        return {s["stage"]: (s["total"], s["passed"], s["rejected"]) for s in mine["funnel"]}

    assert stages() == {"teacher_calls": (3, 2, 1), "programs": (3, 2, 1), "samples": (3, 2, 1)}
    assert stages(type="list") == {"teacher_calls": (1, 1, 0), "programs": (2, 1, 1), "samples": (2, 1, 1)}
    assert stages(level="C1", method="split") == {"teacher_calls": (1, 1, 0), "programs": (1, 1, 0), "samples": (1, 1, 0)}
    assert stages(type="dict")["programs"] == (0, 0, 0)
    later = (datetime.now(timezone.utc) + timedelta(days=1)).isoformat()
    assert stages(created_from=later) == {"teacher_calls": (0, 0, 0), "programs": (0, 0, 0), "samples": (0, 0, 0)}
