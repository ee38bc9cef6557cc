"""Every pipeline write and read the workers need. Writes are keyed on natural keys so a
redelivered task changes nothing; nothing here commits (the task or CLI boundary does)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import and_, bindparam, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import Batch, Execution, Program, Question, Sample, TeacherCall
from app.db.upsert import insert_ignore
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.lifecycle import (
    SAMPLE_IN_FLIGHT,
    BatchStatus,
    ProgramStatus,
    SampleStatus,
    check_move,
    sources_of,
)
from workers.pipeline.records import ChatRequest, Completion


def now() -> datetime:
    return datetime.now(timezone.utc)


def get_batch(session: Session, batch_id: int) -> Batch | None:
    return session.get(Batch, batch_id)


def used_seeds(session: Session) -> set[int]:
    return set(session.scalars(select(Batch.seed)))


def batch_status(session: Session, batch_id: int) -> str | None:
    return session.scalar(select(Batch.status).where(Batch.id == batch_id))


def existing_slots(session: Session, batch_id: int, slots: Sequence[int]) -> set[int]:
    rows = session.scalars(
        select(Program.slot).where(Program.batch_id == batch_id, Program.variant == 0, Program.slot.in_(list(slots)))
    )
    return set(rows)


def record_teacher_calls(session: Session, batch_id: int, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Insert new calls (key: batch, request_key) and return request_key -> id for all of them."""
    insert_ignore(session, TeacherCall, [{**r, "batch_id": batch_id} for r in rows], ["batch_id", "request_key"])
    keys = [r["request_key"] for r in rows]
    found = session.execute(
        select(TeacherCall.request_key, TeacherCall.id).where(TeacherCall.batch_id == batch_id, TeacherCall.request_key.in_(keys))
    )
    return dict(found.all())


def generation_calls_ok(session: Session, batch_id: int) -> int:
    """How many of the batch's generation calls the teacher answered."""
    return session.scalar(select(func.count()).select_from(TeacherCall).where(
        TeacherCall.batch_id == batch_id, TeacherCall.purpose == "generate", TeacherCall.status == "ok")) or 0


def add_batch_usage(session: Session, batch_id: int, prompt_tokens: int, completion_tokens: int, cost: float) -> None:
    session.execute(
        update(Batch).where(Batch.id == batch_id).values(
            prompt_tokens=Batch.prompt_tokens + prompt_tokens,
            completion_tokens=Batch.completion_tokens + completion_tokens,
            cost_usd=Batch.cost_usd + cost,
        )
    )


