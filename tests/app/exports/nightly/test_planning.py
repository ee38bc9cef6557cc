"""The beat tick's planning over real Postgres and a real synth batch, in this process:
concurrent ticks insert one run per window, a window never closes over a sample still in
flight, lost runs are recorded and their window planned again, full snapshots are due by
count or weekday."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.config import ExportSettings
from app.db.models import Batch, Export, Sample
from app.db.session import make_engine, session_scope
from app.exports import nightly, runner
from tests.app.exports.nightly.conftest import synth

@pytest.fixture()
def engine(own_pg, tmp_path):
    synth(own_pg, tmp_path / "synth", seed=7)
    eng = make_engine(own_pg)
    yield eng
    eng.dispose()


@pytest.fixture()
def now(engine) -> datetime:
    """The tick's clock: read after the batch is written (never at import: the suite can run
    for many minutes before these tests), far enough ahead that its samples have settled."""
    return datetime.now(timezone.utc) + timedelta(minutes=5)


def _runs(engine, kind: str | None = None) -> list[Export]:
    with Session(engine) as s:
        stmt = select(Export).order_by(Export.id)
        return list(s.scalars(stmt if kind is None else stmt.where(Export.kind == kind)))


def test_concurrent_ticks_plan_each_window_once(engine, now) -> None:
    cfg = ExportSettings(formats=["verl", "llamafactory"])
    gate, created, errors = threading.Barrier(4), [], []

    def beat() -> None:
        try:
            with Session(engine) as s:
                gate.wait()
                created.extend(nightly.tick(s, cfg, now))
                s.commit()
        except Exception as exc:  # surfaced below; a thread cannot fail the test itself
            errors.append(exc)

    threads = [threading.Thread(target=beat) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    runs = _runs(engine)
    assert sorted(r.window_key for r in runs) == ["incremental:llamafactory:origin", "incremental:verl:origin"]
    assert sorted(created) == [r.id for r in runs]
    verl = runs[[r.format for r in runs].index("verl")]
    assert verl.spec["created_before"] == verl.window_end.isoformat() and "created_after" not in verl.spec
    assert verl.window_end == now - timedelta(seconds=cfg.settle_s)
    # while those runs are in flight, another tick plans nothing
    with Session(engine) as s:
        assert nightly.tick(s, cfg, now + timedelta(seconds=1)) == []


def test_a_window_never_closes_over_a_sample_in_flight(engine, now) -> None:
    cfg = ExportSettings()
    with Session(engine) as s:
        sample = s.scalars(select(Sample).order_by(Sample.id.desc()).limit(1)).one()
        s.execute(update(Sample).where(Sample.id == sample.id).values(status="executed"))
        s.execute(update(Batch).where(Batch.id == sample.batch_id).values(status="running"))
        assert nightly.window_end(s, cfg, now) == sample.created_at
        # a batch that stopped (failed/cancelled) holds nothing back, nor a sample stuck too long
        assert nightly.window_end(s, cfg.model_copy(update={"hold_limit_s": 1.0}), now) == now - timedelta(seconds=60)
        s.execute(update(Batch).where(Batch.id == sample.batch_id).values(status="failed"))
        assert nightly.window_end(s, cfg, now) == now - timedelta(seconds=60)
        s.rollback()


def test_a_lost_run_is_recorded_failed_and_its_window_planned_again(engine, now, tmp_path) -> None:
    cfg = ExportSettings(formats=["verl"], stale_after_s=600)
    with Session(engine) as s:
        [lost_id] = nightly.tick(s, cfg, now)
        s.execute(update(Export).where(Export.id == lost_id).values(created_at=now - timedelta(hours=2), status="running"))
        s.commit()
        [again_id] = nightly.tick(s, cfg, now + timedelta(seconds=1))
        s.commit()
    lost, again = _runs(engine)
    assert (lost.id, lost.status, lost.window_key) == (lost_id, "failed", f"incremental:verl:origin#failed-{lost_id}")
    assert lost.error.startswith("lost: still running after 600 s")
    assert (again.id, again.status, again.window_key, again.window_start) == (again_id, "pending", "incremental:verl:origin", None)
    assert again.window_end > lost.window_end
    # a failed row is final: a redelivered run_export does nothing with it
    url = engine.url.render_as_string(hide_password=False)
    assert runner.execute(lambda: session_scope(url), lost.id, tmp_path) == "failed"
    assert _runs(engine)[0].attempts == 0


def test_full_snapshots_are_due_by_count_and_by_weekday(engine, now) -> None:
    with Session(engine) as s:
        by_count = ExportSettings(formats=["verl"], full_every=2)
        assert not nightly.full_due(s, by_count, "verl", now)
        for hours in (3, 2):
            s.add(Export(kind="incremental", format="verl", spec={}, status="done", files=[], sample_count=1, attempts=1,
                         window_end=now - timedelta(hours=hours), created_at=now - timedelta(hours=hours)))
        s.flush()
        assert nightly.full_due(s, by_count, "verl", now)
        s.add(Export(kind="full", format="verl", spec={}, status="pending", files=[], sample_count=0, attempts=0,
                     created_at=now - timedelta(hours=1)))
        s.flush()
        assert not nightly.full_due(s, by_count, "verl", now)  # one is in flight
        weekday = ExportSettings(formats=["verl"], full_every=0, full_weekday=now.weekday())
        s.execute(update(Export).where(Export.kind == "full").values(status="done", created_at=now - timedelta(days=1)))
        assert nightly.full_due(s, weekday, "verl", now)
        assert not nightly.full_due(s, weekday, "verl", now + timedelta(days=1))
        s.execute(update(Export).where(Export.kind == "full").values(created_at=now - timedelta(minutes=1)))
        assert not nightly.full_due(s, weekday, "verl", now)  # already taken today
        s.rollback()

