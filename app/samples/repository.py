"""Every sample query: the filtered keyset page and one sample with its program, execution
and questions."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Execution, Program, Question, Sample
from app.samples.schemas import SampleFilter

# list items need only these; features/trace stay on disk until a detail read
LIST_COLUMNS = (
    Sample.id, Sample.batch_id, Sample.program_id, Sample.status, Sample.reject_reason,
    Sample.constraint_type, Sample.constraint_method, Sample.level, Sample.difficulty_level,
    Sample.difficulty_score, Sample.solver_passes, Sample.solver_k, Sample.input_index,
    Sample.input_origin, Sample.created_at,
)


def page(session: Session, filters: SampleFilter, after_id: int | None, limit: int) -> list:
    """Rows with id > after_id in id order, `limit` of them (keyset: no OFFSET scans)."""
    query = select(*LIST_COLUMNS)
    equal = {
        Sample.batch_id: filters.batch_id, Sample.constraint_type: filters.type,
        Sample.constraint_method: filters.method, Sample.level: filters.level,
        Sample.status: filters.status, Sample.reject_reason: filters.reject_reason,
    }
    for column, value in equal.items():
        if value is not None:
            query = query.where(column == value)
    if filters.solver_passes_min is not None:
        query = query.where(Sample.solver_passes >= filters.solver_passes_min)
    if filters.solver_passes_max is not None:
        query = query.where(Sample.solver_passes <= filters.solver_passes_max)
    if filters.difficulty_min is not None:
        query = query.where(Sample.difficulty_score >= filters.difficulty_min)
    if filters.difficulty_max is not None:
        query = query.where(Sample.difficulty_score <= filters.difficulty_max)
    if after_id is not None:
        query = query.where(Sample.id > after_id)
    return list(session.execute(query.order_by(Sample.id).limit(limit)).mappings())


def get(session: Session, sample_id: int) -> Sample | None:
    return session.get(Sample, sample_id)


def program(session: Session, program_id: int) -> Program:
    return session.get_one(Program, program_id)


def execution(session: Session, execution_id: int | None) -> Execution | None:
    return None if execution_id is None else session.get(Execution, execution_id)


def questions(session: Session, sample_id: int) -> list[Question]:
    return list(session.scalars(select(Question).where(Question.sample_id == sample_id).order_by(Question.position)))