def insert_programs(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    insert_ignore(session, Program, rows, ["batch_id", "slot", "variant"])


def claim_dedup(session: Session, program_id: int, normalized_hash: str) -> bool:
    """Make `program_id` the one kept program with this hash; False if another holds it."""
    try:
        with session.begin_nested():
            session.execute(update(Program).where(Program.id == program_id).values(dedup_key=normalized_hash))
        return True
    except IntegrityError:
        return False


def reject_program(session: Session, program_id: int, reason: str, detail: str | None = None) -> None:
    """A kept program turns out unusable (a duplicate, a mutant no input runs)."""
    check_move(ProgramStatus.KEPT, ProgramStatus.REJECTED)
    session.execute(
        update(Program).where(Program.id == program_id, Program.status == ProgramStatus.KEPT)
        .values(status=ProgramStatus.REJECTED, reject_reason=reason, reject_detail=detail, dedup_key=None)
    )


def programs_in_slots(session: Session, batch_id: int, slots: Sequence[int], status: str | None = ProgramStatus.KEPT, variant: int | None = None) -> list[Program]:
    query = select(Program).where(Program.batch_id == batch_id, Program.slot.in_(list(slots)))
    if status is not None:
        query = query.where(Program.status == status)
    if variant is not None:
        query = query.where(Program.variant == variant)
    return list(session.scalars(query.order_by(Program.slot, Program.variant)))


def programs_without_samples(session: Session, batch_id: int, slots: Sequence[int]) -> list[Program]:
    has_sample = exists().where(Sample.program_id == Program.id)
    query = select(Program).where(
        Program.batch_id == batch_id, Program.slot.in_(list(slots)), Program.status == ProgramStatus.KEPT, ~has_sample
    )
    return list(session.scalars(query.order_by(Program.slot, Program.variant)))


def insert_samples(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    insert_ignore(session, Sample, rows, ["program_id", "args_hash"])


def samples_with_status(session: Session, batch_id: int, slots: Sequence[int], status: str) -> list[tuple[Sample, Program]]:
    query = (
        select(Sample, Program)
        .join(Program, Program.id == Sample.program_id)
        .where(Sample.batch_id == batch_id, Program.slot.in_(list(slots)), Sample.status == status)
        .order_by(Sample.id)
    )
    return [(s, p) for s, p in session.execute(query).all()]


def insert_executions(session: Session, rows: Sequence[dict[str, Any]]) -> dict[tuple[int, str, int], int]:
    insert_ignore(session, Execution, rows, ["program_id", "args_hash", "hash_seed"])
    keys = {(r["program_id"], r["args_hash"], r["hash_seed"]) for r in rows}
    program_ids = {k[0] for k in keys}
    found = session.execute(
        select(Execution.program_id, Execution.args_hash, Execution.hash_seed, Execution.id).where(Execution.program_id.in_(program_ids))
    )
    return {(p, a, h): i for p, a, h, i in found.all() if (p, a, h) in keys}


def executed_samples(session: Session, batch_id: int, slots: Sequence[int]) -> list[tuple[int, int, str, str, str, Any, Any]]:
    """(sample id, slot, source, entry point, argument text, result, trace) of every executed
    sample in `slots`, in one query: the columns the judge reads, not the whole rows (whose
    JSON columns it would decode for nothing)."""
    query = (
        select(Sample.id, Program.slot, Program.source, Program.entry_point, Sample.args_source,
               Execution.result, Execution.trace)
        .join(Program, Program.id == Sample.program_id)
        .join(Execution, Execution.id == Sample.execution_id)
        .where(Sample.batch_id == batch_id, Program.slot.in_(list(slots)), Sample.status == SampleStatus.EXECUTED)
        .order_by(Sample.id)
    )
    return [tuple(row) for row in session.execute(query).all()]


def insert_questions(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    insert_ignore(session, Question, rows, ["sample_id", "kind", "position"])


def reject_failed_mutants(session: Session, batch_id: int, slots: Sequence[int]) -> None:
    """A mutant is kept only if it executes cleanly on some input."""
    clean = exists().where(and_(Sample.program_id == Program.id, Sample.status != SampleStatus.REJECTED))
    mutant_ids = list(
        session.scalars(
            select(Program.id).where(Program.batch_id == batch_id, Program.slot.in_(list(slots)), Program.variant > 0, Program.status == ProgramStatus.KEPT, ~clean)
        )
    )
    for program_id in mutant_ids:
        reject_program(session, program_id, "mutant_failed", "no input executed cleanly")


def touch(session: Session, batch_id: int) -> None:
    """Record that a stage made progress (the stalled-batch check reads this)."""
    session.execute(update(Batch).where(Batch.id == batch_id).values(heartbeat_at=now()))


def stalled_batches(session: Session, before: datetime) -> list[int]:
    query = select(Batch.id).where(
        Batch.status == BatchStatus.RUNNING,
        func.coalesce(Batch.heartbeat_at, Batch.started_at, Batch.created_at) < before,
    )
    return list(session.scalars(query.order_by(Batch.priority.desc(), Batch.id)))


def unstarted_batches(session: Session, before: datetime) -> list[int]:
    """Batches still pending that were created before `before`: their start message was lost."""
    query = select(Batch.id).where(Batch.status == BatchStatus.PENDING, Batch.created_at < before)
    return list(session.scalars(query.order_by(Batch.priority.desc(), Batch.id)))


def unfinished_slots(session: Session, batch_id: int, programs: int) -> list[int]:
    """Slots with no program yet, a kept program without inputs, or a sample not final."""
    have = set(session.scalars(select(Program.slot).where(Program.batch_id == batch_id, Program.variant == 0)))
    unsampled = select(Program.slot).where(
        Program.batch_id == batch_id, Program.status == ProgramStatus.KEPT, ~exists().where(Sample.program_id == Program.id)
    )
    in_flight = (
        select(Program.slot).join(Sample, Sample.program_id == Program.id)
        .where(Sample.batch_id == batch_id, Sample.status.in_(SAMPLE_IN_FLIGHT))
    )
    stuck = set(session.scalars(unsampled)) | set(session.scalars(in_flight))
    return sorted((set(range(programs)) - have) | stuck)


def slots_done(session: Session, batch_id: int) -> int:
    """Slots whose programs and samples all reached a final state."""
    unsampled = exists().where(Sample.program_id == Program.id)
    in_flight = exists().where(and_(Sample.program_id == Program.id, Sample.status.in_(SAMPLE_IN_FLIGHT)))
    started = select(func.count(func.distinct(Program.slot))).where(Program.batch_id == batch_id, Program.variant == 0)
    unfinished = select(func.count(func.distinct(Program.slot))).where(
        Program.batch_id == batch_id,
        ((Program.status == ProgramStatus.KEPT) & ~unsampled) | in_flight,
    )
    return session.scalar(started) - session.scalar(unfinished)


def move_batch(session: Session, batch_id: int, status: BatchStatus, **values: Any) -> bool:
    """Move the batch to `status` if the lifecycle allows it from the status it is in now
    (one guarded UPDATE, so two writers racing cannot both move it); False if it did not move."""
    stmt = update(Batch).where(Batch.id == batch_id, Batch.status.in_(sources_of(status)))
    return session.execute(stmt.values(status=status, **values)).rowcount > 0


def move_sample(session: Session, sample_id: int, source: SampleStatus, target: SampleStatus, **values: Any) -> bool:
    """Move one sample from `source` to `target` (the stage that owns `source` calls this)."""
    check_move(source, target)
    stmt = update(Sample).where(Sample.id == sample_id, Sample.status == source)
    return session.execute(stmt.values(status=target, **values)).rowcount > 0


def move_samples(session: Session, moves: Sequence[tuple[int, SampleStatus, SampleStatus, dict[str, Any]]]) -> None:
    """`move_sample` for many samples at once: (sample id, source, target, values) each,
    one executemany UPDATE per (source, target, set of columns)."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for sample_id, source, target, values in moves:
        check_move(source, target)
        groups[(source, target, tuple(sorted(values)))].append({"_id": sample_id, **{f"v_{k}": v for k, v in values.items()}})
    table = Sample.__table__
    for (source, target, columns), params in groups.items():
        stmt = (update(table).where(table.c.id == bindparam("_id"), table.c.status == source)
                .values(status=target, **{c: bindparam(f"v_{c}") for c in columns}))
        session.execute(stmt, params)


def batch_over_budget(session: Session, batch_id: int, spec: BatchSpec) -> bool:
    batch = get_batch(session, batch_id)
    return spec.over_budget(batch.prompt_tokens + batch.completion_tokens, batch.cost_usd)


def teacher_call_row(request: ChatRequest, completion: Completion, teacher: str, template: str | None) -> dict[str, Any]:
    return {
        "request_key": request.key, "purpose": request.purpose, "teacher": teacher, "model": completion.model,
        "prompt": list(request.messages), "prompt_template": template,
        "params": {"n": request.n, "temperature": request.temperature, "top_p": request.top_p, "seed": request.seed},
        "raw_completion": list(completion.texts), "status": completion.status, "error": completion.error,
        "prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
        "latency_ms": completion.latency_ms, "cost_usd": completion.cost_usd, "attempts": completion.attempts,
    }
