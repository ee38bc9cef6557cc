"""Every query on `exports` (and the one sample query that bounds a scheduled window)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import Batch, Export, Sample

FINISHED_OK = ("done", "pruned")  # a successful run, whether or not its folder is still kept
IN_FLIGHT = ("pending", "running")
# batches whose unfinished samples may still be accepted (the runner keeps finishing chunks
# of a budget-exhausted batch)
LIVE_BATCHES = ("pending", "running", "budget_exhausted")


def get(session: Session, export_id: int) -> Export | None:
    return session.get(Export, export_id)


def add(session: Session, row: Export) -> Export:
    session.add(row)
    session.flush()
    return row


def add_unless_key_taken(session: Session, row: Export) -> Export | None:
    """Insert-or-skip on the unique window_key: None when another run holds the key."""
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:
        return None
    return row


def by_key(session: Session, key: str) -> Export | None:
    return session.scalars(select(Export).where(Export.window_key == key)).one_or_none()


def page(session: Session, limit: int, offset: int, kind: str | None, status: str | None,
         fmt: str | None) -> tuple[list[Export], int]:
    query, count = select(Export), select(func.count()).select_from(Export)
    for column, value in ((Export.kind, kind), (Export.status, status), (Export.format, fmt)):
        if value is not None:
            query, count = query.where(column == value), count.where(column == value)
    rows = session.scalars(query.order_by(Export.id.desc()).limit(limit).offset(offset)).all()
    return list(rows), session.scalar(count) or 0


def start_attempt(session: Session, export_id: int, out_dir: str) -> bool:
    """pending/running -> running with one more attempt; False when the row is final."""
    result = session.execute(
        update(Export).where(Export.id == export_id, Export.status.in_(IN_FLIGHT))
        .values(status="running", attempts=Export.attempts + 1, out_dir=out_dir)
    )
    return result.rowcount == 1


def finish(session: Session, export_id: int, now: datetime, **values: Any) -> bool:
    """running -> done; False when the row stopped being ours meanwhile (e.g. recorded lost)."""
    result = session.execute(
        update(Export).where(Export.id == export_id, Export.status == "running")
        .values(status="done", finished_at=now, **values)
    )
    return result.rowcount == 1


def record_error(session: Session, export_id: int, error: str, now: datetime, final: bool) -> None:
    """Keep the error on the row; a final failure also frees the window key (renamed, so the
    failed run stays listed) for the next scheduled run to cover the window again."""
    row = session.get(Export, export_id, with_for_update=True)
    if row is None or row.status not in IN_FLIGHT:
        return
    row.error = error[:4000]
    if final:
        row.status, row.finished_at = "failed", now
        if row.window_key is not None:
            row.window_key = f"{row.window_key}#failed-{row.id}"
    session.flush()


def stale_in_flight(session: Session, created_before: datetime) -> list[Export]:
    stmt = select(Export).where(Export.status.in_(IN_FLIGHT), Export.created_at < created_before).order_by(Export.id)
    return list(session.scalars(stmt))


def last_success(session: Session, kind: str, fmt: str) -> Export | None:
    """The successful run of (kind, format) with the latest window end."""
    stmt = (select(Export).where(Export.kind == kind, Export.format == fmt, Export.status.in_(FINISHED_OK))
            .order_by(Export.window_end.desc(), Export.id.desc()).limit(1))
    return session.scalars(stmt).first()


def successes_since(session: Session, kind: str, fmt: str, after: datetime | None) -> int:
    stmt = select(func.count()).select_from(Export).where(
        Export.kind == kind, Export.format == fmt, Export.status.in_(FINISHED_OK))
    if after is not None:
        stmt = stmt.where(Export.created_at > after)
    return session.scalar(stmt) or 0




def kept_runs(session: Session, kind: str, fmt: str) -> list[Export]:
    """Done runs of (kind, format), newest window first (the retention order)."""
    stmt = (select(Export).where(Export.kind == kind, Export.format == fmt, Export.status == "done")
            .order_by(Export.window_end.desc(), Export.id.desc()))
    return list(session.scalars(stmt))


def mark_pruned(session: Session, export_ids: list[int]) -> None:
    if export_ids:
        session.execute(update(Export).where(Export.id.in_(export_ids), Export.status == "done")
                        .values(status="pruned"))


def oldest_unfinished_sample(session: Session, not_before: datetime) -> datetime | None:
    """created_at of the oldest sample still on its way to accepted/rejected in a live batch
    (ignoring ones stuck since before `not_before`): no window may end after it."""
    stmt = (
        select(func.min(Sample.created_at)).join(Batch, Batch.id == Sample.batch_id)
        .where(Sample.status.in_(("pending", "executed")), Batch.status.in_(LIVE_BATCHES),
               Sample.created_at >= not_before)
    )
    return session.scalar(stmt)


def latest_not_failed(session: Session, kind: str, fmt: str) -> Export | None:
    stmt = (select(Export).where(Export.kind == kind, Export.format == fmt, Export.status != "failed")
            .order_by(Export.id.desc()).limit(1))
    return session.scalars(stmt).first()


def accepted_in_window(session: Session, start: datetime | None, end: datetime) -> int:
    stmt = select(func.count()).select_from(Sample).where(Sample.status == "accepted", Sample.created_at < end)
    if start is not None:
        stmt = stmt.where(Sample.created_at >= start)
    return session.scalar(stmt) or 0


def missing_batch_ids(session: Session, batch_ids: list[int] | tuple[int, ...]) -> list[int]:
    """The ids of `batch_ids` that name no batch."""
    wanted = set(batch_ids)
    if not wanted:
        return []
    found = set(session.scalars(select(Batch.id).where(Batch.id.in_(wanted))))
    return sorted(wanted - found)
