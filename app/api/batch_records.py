"""/v1/batches/{id}/teacher-calls and /programs: what the batch sent and got back, call by
call, and every program with why it was rejected. Prompts and completions are the teacher's
raw text, so these routes need an API key."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from sqlalchemy.orm import Session

from app.api.batches import batch_or_404
from app.api.deps import api_key, db_session
from app.api.schemas import AUTH_ERRORS, errors
from app.batch_records import service
from app.batch_records.schemas import CallPurpose, CallStatus, ProgramPage, TeacherCallPage
from app.db.models import Batch
from app.samples.schemas import NO_NUL
from workers.pipeline.lifecycle import ProgramStatus

router = APIRouter(prefix="/batches/{batch_id}", tags=["batches"], dependencies=[Depends(api_key)])
Cursor = Query(default=None, max_length=64, pattern=NO_NUL, description="next_cursor of the previous page")
Limit = Query(default=50, ge=1, le=500)


@router.get("/teacher-calls", response_model=TeacherCallPage,
            summary="Teacher calls in id order: prompt, raw completion, latency, tokens, cost, error",
            responses=errors(400, 404, 422, *AUTH_ERRORS))
def teacher_calls(
    batch: Batch = Depends(batch_or_404),
    cursor: str | None = Cursor,
    limit: int = Limit,
    status: CallStatus | None = Query(default=None),
    purpose: CallPurpose | None = Query(default=None),
    include_text: bool = Query(default=True, description="false leaves out prompts and completions"),
    session: Session = Depends(db_session),
) -> TeacherCallPage:
    return service.teacher_calls(session, batch.id, cursor, limit, status, purpose, include_text)


@router.get("/programs", response_model=ProgramPage,
            summary="Programs in id order with their status, reject reason and detail",
            responses=errors(400, 404, 422, *AUTH_ERRORS))
def programs(
    batch: Batch = Depends(batch_or_404),
    cursor: str | None = Cursor,
    limit: int = Limit,
    status: ProgramStatus | None = Query(default=None),
    reject_reason: str | None = Query(default=None, min_length=1, max_length=64, pattern=NO_NUL),
    session: Session = Depends(db_session),
) -> ProgramPage:
    return service.programs(session, batch.id, cursor, limit, status, reject_reason)
