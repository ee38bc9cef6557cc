"""Stage `judge` on its own: the verdict from features, the solver's score, the keep band and
the teacher check, on a real trace from the sandbox (no database, no CLI)."""

from __future__ import annotations

import pytest

from sandbox import Sandbox
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.lifecycle import SampleStatus
from workers.pipeline.stages.execute import ExecItem, ExecPolicy, execute
from workers.pipeline.stages.judge import ExecutedSample, judge, judge_sample

CODE = "def f(words):\n    total = 0\n    for word in words:\n        if len(word) > 2:\n            total += len(word)\n    return total\n"


@pytest.fixture(scope="module")
def executed() -> ExecutedSample:
    with Sandbox(isolation="namespaces", workers=1) as sb:
        [outcome] = execute(sb, [ExecItem("1", CODE, "f", "['ab', 'abcd', 'xyz']")], ExecPolicy())
    run = outcome.runs[0]
    assert outcome.verdict == "kept" and run.result["repr"] == "7"
    return ExecutedSample(1, 0, CODE, "f", "['ab', 'abcd', 'xyz']", run.result, run.trace)


def _spec(**difficulty) -> BatchSpec:
    return BatchSpec(programs=1, seed=4, difficulty=difficulty)


def test_an_unfiltered_sample_is_accepted_with_its_questions(executed: ExecutedSample) -> None:
    verdict = judge_sample(executed, _spec())
    assert verdict.status == SampleStatus.ACCEPTED and verdict.reason is None
    kinds = [q.kind for q in verdict.questions]
    assert kinds[0] == "io" and "oi" in kinds and len(kinds) > 2
    assert verdict.values["difficulty_level"] in {"C1", "C2", "C3", "C4", "C5", "C6"}
    assert "solver_passes" not in verdict.values
    assert judge_sample(executed, _spec()).questions == verdict.questions  # seeded by the natural key


def test_the_keep_band_decides_by_the_solver_s_rate(executed: ExecutedSample) -> None:
    spec = _spec(mode="solver", solver="student", keep_band=(0.0, 0.3))
    easy = judge_sample(executed, spec, solver=(9, 10))
    assert (easy.status, easy.reason, easy.questions) == (SampleStatus.REJECTED, "too_easy", ())
    assert (easy.values["solver_passes"], easy.values["solver_k"]) == (9, 10)
    assert judge_sample(executed, spec, solver=(2, 10)).status == SampleStatus.ACCEPTED
    hard = judge_sample(executed, _spec(mode="solver", solver="s", keep_band=(0.2, 1.0)), solver=(0, 10))
    assert hard.reason == "too_hard"


def test_the_teacher_check_rejects_unsolved_samples(executed: ExecutedSample) -> None:
    spec = _spec(require_teacher_solves=True)
    failed = judge_sample(executed, spec, teacher_solved=False)
    assert (failed.reason, failed.values["teacher_solved"]) == ("teacher_failed", False)
    assert judge_sample(executed, spec, teacher_solved=True).status == SampleStatus.ACCEPTED
    [unchecked] = judge([executed], spec)  # the teacher never answered: decides nothing
    assert unchecked.status == SampleStatus.ACCEPTED and "teacher_solved" not in unchecked.values


def test_a_truncated_result_gets_no_questions(executed: ExecutedSample) -> None:
    truncated = ExecutedSample(2, 0, CODE, "f", executed.args, {**executed.result, "truncated": True}, executed.trace)
    verdict = judge_sample(truncated, _spec())
    assert (verdict.status, verdict.reason) == (SampleStatus.REJECTED, "questions_result_truncated")
