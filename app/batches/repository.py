"""Every batch query: rows, the idempotency lookup, and the per-stage funnel aggregates."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Batch, Program, TeacherCall


def get(session: Session, batch_id: int) -> Batch | None:
    return session.get(Batch, batch_id)


def by_idempotency_key(session: Session, key: str) -> Batch | None:
    return session.scalars(select(Batch).where(Batch.idempotency_key == key)).one_or_none()


def by_idempotency_keys(session: Session, keys: list[str]) -> list[Batch]:
    if not keys:
        return []
    return list(session.scalars(select(Batch).where(Batch.idempotency_key.in_(keys))))


def add(session: Session, batch: Batch) -> Batch:
    session.add(batch)
    session.flush()
    return batch


def add_all(session: Session, batches: list[Batch]) -> list[Batch]:
    """One flush: SQLAlchemy sends a single multi-row INSERT ... RETURNING on Postgres."""
    session.add_all(batches)
    session.flush()
    return batches


def page(session: Session, limit: int, offset: int, status: str | None) -> tuple[list[Batch], int]:
    query = select(Batch)
    count = select(func.count()).select_from(Batch)
    if status is not None:
        query = query.where(Batch.status == status)
        count = count.where(Batch.status == status)
    rows = session.scalars(query.order_by(Batch.id.desc()).limit(limit).offset(offset)).all()
    return list(rows), session.scalar(count) or 0


def status_counts(session: Session, model: Any, batch_id: int) -> list[tuple[str, str | None, int]]:
    """(status, reject_reason, n) for programs or samples of one batch (index-only on
    (batch_id, status, reject_reason))."""
    rows = session.execute(
        select(model.status, model.reject_reason, func.count())
        .where(model.batch_id == batch_id)
        .group_by(model.status, model.reject_reason)
    )
    return [(s, r, n) for s, r, n in rows]


def programs_done(session: Session, batch_id: int) -> int:
    return session.scalar(
        select(func.count()).select_from(Program).where(Program.batch_id == batch_id, Program.variant == 0)
    ) or 0


def teacher_totals(session: Session, batch_id: int) -> dict[str, Any]:
    row = session.execute(
        select(
            func.count(),
            func.count().filter(TeacherCall.status == "ok"),
            func.coalesce(func.sum(TeacherCall.prompt_tokens), 0),
            func.coalesce(func.sum(TeacherCall.completion_tokens), 0),
            func.coalesce(func.sum(TeacherCall.cost_usd), 0.0),
        ).where(TeacherCall.batch_id == batch_id)
    ).one()
    total, ok, prompt, completion, cost = row
    return {"total": total, "ok": ok, "prompt_tokens": int(prompt), "completion_tokens": int(completion), "cost_usd": float(cost)}
