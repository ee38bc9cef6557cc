"""The builtin teacher: answers "generate" requests from the procedural generator, offline.

It speaks the same Teacher protocol as the LLM clients and answers the way an obedient LLM
would (one fenced python block: the functions, then the single `print(entry(args))`), so
everything downstream (parsing, static check, dedup) treats its output exactly like a
model's and the builtin path exercises the real pipeline.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from workers.pipeline.builtin import UnsupportedConstraint, generate_program
from workers.pipeline.builtin.mutate import MutationError, mutate_arguments
from workers.pipeline.constraints.catalog import Catalog, CatalogError, load_catalog
from workers.pipeline.records import ChatRequest, Completion


def completion_text(code: str, call: str) -> str:
    return f"```python\n{code.rstrip()}\n\n{call}\n```"


class BuiltinTeacher:
    """Options are keyword-only with defaults (the teacher registry derives its spec from
    this signature). `catalog_path` adds config-file entries (with signatures) it can write."""

    def __init__(self, *, name: str = "builtin", model: str = "execsynth-builtin-v1",
                 catalog_path: str | None = None) -> None:
        self.name = name
        self.model = model
        self.catalog_path = catalog_path
        self._catalog: Catalog | None = None

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:  # lazily: constructing a teacher must stay cheap
            self._catalog = load_catalog(Path(self.catalog_path) if self.catalog_path else None)
        return self._catalog

    async def complete(self, request: ChatRequest) -> Completion:
        started = time.perf_counter()
        try:
            texts = self._answer(request)
        except (UnsupportedConstraint, MutationError, CatalogError, KeyError, ValueError) as exc:
            return self._done(request, (), started, error=f"{type(exc).__name__}: {exc}")
        return self._done(request, texts, started)

    def _answer(self, request: ChatRequest) -> tuple[str, ...]:
        n = max(1, request.n)
        if request.purpose == "generate":
            if request.constraint is None:
                raise ValueError("a 'generate' request needs its constraint")
            index = _index(request)
            programs = [generate_program(request.constraint, request.seed, index, self.catalog, k)
                        for k in range(n)]
            return tuple(completion_text(p.code, p.call) for p in programs)
        if request.purpose == "mutate_inputs":
            return tuple(mutate_arguments(request.context, request.seed, k) for k in range(n))
        raise ValueError(f"the builtin teacher does not answer purpose {request.purpose!r}")

    def _done(self, request: ChatRequest, texts: tuple[str, ...], started: float,
              error: str | None = None) -> Completion:
        return Completion(request_key=request.key, texts=texts, model=self.model,
                          status="error" if error else "ok", error=error,
                          latency_ms=(time.perf_counter() - started) * 1000.0)


def _index(request: ChatRequest) -> int:
    """The slot index from the context, else one derived from the request's natural key."""
    index = request.context.get("index")
    if isinstance(index, int):
        return index
    return int.from_bytes(hashlib.sha256(request.key.encode()).digest()[:6], "big")
