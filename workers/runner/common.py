"""What the four chunk stages share: batch loading by status, teacher-call recording, budget."""

from __future__ import annotations

import platform
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy.orm import Session

from app.synthesis import repository as repo
from workers.pipeline.plan import BatchPlan
from workers.pipeline.records import ChatRequest, Completion

SessionFactory = Callable[[], AbstractContextManager[Session]]
ACTIVE = ("pending", "running")
# a budget stop ends generation; chunks already generated still run to a final state
FINISHING = ACTIVE + ("budget_exhausted",)
PYTHON_VERSION = platform.python_version()
OI_MAX_RESULT_CHARS = 150  # the reference's bound for output->input questions


class SandboxUnavailable(RuntimeError):
    """Some runs could not be judged; the chunk must be retried (nothing was recorded for them)."""


def load_plan(scope: SessionFactory, batch_id: int, statuses: tuple[str, ...] = FINISHING) -> tuple[str, BatchPlan, dict, str] | None:
    """The batch's plan, or None when it is gone or in a status the stage must not work in
    (a cancelled batch stops at the next stage boundary)."""
    with scope() as session:
        batch = repo.get_batch(session, batch_id)
        if batch is None or batch.status not in statuses:
            return None
        return batch.status, BatchPlan.from_spec(batch.spec, batch.seed), dict(batch.spec), batch.teacher


def call_row(request: ChatRequest, completion: Completion, teacher: str, template: str | None) -> dict[str, Any]:
    return {
        "request_key": request.key, "purpose": request.purpose, "teacher": teacher, "model": completion.model,
        "prompt": list(request.messages), "prompt_template": template,
        "params": {"n": request.n, "temperature": request.temperature, "top_p": request.top_p, "seed": request.seed},
        "raw_completion": list(completion.texts), "status": completion.status, "error": completion.error,
        "prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
        "latency_ms": completion.latency_ms, "cost_usd": completion.cost_usd, "attempts": completion.attempts,
    }


def record_calls(session: Session, batch_id: int, calls: Sequence[tuple[ChatRequest, Completion]], teacher: str, template: str | None) -> dict[str, int]:
    ids = repo.record_teacher_calls(session, batch_id, [call_row(r, c, teacher, template) for r, c in calls])
    repo.add_batch_usage(
        session, batch_id,
        sum(c.prompt_tokens for _, c in calls), sum(c.completion_tokens for _, c in calls), sum(c.cost_usd for _, c in calls),
    )
    return ids


def over_budget(session: Session, batch_id: int, plan: BatchPlan) -> bool:
    batch = repo.get_batch(session, batch_id)
    tokens = batch.prompt_tokens + batch.completion_tokens
    return bool((plan.max_tokens and tokens >= plan.max_tokens) or (plan.max_cost_usd and batch.cost_usd >= plan.max_cost_usd))
