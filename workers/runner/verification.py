"""Stages 3 and 4 of a chunk: sandbox execution under two hash seeds, then difficulty,
questions and the final accepted/rejected verdict."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from app.synthesis import repository as repo
from workers.pipeline.difficulty import (
    SOLVER_TEMPLATE_VERSION,
    compute_features,
    difficulty_score,
    estimated_pass_rate,
    level_from_pass_rate,
    score_completion,
    solver_request,
)
from workers.pipeline.execution import ExecItem, execute_items
from workers.pipeline.plan import BatchPlan
from training.rationale import build_rationales
from workers.pipeline.questions import build_oi_questions, build_questions
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.base import complete_all_sync
from workers.runner.common import (
    ACTIVE,
    OI_MAX_RESULT_CHARS,
    PYTHON_VERSION,
    SandboxUnavailable,
    SessionFactory,
    load_plan,
    record_calls,
)
from workers.runner.deps import StageDeps


def execute(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    """Pending samples -> sandbox (two hash seeds, traced) -> executions + executed/rejected."""
    loaded = load_plan(scope, batch_id)
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
    judged = [(row, outcome) for row, outcome in zip(pending, outcomes) if outcome.verdict != "error"]
    unjudged = len(pending) - len(judged)
    exec_rows = [{
        "program_id": program_id, "args_source": a_src, "args_hash": a_hash, "input_origin": origin,
        "hash_seed": run.hash_seed, "status": run.status, "result": run.result, "exception": run.exception,
        "stdout": run.stdout, "trace": run.trace, "duration_ms": run.duration_ms, "python_version": run.python or PYTHON_VERSION,
    } for (_, _, program_id, a_hash, a_src, origin), outcome in judged for run in outcome.runs]
    with scope() as session:
        ids = repo.insert_executions(session, exec_rows)  # the whole chunk in one statement
        for (sample_id, _, program_id, a_hash, _, _), outcome in judged:
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
    loaded = load_plan(scope, batch_id)
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
            item_seed = _item_seed(plan.seed, slot, code, args)
            built = build_questions(code, entry, args, result, trace, seed=item_seed)
            if built.status != "kept":
                verdict = f"questions_{built.reason}"
            else:
                questions = list(built.questions)
                if len(result.get("repr", "")) <= OI_MAX_RESULT_CHARS:
                    questions += build_oi_questions(entry, args, result).questions
                notes = build_rationales(code, entry, args, result, trace, questions, item_seed)
                question_rows += [_question_row(sample_id, q, notes.for_question(q)) for q in questions]
        if verdict:
            values.update(status="rejected", reject_reason=verdict)
        else:
            values["status"] = "accepted"
        updates.append((sample_id, values))
    with scope() as session:
        for name, pairs in calls:
            record_calls(session, batch_id, pairs, name, SOLVER_TEMPLATE_VERSION)
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


def _question_row(sample_id: int, question, rationale: str | None = None) -> dict[str, Any]:
    return {"rationale": rationale,
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
