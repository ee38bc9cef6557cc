"""The builtin teacher: answers "generate" requests from the procedural generator, offline.

It speaks the same Teacher protocol as the LLM clients and answers the way an obedient LLM
would (one fenced python block: the functions, then the single `print(entry(args))`), so
everything downstream (parsing, static check, dedup) treats its output exactly like a
model's and the builtin path exercises the real pipeline.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import hashlib
import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Annotated

from pydantic import Field

from workers.pipeline.builtin import UnsupportedConstraint, generate_program
from workers.pipeline.builtin.mutate import MutationError, mutate_arguments
from workers.pipeline.constraints.catalog import Catalog, CatalogError, load_catalog
from workers.pipeline.records import ChatRequest, Completion


def completion_text(code: str, call: str) -> str:
    return f"```python\n{code.rstrip()}\n\n\n{call}\n```"  # (PEP 8: two blank lines after a definition)


# Generator processes a builtin teacher uses when its `processes` option is not set: 0 (in
# the calling process) unless the runner says otherwise (`execsynth synth` gives every core)
_default_processes = 0
_pools: dict[int, ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()


def set_default_processes(n: int) -> None:
    """What `processes=None` means in this process from now on (see BuiltinTeacher)."""
    global _default_processes
    _default_processes = max(0, int(n))


def _pool(processes: int) -> ProcessPoolExecutor:
    """One pool per size for the whole process, started on first use. Spawned, not forked:
    the caller has threads (chunks in flight, the sandbox's), and a forked child of a
    threaded process can inherit a lock held mid-operation."""
    with _pools_lock:
        if processes not in _pools:
            _pools[processes] = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                                                    initializer=_cap_memory)
        return _pools[processes]


GENERATOR_MEMORY = 4 << 30  # bytes of address space a generator process may hold


def _cap_memory() -> None:
    """A generator process runs its own draws in process (the self-check): a draw that grows
    a value past every guard meets MemoryError, an outcome the self-check scores, instead of
    the kernel killing the process (and the batch's pool with it)."""
    try:
        import resource  # noqa: PLC0415 - POSIX only
    except ImportError:  # pragma: no cover - not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = GENERATOR_MEMORY if hard == resource.RLIM_INFINITY else min(GENERATOR_MEMORY, hard)
    if soft == resource.RLIM_INFINITY or soft > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def close_pools(wait: bool = True) -> None:
    """Stop the generator processes (a later request starts them again)."""
    with _pools_lock:
        for pool in _pools.values():
            pool.shutdown(wait=wait, cancel_futures=True)
        _pools.clear()


atexit.register(close_pools, wait=False)


@functools.lru_cache(maxsize=4)
def _worker_catalog(catalog_path: str | None) -> Catalog:
    return load_catalog(Path(catalog_path) if catalog_path else None)


def _generate(constraint, seed: int, index: int, catalog_path: str | None, variant: int) -> str:  # noqa: ANN001
    """One completion text, in a generator process (or in this one)."""
    program = generate_program(constraint, seed, index, _worker_catalog(catalog_path), variant)
    return completion_text(program.code, program.call)


class BuiltinTeacher:
    """Options are keyword-only with defaults (the teacher registry derives its spec from
    this signature). `catalog_path` adds config-file entries (with signatures) it can write.
    `processes`: how many generator processes write the programs (0: the calling process;
    None: the runner's default, every core under `execsynth synth`, else 0). The programs
    are the same either way; processes take the generator's CPU off a runner whose other
    stages share one interpreter lock."""

    def __init__(self, *, name: str = "builtin", model: str = "execsynth-builtin-v1",
                 catalog_path: str | None = None,
                 processes: Annotated[int, Field(ge=0, le=256)] | None = None) -> None:
        if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int)
                                      or not 0 <= processes <= 256):
            raise ValueError(f"processes must be an int in 0..256 or None, got {processes!r}")
        self.name = name
        self.model = model
        self.catalog_path = catalog_path
        self.processes = processes
        self._catalog: Catalog | None = None

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:  # lazily: constructing a teacher must stay cheap
            self._catalog = load_catalog(Path(self.catalog_path) if self.catalog_path else None)
        return self._catalog

    async def complete(self, request: ChatRequest) -> Completion:
        started = time.perf_counter()
        processes = _default_processes if self.processes is None else self.processes
        try:
            if request.purpose == "generate" and processes and request.constraint is not None:
                self.catalog  # noqa: B018 - a bad catalog fails here, with its own message
                loop = asyncio.get_running_loop()
                pool = _pool(processes)
                texts = tuple(await asyncio.gather(*(
                    loop.run_in_executor(pool, _generate, request.constraint, request.seed,
                                         _index(request), self.catalog_path, k)
                    for k in range(max(1, request.n)))))
            else:
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
