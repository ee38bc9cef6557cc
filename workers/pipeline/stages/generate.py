"""Stage `generate`: one teacher call per slot, and the completion judged as a program.

A completion is parsed (hard rules of the prompt), its structure measured against the
requested constraint, and it comes back kept or rejected with one machine-readable reason.
Deduplication across the batch needs the database, so the runner does it after this stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from training.normalize import normalized_hash
from workers.pipeline.batch_spec import BatchSpec, NaturalnessSpec
from workers.pipeline.lifecycle import ProgramStatus
from workers.pipeline.naturalness.gate import static_reasons
from workers.pipeline.naturalness.stage import REASON_PREFIX
from workers.pipeline.parsing import ParsedProgram, parse_completion
from workers.pipeline.prompts import build_generation_messages
from workers.pipeline.records import ChatRequest, Completion, Constraint
from workers.pipeline.static_check import StaticCheckError, measure_structure
from workers.pipeline.teachers.base import Teacher, complete_all_sync


@dataclass(frozen=True)
class ProgramVerdict:
    """What one completion gives for one constraint."""

    status: ProgramStatus
    reason: str | None = None
    detail: str | None = None
    code: str | None = None
    entry_point: str | None = None
    args: str | None = None
    measured: dict[str, Any] | None = None
    normalized_hash: str | None = None


@dataclass(frozen=True)
class GeneratedProgram:
    slot: int
    constraint: Constraint
    request: ChatRequest
    completion: Completion
    verdict: ProgramVerdict


def judge_completion(constraint: Constraint, completion: Completion, on_mismatch: str = "reject",
                     naturalness: NaturalnessSpec = NaturalnessSpec()) -> ProgramVerdict:
    """Kept, or rejected with a reason: teacher error, a broken hard rule, a structure that
    cannot be measured, (unless `on_mismatch` is "relabel") one that differs from the request,
    or code the naturalness gate's static rules turn away (`unnatural_<rule>`)."""
    rejected = ProgramStatus.REJECTED
    if completion.status != "ok" or not completion.texts:
        return ProgramVerdict(rejected, "teacher_error", completion.error or "no text")
    parsed = parse_completion(completion.texts[0])
    if not isinstance(parsed, ParsedProgram):
        return ProgramVerdict(rejected, parsed.reason, parsed.detail)
    try:
        measured = measure_structure(parsed.code, parsed.entry_point, constraint)
    except StaticCheckError as exc:
        return ProgramVerdict(rejected, "constraint_check_failed", str(exc)[:500], code=parsed.code)
    program = dict(code=parsed.code, entry_point=parsed.entry_point, args=parsed.args,
                   measured=measured.to_dict(), normalized_hash=normalized_hash(parsed.code))
    if not measured.matches and on_mismatch == "reject":
        return ProgramVerdict(rejected, "constraint_mismatch", ",".join(measured.mismatches), **program)
    unnatural = static_reasons(parsed.code, naturalness.skip, parsed.entry_point) if naturalness.enabled else []
    if unnatural:
        return ProgramVerdict(rejected, REASON_PREFIX + unnatural[0], ", ".join(unnatural), **program)
    return ProgramVerdict(ProgramStatus.KEPT, **program)


def generation_request(key: str, constraint: Constraint, seed: int, index: int) -> ChatRequest:
    return ChatRequest(key=key, messages=build_generation_messages(constraint, seed), purpose="generate",
                       seed=seed, constraint=constraint, context={"index": index})


def generate(teacher: Teacher, cells: Sequence[tuple[int, Constraint]], spec: BatchSpec) -> list[GeneratedProgram]:
    """A program (or a rejection) for each (slot, constraint)."""
    seed = spec.run_seed
    requests = [generation_request(f"slot:{slot}/generate", constraint, seed, slot) for slot, constraint in cells]
    completions = complete_all_sync(teacher, requests)
    return [
        GeneratedProgram(slot, constraint, request, completion,
                         judge_completion(constraint, completion, spec.on_mismatch, spec.naturalness))
        for (slot, constraint), request, completion in zip(cells, requests, completions)
    ]
