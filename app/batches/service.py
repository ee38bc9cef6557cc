"""Creating, reading and cancelling batches. The route commits; this module only flushes.

A new batch is a `pending` row plus a start task queued for after the commit; the
orchestrator takes it from there. POST /v1/batches goes through `app.batches.intake`, which
writes concurrent requests as one group and falls back to `create` here, one request at a
time, when another process races it for an idempotency key. Retries carrying the same Idempotency-Key get the batch the
first request created, and a different body under a used key is a conflict, never a second
batch.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.batches import repository as repo
from app.batches.schemas import BatchCreate, BatchDetail, BatchPage, BatchRead
from app.constraints.service import known_methods, known_types, suggestions, unknown_methods, unknown_types
from app.core.config import Settings
from app.core.errors import Conflict, DomainError, NotFound
from app.core.task_names import START_BATCH
from app.db.models import Batch, Program, Sample
from app.producer import send_after_commit
from app.synthesis import repository as pipeline_repo
from app.synthesis.funnel import funnel_stages
from workers.pipeline.lifecycle import BATCH_FINISHED, BatchStatus


class InvalidSpec(DomainError):
    """A well-formed spec that names things this deployment does not have."""

    status_code = 422
    code = "invalid_spec"


def validate_spec(spec: BatchCreate, settings: Settings) -> None:
    problems = []
    if bad := unknown_types(spec.types):
        problems.append(f"unknown types {bad}{suggestions(bad, known_types())}")
    elif bad := unknown_methods(spec.types, spec.methods):
        problems.append(f"unknown methods {bad} for types {list(spec.types) or 'any'}"
                        f"{suggestions(bad, known_methods(spec.types))}")
    teachers = {"builtin", *settings.teachers}
    if spec.teacher is not None and spec.teacher not in teachers:
        problems.append(f"unknown teacher {spec.teacher!r}; configured: {sorted(teachers)}")
    if spec.difficulty.solver is not None and spec.difficulty.solver not in teachers:
        problems.append(f"unknown solver {spec.difficulty.solver!r}; configured: {sorted(teachers)}")
    if problems:
        raise InvalidSpec("; ".join(problems))


def create(session: Session, settings: Settings, spec: BatchCreate,
           idempotency_key: str | None, api_key_id: int | None) -> tuple[Batch, bool]:
    """(batch, created). Keys are scoped to the API key that sent them."""
    validate_spec(spec, settings)
    wanted = spec.model_dump(mode="json")
    scoped = scoped_key(api_key_id, idempotency_key)
    if scoped is not None and (existing := repo.by_idempotency_key(session, scoped)) is not None:
        return replay(existing, wanted), False
    batch = new_batch(settings, spec, wanted, scoped, api_key_id)
    if scoped is None:
        repo.add(session, batch)  # nothing unique to race on: no savepoint round trips
    else:
        try:
            with session.begin_nested():
                repo.add(session, batch)
        except IntegrityError:
            # a concurrent request with the same key committed first
            existing = repo.by_idempotency_key(session, scoped)
            if existing is None:
                raise
            return replay(existing, wanted), False
    send_after_commit(session, settings, START_BATCH, batch.id)
    return batch, True


def scoped_key(api_key_id: int | None, idempotency_key: str | None) -> str | None:
    """Idempotency keys are scoped to the API key that sent them."""
    return None if idempotency_key is None else f"{api_key_id or 0}:{idempotency_key}"


def new_batch(settings: Settings, spec: BatchCreate, wanted: dict | None = None, scoped: str | None = None,
              api_key_id: int | None = None) -> Batch:
    """The pending row for `spec` (`wanted`: its JSON form, when the caller has it already);
    not added to any session. The one place a batch row is built (API and CLI)."""
    return Batch(
        spec=spec.model_dump(mode="json") if wanted is None else wanted,
        seed=spec.seed if spec.seed is not None else secrets.randbelow(2**63),
        status=BatchStatus.PENDING, priority=spec.priority, teacher=spec.teacher or settings.default_teacher,
        idempotency_key=scoped, api_key_id=api_key_id, programs_requested=spec.programs,
    )


def start_in_process(session: Session, settings: Settings, spec: BatchCreate) -> Batch:
    """A batch that this process runs itself (`execsynth synth` / `demo`): validated, written
    and moved to running, with no start message (no worker is involved)."""
    validate_spec(spec, settings)
    batch = repo.add(session, new_batch(settings, spec))
    pipeline_repo.move_batch(session, batch.id, BatchStatus.RUNNING, started_at=datetime.now(timezone.utc))
    session.refresh(batch)
    return batch


def replay(existing: Batch, wanted: dict) -> Batch:
    """The batch an Idempotency-Key already created; a different body under that key is a 409."""
    if existing.spec != wanted:
        raise Conflict(f"Idempotency-Key already used for batch {existing.id} with a different body")
    return existing


def get_or_404(session: Session, batch_id: int) -> Batch:
    batch = repo.get(session, batch_id)
    if batch is None:
        raise NotFound(f"no batch {batch_id}")
    return batch


def list_page(session: Session, limit: int, offset: int, status: str | None) -> BatchPage:
    rows, total = repo.page(session, limit, offset, status)
    return BatchPage(items=[BatchRead.model_validate(r, from_attributes=True) for r in rows],
                     total=total, limit=limit, offset=offset)


def cancel(session: Session, batch: Batch) -> Batch:
    if batch.status == BatchStatus.CANCELLED:
        return batch
    # one guarded UPDATE: a batch the orchestrator is finishing at this moment is not flipped back
    if not pipeline_repo.move_batch(session, batch.id, BatchStatus.CANCELLED, finished_at=datetime.now(timezone.utc)):
        session.refresh(batch)
        if batch.status != BatchStatus.CANCELLED:
            raise Conflict(f"batch {batch.id} is already {batch.status}; only pending or running batches can be cancelled")
    session.refresh(batch)
    return batch


def detail(session: Session, batch: Batch, now: datetime | None = None) -> BatchDetail:
    now = now or datetime.now(timezone.utc)
    teacher = repo.teacher_totals(session, batch.id)
    programs = repo.status_counts(session, Program, batch.id)
    samples = repo.status_counts(session, Sample, batch.id)
    stages = funnel_stages(teacher, programs, samples)
    accepted = stages[-1].passed
    done = repo.programs_done(session, batch.id)
    cost = teacher["cost_usd"]
    rate = eta = None
    if batch.started_at is not None:
        end = batch.finished_at or now
        minutes = max((end - _aware(batch.started_at)).total_seconds() / 60.0, 1e-9)
        rate = accepted / minutes
        if batch.status not in BATCH_FINISHED:
            # from the slots that are final (program and every sample done): generation runs
            # ahead of execution, so the generated count would say "done" long before it is
            final = pipeline_repo.slots_done(session, batch.id)
            if final > 0:
                eta = max(batch.programs_requested - final, 0) * (minutes * 60.0) / final
    return BatchDetail(
        **BatchRead.model_validate(batch, from_attributes=True).model_dump(),
        funnel=stages, programs_done=done, samples_accepted=accepted,
        prompt_tokens=teacher["prompt_tokens"], completion_tokens=teacher["completion_tokens"],
        cost_usd=cost, cost_per_accepted_usd=(cost / accepted) if accepted else None,
        accepted_per_minute=rate, eta_seconds=eta,
    )


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
