"""Reading samples: cursor pages for browsing and one sample with everything needed to audit
it (program, input, result, trace, questions, provenance)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.errors import NotFound
from app.samples import cursor
from app.samples import repository as repo
from app.samples.schemas import (
    ExecutionView, ProgramView, QuestionView, SampleDetail, SampleFilter, SamplePage, SampleRead,
)


def list_page(session: Session, filters: SampleFilter, after: str | None, limit: int) -> SamplePage:
    after_id = cursor.decode(after) if after else None
    rows = repo.page(session, filters, after_id, limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    return SamplePage(
        items=[SampleRead.model_validate(dict(r)) for r in rows],
        next_cursor=cursor.encode(rows[-1]["id"]) if more else None,
        limit=limit,
    )


def detail(session: Session, sample_id: int, include_trace: bool = True) -> SampleDetail:
    sample = repo.get(session, sample_id)
    if sample is None:
        raise NotFound(f"no sample {sample_id}")
    program = repo.program(session, sample.program_id)
    execution = repo.execution(session, sample.execution_id)
    exec_view = None
    if execution is not None:
        exec_view = ExecutionView.model_validate(execution, from_attributes=True)
        if not include_trace:
            exec_view.trace = None
    provenance = dict(program.provenance or {})
    provenance.update(
        batch_id=sample.batch_id, program_origin=program.origin, prompt_template=program.prompt_template,
        teacher_call_id=program.teacher_call_id, input_origin=sample.input_origin,
    )
    if execution is not None:
        provenance.update(python_version=execution.python_version, hash_seed=execution.hash_seed)
    return SampleDetail(
        **SampleRead.model_validate(sample, from_attributes=True).model_dump(),
        args_source=sample.args_source, reject_detail=sample.reject_detail, features=sample.features or {},
        teacher_solved=sample.teacher_solved, result_chars=sample.result_chars, trace_steps=sample.trace_steps,
        program=ProgramView.model_validate(program, from_attributes=True),
        execution=exec_view,
        questions=[QuestionView.model_validate(q, from_attributes=True) for q in repo.questions(session, sample.id)],
        provenance=provenance,
    )
