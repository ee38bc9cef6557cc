"""The one interface every teacher (builtin, OpenAI-compatible, replay) implements."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
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
    """Blocking form for CLI commands and Celery tasks. Where this thread already runs an event
    loop (a notebook, an async caller, Playwright's sync API), the calls run on a fresh loop
    in a helper thread instead, since a running loop cannot be re-entered."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(complete_all(teacher, requests))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="teacher-loop") as pool:
        return pool.submit(asyncio.run, complete_all(teacher, requests)).result()
