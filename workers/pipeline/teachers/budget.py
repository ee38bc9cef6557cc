"""A batch's budget, checked before every teacher call (not once per chunk).

`BudgetedTeacher` wraps any teacher: a call starts only while the spend recorded so far
(the batch's usage when the stage began, plus every call this wrapper has seen finish) is under
the cap, and at most `concurrency` calls are in flight, so the spend never exceeds the cap by
more than the calls that were already running when it was reached. A refused call comes back
as `status="error"`, `error=BUDGET_EXHAUSTED`, with nothing spent and nothing sent.

Each stage run makes its own wrapper seeded from the database, so several processes working on
one batch can each overshoot by their own calls in flight, never by a whole chunk.
"""

from __future__ import annotations

import asyncio

from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.base import Teacher

BUDGET_EXHAUSTED = "budget_exhausted"


class BudgetedTeacher:
    def __init__(self, inner: Teacher, *, max_tokens: int | None, max_cost_usd: float | None,
                 spent_tokens: int = 0, spent_cost_usd: float = 0.0, concurrency: int = 16) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.max_tokens = max_tokens
        self.max_cost_usd = max_cost_usd
        self.tokens = spent_tokens
        self.cost_usd = spent_cost_usd
        self.refused = 0
        self._concurrency = concurrency
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def exhausted(self) -> bool:
        return bool((self.max_tokens is not None and self.tokens >= self.max_tokens)
                    or (self.max_cost_usd is not None and self.cost_usd >= self.max_cost_usd))

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:  # each sync call runs a fresh loop
            self._slots, self._loop = asyncio.Semaphore(self._concurrency), loop
        return self._slots

    async def complete(self, request: ChatRequest) -> Completion:
        async with self._semaphore():
            if self.exhausted:
                self.refused += 1
                return Completion(request_key=request.key, texts=(), model=self.model, status="error",
                                  error=BUDGET_EXHAUSTED, attempts=0)
            completion = await self.inner.complete(request)
            self.tokens += completion.prompt_tokens + completion.completion_tokens
            self.cost_usd += completion.cost_usd
            return completion
