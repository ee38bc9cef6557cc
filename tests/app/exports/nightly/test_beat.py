"""Scheduled exports through real beat and worker processes (Postgres, a private Redis, real
`execsynth synth` batches): consecutive windows are disjoint and cover every accepted sample,
a failing run is retried, recorded and its window covered by the next successful run, a full
snapshot rides along, only the last N runs are kept."""

from __future__ import annotations

import json
import time

import pyarrow.parquet as pq
from sqlalchemy import select

from app.db.models import Export, Sample
from tests.app.exports.nightly.conftest import synth
from tests.support import wait_for

ALL_SPEC = {"splits": [{"name": "all", "tasks": [{"task_type": "io"}]}], "seed": 1}
FAST = {
    "EXECSYNTH_EXPORTS__SCHEDULE": "1.5", "EXECSYNTH_EXPORTS__FORMATS": '["verl"]',
    "EXECSYNTH_EXPORTS__SPEC": json.dumps(ALL_SPEC), "EXECSYNTH_EXPORTS__SETTLE_S": "0.2",
    "EXECSYNTH_EXPORTS__KEEP_LAST": "2", "EXECSYNTH_EXPORTS__FULL_EVERY": "2",
    "EXECSYNTH_EXPORTS__MAX_RETRIES": "1", "EXECSYNTH_EXPORTS__RETRY_BACKOFF_S": "0.5",
}


def _rows(service, kind: str = "incremental") -> list[Export]:
    with service.session() as s:
        return list(s.scalars(select(Export).where(Export.kind == kind).order_by(Export.id)))


def _sample_ids(row: Export) -> set[int]:
    return {r["extra_info"]["sample_id"] for r in pq.read_table(f"{row.out_dir}/all.parquet").to_pylist()}


def _accepted(service, before=None) -> set[int]:
    with service.session() as s:
        stmt = select(Sample.id).where(Sample.status == "accepted")
        if before is not None:
            stmt = stmt.where(Sample.created_at < before)
        return set(s.scalars(stmt))


def _logs(service) -> str:
    beat = (service.data_dir / "beat.log").read_text(errors="replace")[-2000:]
    return beat + "\n".join(w.log()[-3000:] for w in service.workers)


def _wait_done(service, count: int, kind: str = "incremental") -> list[Export]:
    wait_for(lambda: len([r for r in _rows(service, kind) if r.status in ("done", "pruned")]) >= count,
             timeout=90, interval=0.3, what=lambda: f"{count} done {kind} runs; rows {[(r.id, r.status, r.error) for r in _rows(service, kind)]}\n{_logs(service)}")
    return [r for r in _rows(service, kind) if r.status in ("done", "pruned")]


def test_beat_exports_disjoint_windows_retries_failures_and_keeps_the_last_n(make_nightly) -> None:
    service = make_nightly(**FAST)
    synth(service.database_url, service.data_dir / "synth", seed=1)
    service.start_worker(concurrency=2)
    service.start_beat()

    first = _wait_done(service, 1)[0]
    assert (first.window_start, first.window_key) == (None, "incremental:verl:origin")
    one = _sample_ids(first)
    assert one == _accepted(service) and first.sample_count == len(one) > 0

    synth(service.database_url, service.data_dir / "synth", seed=2)
    second = _wait_done(service, 2)[1]
    two = _sample_ids(second)
    assert second.window_start == first.window_end and second.window_key == f"incremental:verl:{first.window_end.isoformat()}"
    assert one.isdisjoint(two) and one | two == _accepted(service) and two

    # block the incremental folder: the next run fails, is retried once, then recorded failed
    exports = service.data_dir / "exports"
    (exports / "incremental").rename(exports / "incremental.away")
    (exports / "incremental").write_text("not a folder")
    synth(service.database_url, service.data_dir / "synth", seed=3)
    wait_for(lambda: any(r.status == "failed" for r in _rows(service)), timeout=60, interval=0.3,
             what=lambda: f"a failed run; {_logs(service)}")
    failed = next(r for r in _rows(service) if r.status == "failed")
    assert failed.attempts == 2 and "attempt 2" in failed.error and "Error" in failed.error
    assert failed.window_start == second.window_end and failed.window_key.endswith(f"#failed-{failed.id}")
    listed = service.client.get("/v1/exports?kind=incremental&status=failed").json()["items"]
    assert failed.id in {i["id"] for i in listed} and all(i["error"] for i in listed)

    (exports / "incremental").unlink()
    (exports / "incremental.away").rename(exports / "incremental")
    third = _wait_done(service, 3)[2]
    three = _sample_ids(third)
    assert third.window_start == second.window_end and third.window_end >= failed.window_end
    assert three and three.isdisjoint(one | two) and one | two | three == _accepted(service)

    # the full snapshot came with the run after two incremental ones: everything before its end
    full = _wait_done(service, 1, "full")[0]
    assert full.window_start is None and full.window_key == f"full:verl:{second.window_end.isoformat()}"
    assert _sample_ids(full) == _accepted(service, before=full.window_end)

    # keep_last=2: the first incremental folder is gone and its row says so
    wait_for(lambda: _rows(service)[0].status == "pruned", timeout=30, what="the oldest run to be pruned")
    assert not (exports / "incremental" / f"{first.id}-verl").exists()
    assert (exports / "incremental" / f"{second.id}-verl" / "manifest.json").exists()
    assert sorted(p.name for p in (exports / "incremental").iterdir()) == [f"{second.id}-verl", f"{third.id}-verl"]
    detail = service.client.get(f"/v1/exports/{first.id}").json()
    assert detail["status"] == "pruned" and detail["window_end"] is not None
    # nothing new since: later ticks add no run
    before = len(_rows(service)) + len(_rows(service, "full"))
    time.sleep(4)
    assert len(_rows(service)) + len(_rows(service, "full")) == before
