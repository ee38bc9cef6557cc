"""Stage `execute`: run each (program, input) in the sandbox under two hash seeds, with the
trace, and decide kept / rejected (with a reason) / error.

The sandbox's limits (timeout, memory, trace steps) are the runner's own, built from the
deployment's settings (`EXECSYNTH_SANDBOX__*`); jobs carry none of their own.

`sandbox_error` is an infrastructure failure, never a verdict on the program: such items come
back as `error` so the caller retries them instead of storing a rejection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sandbox import Job, RunResult, literal_from_typed

class Runner(Protocol):
    def run_pairs_grouped(self, groups: Sequence[Sequence[tuple[Job, Job]]]
                          ) -> list[list[tuple[RunResult, RunResult, bool]]]: ...


@dataclass(frozen=True)
class ExecPolicy:
    hash_seeds: tuple[int, int] = (0, 1_000_003)
    max_result_chars: int = 1000


@dataclass(frozen=True)
class ExecItem:
    key: str  # caller's id for the (program, input) pair
    code: str
    entry_point: str
    args: str


@dataclass(frozen=True)
class ExecOutcome:
    key: str
    verdict: str  # "kept" | "rejected" | "error"
    reason: str | None = None
    detail: str | None = None
    runs: tuple[RunResult, ...] = field(default_factory=tuple)


def _comparable(run: RunResult) -> tuple[Any, ...]:
    return (run.status, run.result, run.exception, run.stdout, run.trace_json)


def judge(item: ExecItem, first: RunResult, second: RunResult, policy: ExecPolicy,
          same: bool | None = None) -> ExecOutcome:
    """The verdict on one item from its runs under the two hash seeds; `same` (whether they
    behaved identically) is worked out here when the runner did not say."""
    runs = (first, second)
    for run in runs:
        if run.status == "sandbox_error":
            return ExecOutcome(item.key, "error", "sandbox_error", (run.exception or {}).get("message"), runs)
    if first.status != "ok":
        detail = None
        if first.exception:
            detail = f"{first.exception.get('type')}: {first.exception.get('message', '')}"[:500]
        return ExecOutcome(item.key, "rejected", f"exec_{first.status}", detail, runs)
    if same is None:
        same = _comparable(first) == _comparable(second)
    if not same:
        return ExecOutcome(item.key, "rejected", "hash_order_dependent",
                           f"result, stdout or trace differ between PYTHONHASHSEED={first.hash_seed} and {second.hash_seed}", runs)
    result = first.result or {}
    if result.get("truncated") or len(result.get("repr", "")) > policy.max_result_chars:
        return ExecOutcome(item.key, "rejected", "result_too_large", f"result repr over {policy.max_result_chars} chars", runs)
    try:
        literal_from_typed(result)
    except ValueError as exc:
        return ExecOutcome(item.key, "rejected", "result_not_literal", str(exc)[:300], runs)
    return ExecOutcome(item.key, "kept", runs=runs)


def execute(runner: Runner, items: Sequence[ExecItem], policy: ExecPolicy) -> list[ExecOutcome]:
    """Both seeds of every item go to the sandbox pool in one call (all cores busy), the
    items of one program as one group: the sandbox runs a program's inputs in shared jobs
    when that gives the outcomes separate jobs would (`Sandbox.run_pairs_grouped`), and an
    identical second run (and its trace) is not decoded twice. The runs get the runner's
    limits."""
    groups: dict[tuple[str, str], list[int]] = {}
    for at, item in enumerate(items):
        groups.setdefault((item.code, item.entry_point), []).append(at)
    order = [at for members in groups.values() for at in members]
    pairs = [
        [tuple(Job(id=f"{items[at].key}#{seed}", code=items[at].code, entry_point=items[at].entry_point,
                   args=items[at].args, trace=True, hash_seed=seed)
               for seed in policy.hash_seeds)
         for at in members]
        for members in groups.values()
    ]
    runs = dict(zip(order, (run for group in runner.run_pairs_grouped(pairs) for run in group)))
    return [judge(item, *runs[at][:2], policy, runs[at][2]) for at, item in enumerate(items)]
