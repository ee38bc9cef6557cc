"""The four stages of a chunk of slots: generate -> inputs -> execute -> finish.

Each stage reads what it needs by ids, runs the pure pipeline code outside any transaction,
then writes with natural-key upserts, so running a stage twice (redelivery, crash, retry)
changes nothing. A stage only touches items in the state it owns (e.g. `execute` only
`pending` samples), which is what makes the order of retries irrelevant.
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict
from typing import Any

from sqlalchemy.orm import Session

from app.synthesis import repository as repo
from workers.pipeline.arg_mutation import MUTATION_TEMPLATE_VERSION, build_mutation_messages, parse_mutation, sample_reference_values
from workers.pipeline.difficulty import (
    SOLVER_TEMPLATE_VERSION, compute_features, difficulty_score, estimated_pass_rate, level_from_pass_rate, score_completion,
    solver_request,
)
from workers.pipeline.execution import ExecItem, execute_items
from workers.pipeline.inputs import InputCandidate, UnsupportedArguments, args_hash, distinct_inputs
from workers.pipeline.mutation import mutate_program
from training.normalize import normalized_hash
from workers.pipeline.parsing import ParsedProgram, parse_completion
from workers.pipeline.plan import BatchPlan
from workers.pipeline.prompts import TEMPLATE_VERSION, build_generation_messages
from workers.pipeline.questions import build_oi_questions, build_questions
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.static_check import StaticCheckError, measure_structure
from workers.pipeline.synthesis import synthesize_inputs
from workers.pipeline.teachers.base import complete_all_sync
from workers.runner.deps import StageDeps
from workers.runner.plan import cached_constraints

SessionFactory = Callable[[], AbstractContextManager[Session]]
ACTIVE = ("pending", "running")
# a budget stop ends generation; chunks already generated still run to a final state
FINISHING = ACTIVE + ("budget_exhausted",)
PYTHON_VERSION = platform.python_version()
OI_MAX_RESULT_CHARS = 150  # the reference's bound for output->input questions


class SandboxUnavailable(RuntimeError):
    """Some runs could not be judged; the chunk must be retried (nothing was recorded for them)."""


def _load(scope: SessionFactory, batch_id: int, statuses: tuple[str, ...] = FINISHING) -> tuple[str, BatchPlan, dict, str] | None:
    """The batch's plan, or None when it is gone or in a status the stage must not work in
    (a cancelled batch stops at the next stage boundary)."""
    with scope() as session:
        batch = repo.get_batch(session, batch_id)
        if batch is None or batch.status not in statuses:
            return None
        return batch.status, BatchPlan.from_spec(batch.spec, batch.seed), dict(batch.spec), batch.teacher


def _call_row(request: ChatRequest, completion: Completion, teacher: str, template: str | None) -> dict[str, Any]:
    return {
        "request_key": request.key, "purpose": request.purpose, "teacher": teacher, "model": completion.model,
        "prompt": list(request.messages), "prompt_template": template,
        "params": {"n": request.n, "temperature": request.temperature, "top_p": request.top_p, "seed": request.seed},
        "raw_completion": list(completion.texts), "status": completion.status, "error": completion.error,
        "prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
        "latency_ms": completion.latency_ms, "cost_usd": completion.cost_usd, "attempts": completion.attempts,
    }


def _record_calls(session: Session, batch_id: int, calls: Sequence[tuple[ChatRequest, Completion]], teacher: str, template: str | None) -> dict[str, int]:
    ids = repo.record_teacher_calls(session, batch_id, [_call_row(r, c, teacher, template) for r, c in calls])
    repo.add_batch_usage(
        session, batch_id,
        sum(c.prompt_tokens for _, c in calls), sum(c.completion_tokens for _, c in calls), sum(c.cost_usd for _, c in calls),
    )
    return ids


def _over_budget(session: Session, batch_id: int, plan: BatchPlan) -> bool:
    batch = repo.get_batch(session, batch_id)
    tokens = batch.prompt_tokens + batch.completion_tokens
    return bool((plan.max_tokens and tokens >= plan.max_tokens) or (plan.max_cost_usd and batch.cost_usd >= plan.max_cost_usd))


def generate(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """Teacher call per slot -> one program row per slot (kept, or rejected with a reason)."""
    loaded = _load(scope, batch_id, ACTIVE)
    if loaded is None:
        return 0
    _, plan, spec, teacher_name = loaded
    with scope() as session:
        todo = [s for s in slots if s not in repo.existing_slots(session, batch_id, slots)]
        if todo and _over_budget(session, batch_id, plan):
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
        call_ids = _record_calls(session, batch_id, list(zip(requests, completions)), teacher_name, TEMPLATE_VERSION)
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
    return {**row, "status": "kept"}


def make_inputs(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """AST mutants (when asked) and up to K distinct inputs per kept program -> pending samples."""
    loaded = _load(scope, batch_id)
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
    rows = []
    for program in programs:
        candidates = [InputCandidate(program.call_args, "teacher")]
        if llm_args.get(program.slot):
            candidates.append(InputCandidate(llm_args[program.slot], "llm_mutation"))
        try:
            candidates += synthesize_inputs(program.call_args, plan.inputs_per_program, seed=plan.seed * 1_000_003 + program.slot, bounds=plan.bounds)
        except UnsupportedArguments:
            pass
        for index, cand in enumerate(distinct_inputs(candidates, plan.inputs_per_program)):
            rows.append({
                "batch_id": batch_id, "program_id": program.id, "args_hash": args_hash(cand.args), "args_source": cand.args,
                "input_index": index, "input_origin": cand.origin, "status": "pending",
                "constraint_type": program.constraint_type, "constraint_method": program.constraint_method, "level": program.level,
            })
    with scope() as session:
        if calls:
            _record_calls(session, batch_id, calls, teacher_name, MUTATION_TEMPLATE_VERSION)
        repo.insert_samples(session, rows)
        repo.touch(session, batch_id)
    return len(rows)


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


def execute(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """Pending samples -> sandbox (two hash seeds, traced) -> executions + executed/rejected."""
    loaded = _load(scope, batch_id)
    if loaded is None:
        return 0
    _, plan, _, _ = loaded
    with scope() as session:
        pending = [
            (s.id, ExecItem(str(s.id), p.source, p.entry_point, s.args_source), p.id, s.args_hash, s.args_source, s.input_origin)
            for s, p in repo.samples_with_status(session, batch_id, slots, "pending")
        ]
    if not pending:
        return 0
    outcomes = execute_items(deps.sandbox, [item for _, item, *_ in pending], plan.exec_policy)
    unjudged = 0
    with scope() as session:
        for (sample_id, _, program_id, a_hash, a_src, origin), outcome in zip(pending, outcomes):
            if outcome.verdict == "error":
                unjudged += 1
                continue
            exec_rows = [{
                "program_id": program_id, "args_source": a_src, "args_hash": a_hash, "input_origin": origin,
                "hash_seed": run.hash_seed, "status": run.status, "result": run.result, "exception": run.exception,
                "stdout": run.stdout, "trace": run.trace, "duration_ms": run.duration_ms, "python_version": run.python or PYTHON_VERSION,
            } for run in outcome.runs]
            ids = repo.insert_executions(session, exec_rows)
            first = outcome.runs[0]
            values: dict[str, Any] = {"execution_id": ids.get((program_id, a_hash, first.hash_seed))}
            if outcome.verdict == "kept":
                values.update(status="executed", result_chars=len((first.result or {}).get("repr", "")),
                              trace_steps=len((first.trace or {}).get("steps", [])))
            else:
                values.update(status="rejected", reject_reason=outcome.reason, reject_detail=outcome.detail)
            repo.update_sample(session, sample_id, **values)
        repo.reject_failed_mutants(session, batch_id, slots)
        repo.touch(session, batch_id)
    if unjudged:
        raise SandboxUnavailable(f"{unjudged} of {len(pending)} runs could not be judged (sandbox_error); retry the chunk")
    return len(pending)


def finish(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """Executed samples -> difficulty (features, solver) -> level, keep band -> questions ->
    accepted or rejected; then the batch's counters and, when every slot is final, its status."""
    loaded = _load(scope, batch_id)
    if loaded is None:
        return 0
    _, plan, _, teacher_name = loaded
    with scope() as session:
        items = []
        for sample, program in repo.samples_with_status(session, batch_id, slots, "executed"):
            run = repo.execution_by_id(session, sample.execution_id)
            items.append((sample.id, program.slot, program.source, program.entry_point, sample.args_source, run.result, run.trace))
    calls: list[tuple[str, list[tuple[ChatRequest, Completion]]]] = []
    solver_scores = _solver_scores(deps, plan, items, calls) if plan.difficulty_mode == "solver" and plan.solver else {}
    teacher_ok = _teacher_solves(deps, plan, teacher_name, items, calls) if plan.solver_policy.require_teacher_solves else {}
    updates, question_rows = [], []
    for sample_id, slot, code, entry, args, result, trace in items:
        features = compute_features(code, entry, trace, result.get("repr", ""))
        score = difficulty_score(features)
        values: dict[str, Any] = {"features": features.to_dict(), "difficulty_score": round(score, 4)}
        verdict = None
        if sample_id in solver_scores:
            passes, k = solver_scores[sample_id]
            rate = passes / k if k else 0.0
            values.update(solver_passes=passes, solver_k=k, difficulty_level=level_from_pass_rate(rate))
        else:
            rate = estimated_pass_rate(score)
            values["difficulty_level"] = level_from_pass_rate(rate)
        if plan.keep_band and not plan.keep_band[0] <= rate <= plan.keep_band[1]:
            verdict = "too_easy" if rate > plan.keep_band[1] else "too_hard"
        if sample_id in teacher_ok:
            values["teacher_solved"] = teacher_ok[sample_id]
            if not teacher_ok[sample_id] and verdict is None:
                verdict = "teacher_failed"
        if verdict is None:
            built = build_questions(code, entry, args, result, trace, seed=_item_seed(plan.seed, slot, code, args))
            if built.status != "kept":
                verdict = f"questions_{built.reason}"
            else:
                questions = list(built.questions)
                if len(result.get("repr", "")) <= OI_MAX_RESULT_CHARS:
                    questions += build_oi_questions(entry, args, result).questions
                question_rows += [_question_row(sample_id, q) for q in questions]
        if verdict:
            values.update(status="rejected", reject_reason=verdict)
        else:
            values["status"] = "accepted"
        updates.append((sample_id, values))
    with scope() as session:
        for name, pairs in calls:
            _record_calls(session, batch_id, pairs, name, SOLVER_TEMPLATE_VERSION)
        repo.insert_questions(session, question_rows)
        for sample_id, values in updates:
            repo.update_sample(session, sample_id, **values)
        repo.store_counters(session, batch_id)
        batch = repo.get_batch(session, batch_id)
        if repo.slots_done(session, batch_id) >= batch.programs_requested:
            repo.set_batch_status(session, batch_id, "completed", only_from=ACTIVE, finished_at=repo.now())
    return len(items)


