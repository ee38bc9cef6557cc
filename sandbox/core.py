"""`Sandbox`: a pool of forkservers (one per worker and hash seed) behind a thread-safe API.

Each worker slot owns its forkservers; a call borrows a free slot, so `run` can be called
from many threads at once and `run_many` keeps every worker busy. A forkserver that dies is
replaced and the job retried (`retries`), and so is one that reports a fault of its own
(a job's setup or teardown failed) or stops answering; a run that still cannot be judged
comes back as `sandbox_error`, never as a verdict on the program.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import queue
import threading
import time
from dataclasses import replace
from typing import Iterable, Iterator, Sequence

from . import grouped, verdict, wire
from .backends import make_backend
from .calls import call_error
from .errors import ForkServerDown, SandboxUnavailable
from .forkserver import MAX_RESULT_BYTES
from .jobs import Job, Limits
from .local import ForkServer
from .result import RunResult, same_behaviour

log = logging.getLogger("sandbox")

ISOLATIONS = ("namespaces", "rlimits")
HOST_GRACE_S = 5.0  # beyond the job's wall timeout, before the host gives up on a forkserver
MAX_SEEDS_PER_SLOT = 4


class _Slot:
    """One worker: its forkservers keyed by hash seed (most recently used last)."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.servers: dict[int, ForkServer] = {}

    def server(self, seed: int) -> ForkServer:
        server = self.servers.pop(seed, None)
        if server is None:
            if len(self.servers) >= MAX_SEEDS_PER_SLOT:
                oldest = next(iter(self.servers))
                self.servers.pop(oldest).close()
            server = ForkServer(self.backend.spec, seed).start()
        self.servers[seed] = server
        return server

    def discard(self, seed: int) -> None:
        server = self.servers.pop(seed, None)
        if server is not None:
            server.close()

    def close(self) -> None:
        for seed in list(self.servers):
            self.discard(seed)


