"""Stages 1 and 2 of a chunk: a program per slot from the teacher, then inputs (and AST
mutants) for each kept program."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from app.synthesis import repository as repo
from training.normalize import normalized_hash
from workers.pipeline.arg_mutation import (
    MUTATION_TEMPLATE_VERSION,
    build_mutation_messages,
    parse_mutation,
    sample_reference_values,
)
from workers.pipeline.inputs import (
    InputCandidate,
    UnsupportedArguments,
    args_hash,
    distinct_inputs,
)
from workers.pipeline.mutation import mutate_program
from workers.pipeline.naturalness.gate import static_reasons
from workers.pipeline.naturalness.stage import (
    GATE_CANDIDATES,
    REASON_PREFIX,
    GateItem,
    InputChoice,
    ProbeUnavailable,
    gate_inputs,
)
from workers.pipeline.parsing import ParsedProgram, parse_completion
from workers.pipeline.plan import BatchPlan
from workers.pipeline.prompts import TEMPLATE_VERSION, build_generation_messages
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.static_check import StaticCheckError, measure_structure
from workers.pipeline.synthesis import synthesize_inputs
from workers.pipeline.teachers.base import complete_all_sync
from workers.runner.common import (
    ACTIVE,
    PYTHON_VERSION,
    SandboxUnavailable,
    SessionFactory,
    load_plan,
    over_budget,
    record_calls,
)
from workers.runner.deps import StageDeps
from workers.runner.plan import cached_constraints


def generate(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """Teacher call per slot -> one program row per slot (kept, or rejected with a reason)."""
    loaded = load_plan(scope, batch_id, ACTIVE)
    if loaded is None:
        return 0
    _, plan, spec, teacher_name = loaded
    with scope() as session:
        todo = [s for s in slots if s not in repo.existing_slots(session, batch_id, slots)]
        if todo and over_budget(session, batch_id, plan):
            repo.set_batch_status(session, batch_id, "budget_exhausted", only_from=ACTIVE, finished_at=repo.now())
            return 0
    if not todo:
        return 0
    constraints = cached_constraints(deps.catalog, spec, plan.seed)
    requests = [
        ChatRequest(
            key=f"slot:{slot}/generate", messages=build_generation_messages(constraints[slot], plan.seed),
            purpose="generate", seed=plan.seed, constraint=constraints[slot], context={"index": slot},
        )
        for slot in todo
    ]
    completions = complete_all_sync(deps.teacher(teacher_name), requests)
    with scope() as session:
        call_ids = record_calls(session, batch_id, list(zip(requests, completions)), teacher_name, TEMPLATE_VERSION)
        rows = [
            _program_row(batch_id, slot, constraints[slot], req, comp, call_ids.get(req.key), plan, teacher_name)
            for slot, req, comp in zip(todo, requests, completions)
        ]
        repo.insert_programs(session, rows)
        repo.touch(session, batch_id)
        for program in repo.programs_in_slots(session, batch_id, todo, status="kept", variant=0):
            if program.dedup_key is None and not repo.claim_dedup(session, program.id, program.normalized_hash):
                repo.reject_program(session, program.id, "duplicate", "same normalized AST as a kept program")
    return len(todo)


def _program_row(batch_id: int, slot: int, constraint, request: ChatRequest, completion: Completion,
                 call_id: int | None, plan: BatchPlan, teacher_name: str) -> dict[str, Any]:
    row: dict[str, Any] = {
        "batch_id": batch_id, "slot": slot, "variant": 0, "origin": "builtin" if teacher_name == "builtin" else "teacher",
        "teacher_call_id": call_id, "constraint_type": constraint.type, "constraint_method": constraint.method,
        "level": constraint.level, "requested": asdict(constraint.knobs), "prompt_template": TEMPLATE_VERSION,
        "provenance": {"teacher": teacher_name, "model": completion.model, "seed": plan.seed, "python": PYTHON_VERSION},
        "status": "rejected", "measured": None,
    }
    if completion.status != "ok" or not completion.texts:
        return {**row, "reject_reason": "teacher_error", "reject_detail": completion.error}
    parsed = parse_completion(completion.texts[0])
    if not isinstance(parsed, ParsedProgram):
        return {**row, "reject_reason": parsed.reason, "reject_detail": parsed.detail}
    try:
        measured = measure_structure(parsed.code, parsed.entry_point, constraint)
    except StaticCheckError as exc:
        return {**row, "source": parsed.code, "reject_reason": "constraint_check_failed", "reject_detail": str(exc)[:500]}
    row.update(source=parsed.code, entry_point=parsed.entry_point, call_args=parsed.args,
               measured=measured.to_dict(), normalized_hash=normalized_hash(parsed.code))
    if not measured.matches and plan.on_mismatch == "reject":
        return {**row, "reject_reason": "constraint_mismatch", "reject_detail": str(measured.to_dict())[:500]}
    unnatural = static_reasons(parsed.code, plan.naturalness_skip) if plan.naturalness else []
    if unnatural:
        return {**row, "reject_reason": REASON_PREFIX + unnatural[0], "reject_detail": ", ".join(unnatural)}
    return {**row, "status": "kept"}


def make_inputs(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """AST mutants (when asked) and up to K distinct inputs per kept program -> pending samples."""
    loaded = load_plan(scope, batch_id)
    if loaded is None:
        return 0
    _, plan, _, teacher_name = loaded
    if plan.mutation:
        _make_mutants(scope, batch_id, slots, plan)
    with scope() as session:
        programs = [_ProgramView.of(p) for p in repo.programs_without_samples(session, batch_id, slots)]
    if not programs:
        return 0
    llm_args: dict[int, str | None] = {}
    calls: list[tuple[ChatRequest, Completion]] = []
    if plan.llm_mutation:
        originals = [p for p in programs if p.variant == 0]
        requests = [_mutation_request(p, plan) for p in originals]
        completions = complete_all_sync(deps.teacher(teacher_name), requests)
        calls = list(zip(requests, completions))
        for program, completion in zip(originals, completions):
            text = completion.texts[0] if completion.status == "ok" and completion.texts else ""
            llm_args[program.slot] = parse_mutation(text, program.entry_point) if text else None
    rows, pools = [], []
    wide = max(GATE_CANDIDATES, plan.inputs_per_program) if plan.naturalness else plan.inputs_per_program
    for program in programs:
        candidates = [InputCandidate(program.call_args, "teacher")]
        if llm_args.get(program.slot):
            candidates.append(InputCandidate(llm_args[program.slot], "llm_mutation"))
        try:
            candidates += synthesize_inputs(program.call_args, wide, seed=plan.seed * 1_000_003 + program.slot, bounds=plan.bounds)
        except UnsupportedArguments:
            pass
        pools.append(distinct_inputs(candidates, wide + 2))
    choices = _choose_inputs(deps, programs, pools, plan)
    unnatural = [(p.id, c.reject_reason, c.detail) for p, c in zip(programs, choices) if c.reasons]
    for program, choice in zip(programs, choices):
        if choice.reasons:
            continue
        for index, cand in enumerate(choice.inputs):
            rows.append({
                "batch_id": batch_id, "program_id": program.id, "args_hash": args_hash(cand.args), "args_source": cand.args,
                "input_index": index, "input_origin": cand.origin, "status": "pending",
                "constraint_type": program.constraint_type, "constraint_method": program.constraint_method, "level": program.level,
            })
    with scope() as session:
        if calls:
            record_calls(session, batch_id, calls, teacher_name, MUTATION_TEMPLATE_VERSION)
        repo.insert_samples(session, rows)
        for program_id, reason, detail in unnatural:
            repo.reject_program(session, program_id, reason, detail or None)
        repo.touch(session, batch_id)
    return len(rows)


def _choose_inputs(deps: StageDeps, programs: list, pools: list, plan: BatchPlan) -> list[InputChoice]:
    """Coverage-first choice and the dynamic naturalness checks (issue 15), or the first K."""
    if not plan.naturalness:
        return [InputChoice(distinct_inputs(pool, plan.inputs_per_program), []) for pool in pools]
    items = [GateItem(p.source, p.entry_point, pool) for p, pool in zip(programs, pools)]
    try:
        return gate_inputs(deps.sandbox, items, plan.inputs_per_program, plan.naturalness_skip)
    except ProbeUnavailable as exc:
        raise SandboxUnavailable(str(exc)) from exc


class _ProgramView:
    """The columns the stages read, detached from the session."""

    __slots__ = ("id", "slot", "variant", "source", "entry_point", "call_args", "constraint_type", "constraint_method", "level")

    @classmethod
    def of(cls, program) -> "_ProgramView":
        view = cls()
        for name in cls.__slots__:
            setattr(view, name, getattr(program, name))
        return view


def _mutation_request(program: _ProgramView, plan: BatchPlan) -> ChatRequest:
    refs = sample_reference_values(plan.seed, f"slot:{program.slot}")
    return ChatRequest(
        key=f"slot:{program.slot}/mutate_inputs",
        messages=build_mutation_messages(program.source, program.entry_point, program.call_args, refs),
        purpose="mutate_inputs", seed=plan.seed,
        context={"code": program.source, "entry_point": program.entry_point, "args": program.call_args,
                 "reference_values": refs.to_dict(), "index": program.slot},
    )


def _make_mutants(scope: SessionFactory, batch_id: int, slots: Sequence[int], plan: BatchPlan) -> None:
    with scope() as session:
        parents = [_ProgramView.of(p) for p in repo.programs_in_slots(session, batch_id, slots, status="kept", variant=0)]
        have = {(p.slot) for p in repo.programs_in_slots(session, batch_id, slots, status=None) if p.variant > 0}
        rows = []
        for parent in parents:
            if parent.slot in have:
                continue
            for variant, mutant in enumerate(mutate_program(parent.source, plan.seed + parent.slot, plan.mutants_per_program), start=1):
                rows.append({
                    "batch_id": batch_id, "slot": parent.slot, "variant": variant, "parent_id": parent.id, "origin": "mutation",
                    "constraint_type": parent.constraint_type, "constraint_method": parent.constraint_method,
                    "level": parent.level, "requested": {}, "source": mutant.code, "entry_point": parent.entry_point,
                    "call_args": parent.call_args, "normalized_hash": normalized_hash(mutant.code), "status": "kept",
                    "provenance": {"mutation": mutant.edit, "parent_id": parent.id, "seed": plan.seed},
                })
        repo.insert_programs(session, rows)
        for program in repo.programs_in_slots(session, batch_id, slots, status="kept"):
            if program.variant > 0 and program.dedup_key is None and not repo.claim_dedup(session, program.id, program.normalized_hash):
                repo.reject_program(session, program.id, "duplicate", "mutant equals a kept program")
