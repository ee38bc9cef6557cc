"""Queries for a batch's teacher calls and programs: keyset pages in id order."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, defer

from app.db.models import Program, TeacherCall


def teacher_calls(session: Session, batch_id: int, after_id: int, limit: int, status: str | None,
                  purpose: str | None, with_text: bool) -> Sequence[TeacherCall]:
    query = select(TeacherCall).where(TeacherCall.batch_id == batch_id, TeacherCall.id > after_id)
    if status is not None:
        query = query.where(TeacherCall.status == status)
    if purpose is not None:
        query = query.where(TeacherCall.purpose == purpose)
    if not with_text:
        query = query.options(defer(TeacherCall.prompt), defer(TeacherCall.raw_completion))
    return session.scalars(query.order_by(TeacherCall.id).limit(limit)).all()


def programs(session: Session, batch_id: int, after_id: int, limit: int, status: str | None,
             reject_reason: str | None) -> Sequence[Program]:
    query = select(Program).where(Program.batch_id == batch_id, Program.id > after_id)
    if status is not None:
        query = query.where(Program.status == status)
    if reject_reason is not None:
        query = query.where(Program.reject_reason == reject_reason)
    return session.scalars(query.order_by(Program.id).limit(limit)).all()
