"""Pages of a batch's teacher calls and programs. One row more than the page is read, so the
last page says so (`next_cursor: null`) without a count query."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.batch_records import repository as repo
from app.batch_records.schemas import ProgramPage, ProgramRead, TeacherCallPage, TeacherCallRead
from app.samples import cursor as cursors

_CALL_FIELDS = ("id", "batch_id", "request_key", "purpose", "teacher", "model", "status", "error",
                "prompt_template", "params", "prompt_tokens", "completion_tokens", "latency_ms", "cost_usd",
                "attempts", "created_at")


def teacher_calls(session: Session, batch_id: int, cursor: str | None, limit: int, status: str | None = None,
                  purpose: str | None = None, include_text: bool = True) -> TeacherCallPage:
    after = cursors.decode(cursor) if cursor else 0
    rows = repo.teacher_calls(session, batch_id, after, limit + 1, status, purpose, include_text)
    items = [TeacherCallRead(**{name: getattr(row, name) for name in _CALL_FIELDS},
                             prompt=row.prompt if include_text else None,
                             raw_completion=row.raw_completion if include_text else None)
             for row in rows[:limit]]
    return TeacherCallPage(items=items, next_cursor=cursors.encode(rows[limit - 1].id) if len(rows) > limit else None)


def programs(session: Session, batch_id: int, cursor: str | None, limit: int, status: str | None = None,
             reject_reason: str | None = None) -> ProgramPage:
    after = cursors.decode(cursor) if cursor else 0
    rows = repo.programs(session, batch_id, after, limit + 1, status, reject_reason)
    items = [ProgramRead.model_validate(row, from_attributes=True) for row in rows[:limit]]
    return ProgramPage(items=items, next_cursor=cursors.encode(rows[limit - 1].id) if len(rows) > limit else None)