class Sandbox:
    """Run untrusted Python jobs in isolated, resource-limited forked children."""

    def __init__(self, isolation: str = "namespaces", workers: int | None = None,
                 limits: Limits | None = None, backend: str = "local", retries: int = 1,
                 **backend_options) -> None:
        if isolation not in ISOLATIONS:
            raise ValueError(f"isolation must be one of {ISOLATIONS}, got {isolation!r}")
        if workers is not None and (not isinstance(workers, int) or workers < 1):
            raise ValueError(f"workers must be a positive int or None, got {workers!r}")
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError("limits must be a sandbox.Limits")
        self.isolation = isolation
        self.workers = workers or os.cpu_count() or 1
        self.limits = limits or Limits()
        self.retries = retries
        self._backend_name, self._backend_options = backend, backend_options
        self._backend = None
        self._slots: queue.LifoQueue[_Slot] = queue.LifoQueue()
        self._all_slots: list[_Slot] = []
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self.python = ""

    # lifecycle -----------------------------------------------------------------------
    def start(self) -> "Sandbox":
        with self._lock:
            if self._backend is not None:
                return self
            backend = make_backend(self._backend_name, self.isolation, **self._backend_options)
            slots = [_Slot(backend) for _ in range(self.workers)]
            try:
                first = slots[0].server(0)  # proves the isolation works, or raises
                self.python = first.info.get("python", "")
                with concurrent.futures.ThreadPoolExecutor(self.workers) as pool:
                    list(pool.map(lambda slot: slot.server(0), slots[1:]))
            except BaseException:
                for slot in slots:
                    slot.close()
                backend.close()
                raise
            self._backend, self._all_slots = backend, slots
            for slot in slots:
                self._slots.put(slot)
            self._executor = concurrent.futures.ThreadPoolExecutor(
                self.workers, thread_name_prefix="sandbox")
        return self

    def _ensure_started(self) -> None:
        """Start on first use, so a Sandbox built once per process needs no explicit start."""
        if self._backend is None:
            self.start()

    def forkserver_pids(self) -> list[int]:
        """Host pids of the running forkserver processes (for diagnostics and tests)."""
        return [server.proc.pid for slot in self._all_slots
                for server in list(slot.servers.values()) if server.proc is not None]

    def close(self) -> None:
        with self._lock:
            if self._backend is None:
                return
            self._executor.shutdown(wait=True)
            for slot in self._all_slots:
                slot.close()
            self._backend.close()
            self._backend, self._all_slots, self._executor = None, [], None
            self._slots = queue.LifoQueue()

    def __enter__(self) -> "Sandbox":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # running ---------------------------------------------------------------------------
    def run(self, job: Job) -> RunResult:
        """Run one job; thread-safe. Blocks while every worker is busy. Starts on first use."""
        outcome = self._run_unjudged(job)
        return outcome if isinstance(outcome, RunResult) else verdict.judge(*outcome)

    def _run_unjudged(self, job: Job) -> RunResult | tuple[dict, wire.RunReport, str]:
        """Run one job on a free worker: (wire job, report, Python version) to be judged, or
        the RunResult of a run that needs no judging (a refused call, a sandbox error)."""
        if not isinstance(job, Job):
            raise TypeError(f"run() takes a sandbox.Job, got {type(job).__name__}")
        self._ensure_started()
        wire_job = job.to_wire(self.limits)
        error = call_error(job.entry_point, job.args)
        if error is not None:
            return verdict.refused_call(wire_job, error, self.python)
        return self._run_wire(job, wire_job)

    def _run_wire(self, job: Job, wire_job: dict) -> RunResult | tuple[dict, wire.RunReport, str]:
        """Run a job already in its wire form on a free worker (see `_run_unjudged`)."""
        slot = self._slots.get()
        try:
            return self._run_on(slot, job, wire_job)
        finally:
            self._slots.put(slot)

    def _run_on(self, slot: _Slot, job: Job, wire_job: dict
                ) -> RunResult | tuple[dict, wire.RunReport, str]:
        limits = job.limits or self.limits
        problem = "no attempt made"
        for _ in range(1 + max(0, self.retries)):
            deadline = time.monotonic() + limits.timeout_s + HOST_GRACE_S
            try:
                server = slot.server(job.hash_seed)
                bound = wire.report_bound(MAX_RESULT_BYTES, limits.output_bytes)
                reply = server.request(wire_job, deadline, bound)
                python = server.info.get("python", "")
                if isinstance(reply, dict) and reply.get("fault"):
                    message = (reply.get("exception") or {}).get("message", "")
                    raise ForkServerDown(f"sandbox fault: {message}")
                if isinstance(reply, dict):  # the forkserver could not judge the run
                    return RunResult.from_wire({**reply, "hash_seed": job.hash_seed,
                                                "python": python})
                return wire_job, reply, python
            except ForkServerDown as exc:
                problem = f"forkserver failed during the run: {exc}"
                slot.discard(job.hash_seed)
                log.warning("sandbox: %s (job %s)", problem, job.id)
                if exc.hung:
                    break  # the job may be what hangs it; do not run it again
            except SandboxUnavailable as exc:
                problem = f"forkserver could not be restarted: {exc}"
                break
        return RunResult.sandbox_error(job.id, problem, job.hash_seed)

    def run_many(self, jobs: Iterable[Job]) -> list[RunResult]:
        """Run jobs over all workers; results in input order."""
        jobs = list(jobs)
        self._ensure_started()
        return list(self._executor.map(self.run, jobs))

    def run_iter(self, jobs: Iterable[Job], window: int | None = None) -> Iterator[RunResult]:
        """Yield results as they finish (any order), keeping at most `window` jobs queued."""
        self._ensure_started()
        window = window or self.workers * 4
        pending: set[concurrent.futures.Future] = set()
        for job in jobs:
            pending.add(self._executor.submit(self.run, job))
            if len(pending) >= window:
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                yield from (future.result() for future in done)
        for future in concurrent.futures.as_completed(pending):
            yield future.result()

    def run_pairs(self, pairs: Iterable[tuple[Job, Job]]
                  ) -> list[tuple[RunResult, RunResult, bool]]:
        """Run both jobs of each pair (usually one job under two hash seeds) over all workers;
        per pair, in input order: (first, second, same), `same` as in `same_behaviour`.

        When the second run left exactly the first's raw outcome (result bytes, output, exit
        status), its result is the first's (its own id, seed and times): it is not decoded a
        second time, and its result, exception and trace are the first's objects (read them,
        do not change them). That is what makes the determinism check cheap: a trace is
        decoded once.
        """
        pairs = list(pairs)
        self._ensure_started()
        flat = [job for pair in pairs for job in pair]
        outcomes = list(self._executor.map(self._run_unjudged, flat))
        out = []
        for i in range(len(pairs)):
            a, b = outcomes[2 * i], outcomes[2 * i + 1]
            first = a if isinstance(a, RunResult) else verdict.judge(*a)
            if (not isinstance(a, RunResult) and not isinstance(b, RunResult)
                    and a[1].same_behaviour(b[1])):
                wire_job, report, python = b
                second = replace(first, id=wire_job["id"], hash_seed=wire_job["hash_seed"],
                                 duration_ms=report.duration_ms, cpu_ms=report.cpu_ms,
                                 python=python, extra=dict(first.extra))
                out.append((first, second, True))
                continue
            second = b if isinstance(b, RunResult) else verdict.judge(*b)
            out.append((first, second, same_behaviour(first, second)))
        return out

    def run_pairs_grouped(self, groups: Iterable[Sequence[tuple[Job, Job]]]
                          ) -> list[list[tuple[RunResult, RunResult, bool]]]:
        """`run_pairs` for each group, with the same outcomes (statuses, results, output,
        traces, ids and seeds; times are the calls' own), in fewer jobs: a group of one
        program's pairs (same code, entry point, trace flag and limits, the first of each
        pair under one seed and the second under another) shares a job per seed, as
        sandbox/grouped.py explains, and falls back to `run_pairs` whenever that could make
        a difference. Other groups run as `run_pairs` runs them."""
        groups = [list(group) for group in groups]
        self._ensure_started()
        plans = [grouped.plan(group, self.limits) for group in groups]
        tasks: list[tuple[int, object, Job, dict | None]] = []
        for g, plan in enumerate(plans):
            if plan is not None:
                tasks += [(g, "forward", *plan.forward), (g, "backward", *plan.backward)]
                tasks += [(g, index, job, None) for index, job in plan.fresh]
        outcomes = list(self._executor.map(
            lambda task: self._run_wire(task[2], task[3]) if task[3] is not None
            else self._run_unjudged(task[2]), tasks))
        parts: list[dict] = [{} for _ in groups]
        for (g, part, _, _), outcome in zip(tasks, outcomes):
            parts[g][part] = outcome
        out: list[list | None] = [None] * len(groups)
        for g, plan in enumerate(plans):
            if plan is None:
                continue
            n = len(plan.pairs)
            limits = plan.pairs[0][0].limits or self.limits
            forward = grouped.split(parts[g]["forward"], [a for a, _ in plan.pairs],
                                    range(n), limits)
            backward = grouped.split(parts[g]["backward"], [b for _, b in plan.pairs],
                                     range(n - 1, -1, -1), limits)
            fresh = {index: (outcome if isinstance(outcome, RunResult) else verdict.judge(*outcome))
                     for index, outcome in parts[g].items() if isinstance(index, int)}
            out[g] = grouped.combine(plan, forward, backward, fresh)
        alone = [g for g, result in enumerate(out) if result is None]
        if alone:
            flat = self.run_pairs([pair for g in alone for pair in groups[g]])
            at = 0
            for g in alone:
                out[g], at = flat[at:at + len(groups[g])], at + len(groups[g])
        return out  # type: ignore[return-value]

    def run_twice(self, job: Job, seeds: tuple[int, int] = (0, 1)
                  ) -> tuple[RunResult, RunResult, bool]:
        """Run under two hash seeds; `same` is False if result, stdout or trace differ."""
        if len(seeds) != 2 or seeds[0] == seeds[1]:
            raise ValueError("run_twice needs two different hash seeds")
        pair = (replace(job, hash_seed=seeds[0]), replace(job, hash_seed=seeds[1]))
        return self.run_pairs([pair])[0]
