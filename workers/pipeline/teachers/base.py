"""The one interface every teacher (builtin, OpenAI-compatible, replay) implements."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from workers.pipeline.records import ChatRequest, Completion


@runtime_checkable
class Teacher(Protocol):
    name: str
    model: str

    async def complete(self, request: ChatRequest) -> Completion:
        """Answer one request; failures come back as Completion(status="error")."""
        ...


async def complete_all(teacher: Teacher, requests: Sequence[ChatRequest]) -> list[Completion]:
    """Run requests concurrently (the teacher bounds its own concurrency); order kept."""
    return list(await asyncio.gather(*(teacher.complete(r) for r in requests)))


def complete_all_sync(teacher: Teacher, requests: Sequence[ChatRequest]) -> list[Completion]:
    """Blocking form for CLI commands and Celery tasks (which run no event loop)."""
    return asyncio.run(complete_all(teacher, requests))