def _item_seed(seed: int, slot: int, code: str, args: str) -> int:
    """A seed from the sample's natural key (never its row id, which depends on write order)."""
    digest = hashlib.sha256(f"{seed}:{slot}:{code}:{args}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _question_row(sample_id: int, question) -> dict[str, Any]:
    return {
        "sample_id": sample_id, "position": question.position, "kind": question.kind, "line": question.line,
        "visit": question.visit, "variable": question.variable, "prompt": question.text,
        "gold_answer": question.gold_answer, "payload": dict(question.payload),
    }


def _solver_scores(deps: StageDeps, plan: BatchPlan, items, calls: list) -> dict[int, tuple[int, int]]:
    """The student's pass count per sample (request key "sample:<id>/student")."""
    policy = plan.solver_policy
    requests = [solver_request(f"sample:{sid}/student", code, entry, args, plan.seed, policy) for sid, _, code, entry, args, _, _ in items]
    completions = complete_all_sync(deps.teacher(plan.solver), requests)
    calls.append((plan.solver, list(zip(requests, completions))))
    out = {}
    for (sid, _, _, entry, _, result, _), completion in zip(items, completions):
        score = score_completion(completion, result, entry, policy.k)
        if score.errors < policy.k:  # a solver that never answered decides nothing
            out[sid] = (score.passes, policy.k - score.errors)
    return out


def _teacher_solves(deps: StageDeps, plan: BatchPlan, teacher_name: str, items, calls: list) -> dict[int, bool]:
    """Whether the teacher solves each sample once (request key "sample:<id>/solve"; the SFT
    export uses a solved call's text as the assistant turn)."""
    from workers.pipeline.difficulty import SolverPolicy

    once = SolverPolicy(k=1, temperature=0.0)
    requests = [solver_request(f"sample:{sid}/solve", code, entry, args, plan.seed, once) for sid, _, code, entry, args, _, _ in items]
    completions = complete_all_sync(deps.teacher(teacher_name), requests)
    calls.append((teacher_name, list(zip(requests, completions))))
    return {
        sid: score_completion(c, result, entry, 1).passes == 1
        for (sid, _, _, entry, _, result, _), c in zip(items, completions)
        if c.status == "ok"
    }


STAGES = {"generate": generate, "inputs": make_inputs, "execute": execute, "finish": finish}


def run_chunk(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> None:
    """All four stages in order, in this process (the CLI's path; Celery runs them as a chain)."""
    for stage in STAGES.values():
        stage(scope, deps, batch_id, slots)
