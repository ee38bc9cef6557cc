"""The gate as a pipeline stage for the inputs step: one probe job per program runs every
input candidate through the marked program and its deletion variants; the kept inputs are
chosen coverage-first from what the job saw, and the dynamic checks are judged on those.

A probe job that cannot be judged (sandbox unavailable) raises, so the chunk is retried;
one that the program's runs ended (timeout, memory, killed, output) is `no_viable_input`;
one whose driver could not run the program (no such entry point) gives no verdict and the
candidates are taken in priority order, as without the gate.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sandbox import Job, Limits, RunResult
from workers.pipeline.inputs import InputCandidate, distinct_inputs
from workers.pipeline.naturalness.dynamic import DRIVER, MAX_RESULT_CHARS, Probe, build_probe, judge, probe_args
from workers.pipeline.naturalness.gate import checked, dynamic_reasons

PROBE_LIMITS = Limits(timeout_s=10.0, memory_mb=512)
# type-directed candidates per program the coverage choice picks from (bench/naturalness:
# 8 left 9.5-9.7% of branch arms untaken, 12 leave 8.5-8.7%, at no measurable cost)
GATE_CANDIDATES = 12
REASON_PREFIX = "unnatural_"  # the reject reason of a program the gate turns away
RUNAWAY = ("timeout", "memory_limit", "killed", "output_limit")  # probe ends the program's runs caused


class ProbeUnavailable(RuntimeError):
    """The sandbox could not judge a probe job (infrastructure, never a verdict)."""


@dataclass(frozen=True)
class GateItem:
    code: str
    entry_point: str
    candidates: list[InputCandidate]  # distinct, in priority order; the first is the teacher's
    target: str = ""  # the constraint's method (`lower`, `int()`): its own calls are never idled


@dataclass(frozen=True)
class InputChoice:
    inputs: list[InputCandidate]
    reasons: list[str]  # empty: the program passes
    detail: str = ""

    @property
    def reject_reason(self) -> str | None:
        return REASON_PREFIX + self.reasons[0] if self.reasons else None


def target_name(method: str) -> str:
    """The name a constraint's method is called by (`int()` -> `int`, `str.lower` -> `lower`)."""
    return method.removesuffix("()").rpartition(".")[2]


def _job(i: int, probe: Probe, item: GateItem, limit: int, max_turns: int, max_chars: int) -> Job:
    return Job(id=f"probe:{i}", code=probe.code, entry_point=DRIVER,
               args=probe_args(probe, item.entry_point, [c.args for c in item.candidates], limit,
                               max_turns, max_chars),
               limits=PROBE_LIMITS)


def _outcome(output: str) -> str:
    """A probe output as a user reads it (`big:<len>:<hash>`, `error:<type>`)."""
    if output.startswith("big:"):
        return "a result over the size cap"
    return {"error:turns": "loop turns over the trace's step cap",
            "error:cpu": "over the probe's CPU for a run",
            "error:budget": "over the probe's CPU for the job"}.get(output, output.removeprefix("error:"))


def choose(probe: Probe, item: GateItem, result: RunResult, limit: int,
           skip: Iterable[str] = ()) -> InputChoice:
    """Pure: the kept inputs and the dynamic reasons, from one probe job's result."""
    if not result.ok or result.result is None:
        reasons = ["no_viable_input"] if result.status in RUNAWAY and "no_viable_input" in checked(skip) else []
        return InputChoice(distinct_inputs(item.candidates, limit), reasons, f"probe {result.status}")
    data = ast.literal_eval(result.result["repr"])
    kept = [item.candidates[c] for c in data[2]]
    facts = judge(probe, data)
    reasons = dynamic_reasons(facts, skip)
    if reasons[:1] == ["no_viable_input"]:
        detail = "every input: " + ", ".join(sorted({_outcome(o) for o in data[3]}))[:300]
    elif "deletable_statement" in reasons:
        detail = "; ".join(f"line {line}: {text}" for line, text in facts.deletable[:3])
    elif "idle_expression" in reasons:
        detail = "gives the same outputs as its operand: " + "; ".join(
            f"line {line}: {text}" for line, text in facts.idle[:3])
    elif "unjudged_statement" in reasons:
        detail = "the probe's CPU ran out before trying " + "; ".join(
            f"line {line}: {text}" for line, text in facts.unjudged[:3])
    else:
        detail = ""
    return InputChoice(kept, reasons, detail)


def gate_inputs(sandbox, items: Sequence[GateItem], limit: int,  # noqa: ANN001
                skip: Iterable[str] = (), max_result_chars: int = MAX_RESULT_CHARS) -> list[InputChoice]:
    """One probe job per program on `sandbox` (anything with `run_many(jobs)` and `limits`).
    Inputs the execution filter would reject (an error, more loop turns than the sandbox's
    trace step cap, a result over `max_result_chars`) are not chosen while others remain."""
    max_turns = sandbox.limits.trace_steps
    skip = tuple(skip)
    probes = []
    for item in items:
        try:
            probes.append(build_probe(item.code, target=target_name(item.target)))
        except SyntaxError:
            probes.append(None)
    jobs = [_job(i, probe, item, limit, max_turns, max_result_chars)
            for i, (probe, item) in enumerate(zip(probes, items)) if probe]
    results = iter(sandbox.run_many(jobs))
    choices = []
    for probe, item in zip(probes, items):
        if probe is None:
            choices.append(InputChoice(distinct_inputs(item.candidates, limit), [], "no probe"))
            continue
        result = next(results)
        if result.status == "sandbox_error":
            raise ProbeUnavailable(f"probe job could not be judged: {result.exception}")
        choices.append(choose(probe, item, result, limit, skip))
    return choices
