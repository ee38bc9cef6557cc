"""One program's calls in a few jobs instead of one job per call and hash seed.

The execute stage runs every input of a program under two hash seeds: 2n jobs for n
inputs, and most of a small job's cost is the job itself (fork, lockdown, exit: about
2.5 ms of CPU against well under 1 ms for the call). Here the n calls share one job per
seed (sandbox/child.py `run_calls`): the first seed calls them in the order given, the
second in reverse, and each call between the first and the last also runs once more as a
job of its own, under the first seed. So n calls take 2 + (n - 2) jobs (3 for the
pipeline's 3 inputs, against 6).

Calls in one process can see what an earlier call left behind (a changed module, a
file, a finalizer). Each call gets a fresh module namespace and the builtins as they
were, but the results are taken from the shared jobs only when that cannot have mattered:
every call must come out the same in both orders, and each call between the ends the
same as its fresh job. Then every call's outcome is also the outcome of a run with
nothing before it: the first call's in the first order, the last call's in the reverse
one, and the fresh job's for the others. Anything else (a difference, a call ending in
anything but a value or an exception, a call over the wall time limit, a job cut short)
and the program's calls run one job per call and seed, exactly as `Sandbox.run_pairs`
runs them. A call of a shared job may take `SHARED_CALL_S` (1 s) of CPU and wall time at
most, so a program that loops forever costs little more than it did.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from numbers import Real

from . import wire
from .calls import call_error
from .jobs import Job, Limits
from .result import RunResult, same_behaviour
from .verdict import valid_payload

# how a call of a shared job may end and still be taken from it; a limit, a kill or a
# refused event reruns the program's calls one job each, where the sandbox judges them
SHARED_STATUSES = ("ok", "exception")
# A call of a shared job gets at most this much CPU and wall time (or the run's own limit
# when that is lower): a call that needs more ends the shared job, and its own job then
# judges it under the full limit. Without it a program that loops forever held the shared
# jobs for the limit times the number of calls before the jobs of its own even started.
SHARED_CALL_S = 1.0


@dataclass(frozen=True)
class Plan:
    """The jobs one group of pairs runs as: `forward` and `backward` (wire form), and the
    fresh jobs of the calls in between (by call index)."""

    pairs: tuple[tuple[Job, Job], ...]
    forward: tuple[Job, dict]
    backward: tuple[Job, dict]
    fresh: tuple[tuple[int, Job], ...]


def _shared_job(pairs: Sequence[tuple[Job, Job]], side: int, order: list[int],
                limits: Limits) -> tuple[Job, dict]:
    """The job that runs side `side` of every pair, in `order`, with the time limits of
    all its calls together (each call is held to the per-call limit on the host)."""
    first = pairs[0][side]
    n = len(order)
    per_call = call_limit_s(limits)
    shared = replace(limits, timeout_s=per_call * n, cpu_s=per_call * n)
    job = Job(id=f"{first.id}+{n - 1}", code=first.code, entry_point=first.entry_point,
              args="", trace=first.trace, hash_seed=first.hash_seed, limits=shared)
    wire_job = job.to_wire(limits)
    wire_job["calls"] = [pairs[i][side].args for i in order]
    wire_job["call_cpu_s"] = per_call
    return job, wire_job


def call_limit_s(limits: Limits) -> float:
    """The CPU and wall time one call of a shared job may take."""
    return min(limits.timeout_s, SHARED_CALL_S)


def plan(pairs: Sequence[tuple[Job, Job]], default_limits: Limits) -> Plan | None:
    """How to run `pairs` in shared jobs, or None when they are not one program's calls
    under two seeds (or are too few to gain anything, or a call's text is refused)."""
    pairs = tuple(pairs)
    if len(pairs) < 2:
        return None
    a0, b0 = pairs[0]
    if a0.hash_seed == b0.hash_seed:
        return None
    for a, b in pairs:
        for job, seed in ((a, a0.hash_seed), (b, b0.hash_seed)):
            if (job.code, job.entry_point, job.trace, job.limits, job.hash_seed) != \
                    (a0.code, a0.entry_point, a0.trace, a0.limits, seed):
                return None
        if call_error(a.entry_point, a.args) is not None or a.args != b.args:
            return None
    limits = a0.limits or default_limits
    n = len(pairs)
    return Plan(pairs, _shared_job(pairs, 0, list(range(n)), limits),
                _shared_job(pairs, 1, list(range(n - 1, -1, -1)), limits),
                tuple((i, pairs[i][0]) for i in range(1, n - 1)))


def _digest(data: bytes) -> str:
    """As the job child digests each call's output (sandbox/child.py `OUTPUT_DIGEST`)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _offsets(value, start: int, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and start <= value <= size


def split(outcome, jobs: Sequence[Job], order: Sequence[int], limits: Limits
          ) -> dict[int, RunResult] | None:
    """The per-call results of one shared job (`outcome` as `Sandbox._run_unjudged` gives
    it), keyed by call index and named after `jobs` (the call's own job), or None when the
    job did not run every call to a value or an exception within the per-call time limit."""
    if isinstance(outcome, RunResult):
        return None
    wire_job, report, python = outcome
    status = report.wait_status
    if (report.timed_out or report.forged or report.stdout_over or report.stderr_over
            or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0):
        return None
    try:
        calls = wire.parse_calls(report.result, bool(wire_job["trace"]))
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
    if len(calls) != len(order):
        return None
    limit_ms = call_limit_s(limits) * 1000
    out_at = err_at = 0
    runs: dict[int, RunResult] = {}
    for position, (payload, index) in enumerate(zip(calls, order)):
        ms, cpu = payload.get("ms"), payload.get("cpu_ms")
        out_end, err_end = payload.get("out"), payload.get("err")
        if (payload.get("call") != position or payload["status"] not in SHARED_STATUSES
                or not valid_payload(payload) or not isinstance(ms, Real) or not isinstance(cpu, Real)
                or not 0 <= ms <= limit_ms or not _offsets(out_end, out_at, len(report.stdout))
                or not _offsets(err_end, err_at, len(report.stderr))):
            return None
        if (payload.get("out_digest") != _digest(report.stdout[out_at:out_end])
                or payload.get("err_digest") != _digest(report.stderr[err_at:err_end])):
            return None  # a later call rewrote what this one wrote
        job = jobs[index]
        runs[index] = RunResult(
            id=job.id, status=payload["status"], result=payload.get("result"),
            exception=payload.get("exception"),
            stdout=report.stdout[out_at:out_end].decode("utf-8", errors="replace"),
            stderr=report.stderr[err_at:err_end].decode("utf-8", errors="replace"),
            duration_ms=float(ms), cpu_ms=float(cpu), hash_seed=job.hash_seed,
            trace_json=payload.get("trace_json"), trace_steps=payload.get("trace_steps", 0),
            python=python)
        out_at, err_at = out_end, err_end
    return runs


def combine(group: Plan, forward: dict[int, RunResult] | None,
            backward: dict[int, RunResult] | None, fresh: dict[int, RunResult]
            ) -> list[tuple[RunResult, RunResult, bool]] | None:
    """Per pair (first, second, True) when every call behaved the same in both orders and
    in its fresh job; None otherwise (the group then runs one job per call and seed)."""
    if forward is None or backward is None:
        return None
    out = []
    for index, (_, second_job) in enumerate(group.pairs):
        first, second = forward[index], backward[index]
        if not same_behaviour(first, second, with_stderr=True):
            return None
        if index in fresh and not same_behaviour(first, fresh[index], with_stderr=True):
            return None
        out.append((first, replace(first, id=second_job.id, hash_seed=second_job.hash_seed,
                                   duration_ms=second.duration_ms, cpu_ms=second.cpu_ms,
                                   extra=dict(first.extra)), True))
    return out
