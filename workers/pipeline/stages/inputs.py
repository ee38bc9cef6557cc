"""Stage `inputs`: AST mutants of each kept program (when the spec asks for them), then up to
K distinct inputs per program from its candidates: the teacher's own call, one LLM argument
mutation (METHOD.md section 2), type-directed synthesis. With the naturalness gate on (the
default), one probe job per program in the sandbox runs every candidate through the program
and its deletion variants: the inputs are chosen coverage-first from what it saw, and a
program that fails the gate's dynamic checks is rejected with its reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sandbox import Limits
from training.normalize import normalized_hash
from workers.pipeline import seeds
from workers.pipeline.arg_mutation import (
    build_mutation_messages,
    parse_mutation,
    sample_reference_values,
)
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.inputs import args_hash
from workers.pipeline.mutation import mutate_program
from workers.pipeline.naturalness.stage import GATE_CANDIDATES, GateItem, InputChoice, gate_inputs
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.input_synthesis import EDGE_CANDIDATES, candidate_pool
from workers.pipeline.teachers.base import Teacher, complete_all_sync


class ProbeRunner(Protocol):
    limits: Limits  # the probe caps loop turns at limits.trace_steps

    def run_many(self, jobs: Sequence[Any]) -> list[Any]: ...


@dataclass(frozen=True)
class ProgramToSample:
    """A kept program waiting for its inputs."""

    id: int
    slot: int
    variant: int  # 0: the teacher's program; > 0: an AST mutant of it
    source: str
    entry_point: str
    call_args: str
    target: str = ""  # the constraint's method (its own calls are never idled by the gate)


@dataclass(frozen=True)
class NewSample:
    program_id: int
    args: str
    args_hash: str
    input_index: int
    input_origin: str


@dataclass(frozen=True)
class Unnatural:
    program_id: int
    reason: str  # unnatural_<check>
    detail: str | None


@dataclass(frozen=True)
class InputsOutcome:
    samples: tuple[NewSample, ...]
    calls: tuple[tuple[ChatRequest, Completion], ...]  # the LLM argument mutations, to record
    unnatural: tuple[Unnatural, ...] = ()  # programs the gate's dynamic checks turned away


@dataclass(frozen=True)
class NewMutant:
    slot: int
    variant: int
    parent_id: int
    code: str
    edit: str
    normalized_hash: str


def make_mutants(parents: Sequence[ProgramToSample], spec: BatchSpec) -> list[NewMutant]:
    """Up to `mutants_per_program` single-edit mutants of each parent."""
    out = []
    for parent in parents:
        mutants = mutate_program(parent.source, seeds.mutant_seed(spec.run_seed, parent.slot), spec.mutants_per_program)
        out += [NewMutant(parent.slot, variant, parent.id, m.code, m.edit, normalized_hash(m.code))
                for variant, m in enumerate(mutants, start=1)]
    return out


def mutation_request(program: ProgramToSample, seed: int) -> ChatRequest:
    refs = sample_reference_values(seed, seeds.reference_values_key(program.slot))
    return ChatRequest(
        key=f"slot:{program.slot}/mutate_inputs",
        messages=build_mutation_messages(program.source, program.entry_point, program.call_args, refs),
        purpose="mutate_inputs", seed=seed,
        context={"code": program.source, "entry_point": program.entry_point, "args": program.call_args,
                 "reference_values": refs.to_dict(), "index": program.slot},
    )


def make_inputs(teacher: Teacher, sandbox: ProbeRunner, programs: Sequence[ProgramToSample], spec: BatchSpec) -> InputsOutcome:
    """Up to `inputs_per_program` distinct inputs per program; a mutant is offered its
    parent's LLM-mutated input too (one mutation call per slot). Raises ProbeUnavailable when
    the sandbox could not judge a probe job (never a verdict on the program)."""
    seed = spec.run_seed
    llm_args: dict[int, str | None] = {}
    calls: list[tuple[ChatRequest, Completion]] = []
    if spec.llm_mutation:
        originals = [p for p in programs if p.variant == 0]
        requests = [mutation_request(p, seed) for p in originals]
        completions = complete_all_sync(teacher, requests)
        calls = list(zip(requests, completions))
        for program, completion in zip(originals, completions):
            text = completion.texts[0] if completion.status == "ok" and completion.texts else ""
            llm_args[program.slot] = parse_mutation(text, program.entry_point) if text else None
    gate = spec.naturalness
    wide = max(GATE_CANDIDATES, spec.inputs_per_program) if gate.enabled else spec.inputs_per_program
    # with the gate, the coverage-first choice takes from the whole pool (boundary inputs
    # included); without it, the first inputs in priority order are kept
    pools = [candidate_pool(program.call_args, wide, seeds.input_synthesis_seed(seed, program.slot), spec.bounds,
                            mutated=llm_args.get(program.slot), edges=EDGE_CANDIDATES if gate.enabled else 0,
                            code=program.source)
             for program in programs]
    if gate.enabled:
        items = [GateItem(p.source, p.entry_point, pool, p.target) for p, pool in zip(programs, pools)]
        choices = gate_inputs(sandbox, items, spec.inputs_per_program, gate.skip,
                              spec.exec_policy.max_result_chars)
    else:
        choices = [InputChoice(pool[:spec.inputs_per_program], []) for pool in pools]
    samples, unnatural = [], []
    for program, choice in zip(programs, choices):
        if choice.reasons:
            unnatural.append(Unnatural(program.id, choice.reject_reason, choice.detail or None))
            continue
        for index, cand in enumerate(choice.inputs):
            samples.append(NewSample(program.id, cand.args, args_hash(cand.args), index, cand.origin))
    return InputsOutcome(tuple(samples), tuple(calls), tuple(unnatural))
