"""Every stats query. Each reads its table once: the difficulty stats are one GROUP BY over
samples (portable to SQLite), folded into distributions in Python; the feature means are one
GROUP BY level with an average per feature read out of the JSON column; the funnel is one
GROUP BY per table over the (batch_id, status, reject_reason) index."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Batch, Program, Sample, TeacherCall


def difficulty_groups(session: Session, batch_id: int | None, status: str | None) -> list[tuple]:
    """(type, method, level, status, solver_k, solver_passes, n) rows."""
    cols = (Sample.constraint_type, Sample.constraint_method, Sample.level, Sample.status,
            Sample.solver_k, Sample.solver_passes)
    query = select(*cols, func.count()).group_by(*cols)
    if batch_id is not None:
        query = query.where(Sample.batch_id == batch_id)
    if status is not None:
        query = query.where(Sample.status == status)
    return [tuple(r) for r in session.execute(query)]


def feature_means(session: Session, names: Sequence[str], *, batch_id: int | None = None, type_: str | None = None,
                  method: str | None = None, level: str | None = None, status: str | None = None,
                  created_from: datetime | None = None, created_to: datetime | None = None) -> list[tuple]:
    """(level, samples, samples with features, mean difficulty_score, mean of each name...) rows.
    A feature a sample lacks is NULL and left out of its mean."""
    first = Sample.features[names[0]].as_float() if names else None
    query = select(
        Sample.level, func.count(), func.count(first) if first is not None else func.count(),
        func.avg(Sample.difficulty_score), *(func.avg(Sample.features[n].as_float()) for n in names),
    ).group_by(Sample.level).order_by(Sample.level)
    for column, value in ((Sample.batch_id, batch_id), (Sample.constraint_type, type_),
                          (Sample.constraint_method, method), (Sample.level, level), (Sample.status, status)):
        if value is not None:
            query = query.where(column == value)
    if created_from is not None:
        query = query.where(Sample.created_at >= created_from)
    if created_to is not None:
        query = query.where(Sample.created_at < created_to)
    return [tuple(r) for r in session.execute(query)]


def _sliced(query, model: type, slice_: Mapping[str, Any]):
    """Rows of the grid slice {type_, method, level, created_from, created_to} (None: any)."""
    for column, key in (("constraint_type", "type_"), ("constraint_method", "method"), ("level", "level")):
        if slice_.get(key) is not None:
            query = query.where(getattr(model, column) == slice_[key])
    if slice_.get("created_from") is not None:
        query = query.where(model.created_at >= slice_["created_from"])
    if slice_.get("created_to") is not None:
        query = query.where(model.created_at < slice_["created_to"])
    return query


def funnel_groups(session: Session, model: type, slice_: Mapping[str, Any] | None = None) -> list[tuple[int, str, str | None, int]]:
    query = select(model.batch_id, model.status, model.reject_reason, func.count())
    query = _sliced(query, model, slice_ or {}).group_by(model.batch_id, model.status, model.reject_reason)
    return [tuple(r) for r in session.execute(query)]  # type: ignore[misc]



def recent_batches(session: Session, limit: int) -> list[tuple[int, str]]:
    return [tuple(r) for r in session.execute(select(Batch.id, Batch.status).order_by(Batch.id.desc()).limit(limit))]  # type: ignore[misc]


def teacher_groups(session: Session, slice_: Mapping[str, Any] | None = None) -> list[tuple[int, int, int]]:
    """(batch_id, calls, ok calls). With a type/method/level slice, the calls that wrote a
    program of the slice (a call that failed wrote none, so it is counted only unsliced)."""
    slice_ = slice_ or {}
    query = select(TeacherCall.batch_id, func.count(TeacherCall.id.distinct()),
                   func.count(TeacherCall.id.distinct()).filter(TeacherCall.status == "ok"))
    if any(slice_.get(k) is not None for k in ("type_", "method", "level")):
        query = _sliced(query.join(Program, Program.teacher_call_id == TeacherCall.id), Program,
                        {k: slice_.get(k) for k in ("type_", "method", "level")})
    query = _sliced(query, TeacherCall, {k: slice_.get(k) for k in ("created_from", "created_to")})
    rows = session.execute(query.group_by(TeacherCall.batch_id))
    return [tuple(r) for r in rows]  # type: ignore[misc]
