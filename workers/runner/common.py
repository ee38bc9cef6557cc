"""What the runner's stages share: the batch's spec by id, teacher-call recording."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from sqlalchemy.orm import Session

from app.synthesis import repository as repo
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.lifecycle import BATCH_FINISHING
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.base import Teacher
from workers.pipeline.teachers.budget import BUDGET_EXHAUSTED, BudgetedTeacher
from workers.runner.deps import StageDeps

SessionFactory = Callable[[], AbstractContextManager[Session]]


class RetryChunk(RuntimeError):
    """Some items could not be judged (the sandbox was unavailable); nothing was recorded for
    them, and the chunk must be retried."""


def load_spec(scope: SessionFactory, batch_id: int, statuses: Sequence[str] = BATCH_FINISHING) -> tuple[BatchSpec, str] | None:
    """(spec with the batch's seed, teacher name), or None when the batch is gone or in a status
    the stage must not work in (a cancelled batch stops at the next stage boundary)."""
    with scope() as session:
        batch = repo.get_batch(session, batch_id)
        if batch is None or batch.status not in statuses:
            return None
        return BatchSpec.stored(batch.spec, batch.seed), batch.teacher


def batch_teacher(scope: SessionFactory, deps: StageDeps, batch_id: int, spec: BatchSpec, name: str) -> Teacher:
    """The teacher `name`, held to the batch's budget (checked before every call) when it has one."""
    budget = spec.budget
    if budget.max_tokens is None and budget.max_cost_usd is None:
        return deps.teacher(name)
    with scope() as session:
        batch = repo.get_batch(session, batch_id)
        tokens, cost = batch.prompt_tokens + batch.completion_tokens, batch.cost_usd
    return BudgetedTeacher(deps.teacher(name), max_tokens=budget.max_tokens, max_cost_usd=budget.max_cost_usd,
                           spent_tokens=tokens, spent_cost_usd=cost, concurrency=deps.teacher_concurrency(name))


def refused(completion: Completion) -> bool:
    """A call the budget stopped before it was sent."""
    return completion.status == "error" and completion.error == BUDGET_EXHAUSTED


def record_calls(session: Session, batch_id: int, calls: Sequence[tuple[ChatRequest, Completion]], teacher: str,
                 template: str | None) -> dict[str, int]:
    """Store the calls that were made (natural key: batch + request key; calls the budget
    refused were never sent) and add their usage to the batch."""
    calls = [(r, c) for r, c in calls if not refused(c)]
    ids = repo.record_teacher_calls(session, batch_id, [repo.teacher_call_row(r, c, teacher, template) for r, c in calls])
    repo.add_batch_usage(
        session, batch_id,
        sum(c.prompt_tokens for _, c in calls), sum(c.completion_tokens for _, c in calls), sum(c.cost_usd for _, c in calls),
    )
    return ids
