"""Stage `judge`: an executed sample's difficulty (trace features, and the solver's pass@k
when the spec names a solver), its keep band, the teacher-solves gate, its questions, and
the final verdict: accepted, or rejected with a reason."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from training.rationale import build_rationales
from training.question_record import Question
from workers.pipeline import seeds
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.difficulty import (
    SolverPolicy,
    compute_features,
    difficulty_score,
    estimated_pass_rate,
    level_from_pass_rate,
    score_completion,
    solver_request,
)
from workers.pipeline.lifecycle import SampleStatus
from workers.pipeline.questions import build_oi_questions, build_questions
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.base import Teacher, complete_all_sync

OI_MAX_RESULT_CHARS = 150  # the reference's bound for output->input questions
Calls = list[tuple[ChatRequest, Completion]]


@dataclass(frozen=True)
class ExecutedSample:
    sample_id: int
    slot: int
    code: str
    entry_point: str
    args: str
    result: dict[str, Any]
    trace: dict[str, Any] | None


@dataclass(frozen=True)
class SampleVerdict:
    sample_id: int
    status: SampleStatus  # accepted | rejected
    reason: str | None
    values: dict[str, Any]  # features, difficulty score and level, solver and teacher results
    questions: tuple[Question, ...]
    rationales: tuple[str | None, ...] = ()  # per question: its verified reasoning, or None


def solver_scores(teacher: Teacher, items: Sequence[ExecutedSample], spec: BatchSpec) -> tuple[dict[int, tuple[int, int]], Calls]:
    """The student's (passes, graded attempts) per sample (request key "sample:<id>/student");
    a solver that never answered a sample decides nothing about it."""
    policy = spec.difficulty.solver_policy
    requests = [solver_request(f"sample:{i.sample_id}/student", i.code, i.entry_point, i.args, spec.run_seed, policy)
                for i in items]
    completions = complete_all_sync(teacher, requests)
    scores = {}
    for item, completion in zip(items, completions):
        score = score_completion(completion, item.result, item.entry_point, policy.k)
        if score.errors < policy.k:
            scores[item.sample_id] = (score.passes, policy.k - score.errors)
    return scores, list(zip(requests, completions))


def teacher_solves(teacher: Teacher, items: Sequence[ExecutedSample], spec: BatchSpec) -> tuple[dict[int, bool], Calls]:
    """Whether the teacher solves each sample once (request key "sample:<id>/solve"; the SFT
    export uses a solved call's text as the assistant turn)."""
    once = SolverPolicy(k=1, temperature=0.0)
    requests = [solver_request(f"sample:{i.sample_id}/solve", i.code, i.entry_point, i.args, spec.run_seed, once)
                for i in items]
    completions = complete_all_sync(teacher, requests)
    solved = {item.sample_id: score_completion(c, item.result, item.entry_point, 1).passes == 1
              for item, c in zip(items, completions) if c.status == "ok"}
    return solved, list(zip(requests, completions))


def judge_sample(item: ExecutedSample, spec: BatchSpec, solver: tuple[int, int] | None = None,
                 teacher_solved: bool | None = None) -> SampleVerdict:
    """The verdict on one sample, given the solver's score and the teacher's check (None: not run)."""
    features = compute_features(item.code, item.entry_point, item.trace, item.result.get("repr", ""))
    score = difficulty_score(features)
    values: dict[str, Any] = {"features": features.to_dict(), "difficulty_score": round(score, 4)}
    if solver is not None:
        passes, k = solver
        rate = passes / k if k else 0.0
        values.update(solver_passes=passes, solver_k=k)
    else:
        rate = estimated_pass_rate(score)
    values["difficulty_level"] = level_from_pass_rate(rate)
    reason = None
    band = spec.difficulty.band
    if band and not band[0] <= rate <= band[1]:
        reason = "too_easy" if rate > band[1] else "too_hard"
    if teacher_solved is not None:
        values["teacher_solved"] = teacher_solved
        if not teacher_solved and reason is None:
            reason = "teacher_failed"
    questions: tuple[Question, ...] = ()
    rationales: tuple[str | None, ...] = ()
    if reason is None:
        seed = seeds.sample_seed(spec.run_seed, item.slot, item.code, item.args)
        built = build_questions(item.code, item.entry_point, item.args, item.result, item.trace, seed=seed)
        if built.status != "kept":
            reason = f"questions_{built.reason}"
        else:
            questions = built.questions
            if len(item.result.get("repr", "")) <= OI_MAX_RESULT_CHARS:
                questions += build_oi_questions(item.entry_point, item.args, item.result).questions
            # the SFT reasoning, written from the trace and verified against it (None where it failed)
            notes = build_rationales(item.code, item.entry_point, item.args, item.result, item.trace, list(questions), seed)
            rationales = tuple(notes.for_question(q) for q in questions)
    status = SampleStatus.REJECTED if reason else SampleStatus.ACCEPTED
    return SampleVerdict(item.sample_id, status, reason, values, questions, rationales)


def judge(items: Sequence[ExecutedSample], spec: BatchSpec, solver: Mapping[int, tuple[int, int]] | None = None,
          teacher_solved: Mapping[int, bool] | None = None, unjudged: Collection[int] = ()) -> list[SampleVerdict]:
    """Verdicts for `items`; those in `unjudged` (their solver or teacher call was refused by the
    batch's budget) are rejected as `budget_exhausted` rather than judged without it."""
    solver = solver or {}
    teacher_solved = teacher_solved or {}
    return [
        SampleVerdict(i.sample_id, SampleStatus.REJECTED, "budget_exhausted", {}, ()) if i.sample_id in unjudged
        else judge_sample(i, spec, solver.get(i.sample_id), teacher_solved.get(i.sample_id))
        for i in items
    ]
