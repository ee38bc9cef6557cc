"""Runner of stage `judge`: executed samples -> difficulty, keep band, questions ->
accepted | rejected; the batch is completed when every slot is final."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.synthesis import repository as repo
from workers.pipeline.difficulty import SOLVER_TEMPLATE_VERSION
from workers.pipeline.lifecycle import BatchStatus, SampleStatus
from workers.pipeline.stages.judge import ExecutedSample, judge, solver_scores, teacher_solves
from workers.runner.common import SessionFactory, batch_teacher, load_spec, record_calls, refused
from workers.runner.deps import StageDeps


def run(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    loaded = load_spec(scope, batch_id)
    if loaded is None:
        return 0
    spec, teacher_name = loaded
    with scope() as session:
        items = [ExecutedSample(*row) for row in repo.executed_samples(session, batch_id, slots)]
    calls = []
    solver: dict[int, tuple[int, int]] = {}
    solved: dict[int, bool] = {}
    if items and spec.difficulty.mode == "solver":
        solver, made = solver_scores(batch_teacher(scope, deps, batch_id, spec, spec.difficulty.solver), items, spec)
        calls.append((spec.difficulty.solver, made))
    if items and spec.difficulty.require_teacher_solves:
        solved, made = teacher_solves(batch_teacher(scope, deps, batch_id, spec, teacher_name), items, spec)
        calls.append((teacher_name, made))
    # a sample whose judging call the budget refused is not judged on less evidence
    unjudged = {item.sample_id for _, made in calls for item, (_, c) in zip(items, made) if refused(c)}
    verdicts = judge(items, spec, solver, solved, unjudged=unjudged)
    with scope() as session:
        for name, made in calls:
            record_calls(session, batch_id, made, name, SOLVER_TEMPLATE_VERSION)
        repo.insert_questions(session, [_question_row(v.sample_id, q, r) for v in verdicts
                                        for q, r in zip(v.questions, v.rationales)])
        moves = []
        for v in verdicts:
            values: dict[str, Any] = dict(v.values)
            if v.reason:
                values["reject_reason"] = v.reason
            moves.append((v.sample_id, SampleStatus.EXECUTED, v.status, values))
        repo.move_samples(session, moves)
        repo.touch(session, batch_id)
        batch = repo.get_batch(session, batch_id)
        if repo.slots_done(session, batch_id) >= batch.programs_requested:
            repo.move_batch(session, batch_id, BatchStatus.COMPLETED, finished_at=repo.now())
    return len(items)


def _question_row(sample_id: int, question, rationale: str | None) -> dict[str, Any]:
    return {
        "rationale": rationale, "sample_id": sample_id, "position": question.position, "kind": question.kind, "line": question.line,
        "visit": question.visit, "variable": question.variable, "prompt": question.text,
        "gold_answer": question.gold_answer, "payload": dict(question.payload),
    }
