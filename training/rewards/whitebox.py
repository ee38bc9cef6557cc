"""Stage I rewards: input->output with white-box questions, plain I->O, and O->I.

R = 2 * ((1 - a) * io + a * step_accuracy), and nothing unless the assertion is right
(METHOD.md section 6). Unlike the reference, each step question is graded on its own, the
predicted output is compared as a literal (never executed), and an O->I answer contributes
only its literal argument list, which runs against the stored function in the sandbox.
"""

from __future__ import annotations

from collections.abc import Callable

from training.answers import find_answer_block, parse_block
from training.kinds import GradeContext, grade_question, signature_of
from training.question_record import OI
from training.rewards.result import RewardResult, graded_or_zero
from training.rewards.runtime import run_call
from training.training_tasks import Task
from training.values import FloatTolerance

DEFAULT_ALPHA = 0.5
MIN_BLOCK_BUDGET = 4096


def block_budget(gold_block: str) -> int:
    """Longest answer block worth reading: generous for formatting, far below a flood."""
    return max(MIN_BLOCK_BUDGET, 4 * len(gold_block) + 1024)


def score_assertion_task(task: Task, solution_str: str, alpha: float = DEFAULT_ALPHA,
                         runner: Callable[[str, str, str, int], dict | None] | None = None,
                         tolerance: FloatTolerance | None = None) -> RewardResult:
    """Score one response to an io / io_whitebox / oi task, with a per-question breakdown.
    Values compare exactly (training.values) unless a float `tolerance` is passed."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    return graded_or_zero(lambda: _score(task, solution_str, alpha, runner, tolerance),
                          len(task.step_questions), 2.0)


def _score(task: Task, solution_str: str, alpha: float,
           runner: Callable[[str, str, str, int], dict | None] | None,
           tolerance: FloatTolerance | None) -> RewardResult:
    steps = task.step_questions
    n = len(steps)
    if not isinstance(solution_str, str):
        return RewardResult(0.0, n_questions=n, problem="response is not text")
    block = find_answer_block(solution_str)
    if block is None:
        return RewardResult(0.0, n_questions=n, problem="no <answer> block")
    if len(block) > block_budget(task.gold_answer()):
        return RewardResult(0.0, n_questions=n, problem="answer block too long")
    parsed = parse_block(block, n, task.style)
    if not parsed.valid:
        return RewardResult(0.0, n_questions=n, problem=parsed.problem)
    assertion_q = task.assertion_question
    assert assertion_q is not None  # Task validates this
    call = None
    if assertion_q.kind == OI:
        run = runner or run_call
        call = lambda args: run(task.code, task.entry_point, args, task.hash_seed)  # noqa: E731
    ctx = GradeContext(task.entry_point, call, signature_of(task.code, task.entry_point), tolerance)
    io_ok = grade_question(parsed.assertion, assertion_q, ctx)
    per_question = tuple(grade_question(parsed.answers.get(q.position), q, ctx) for q in steps)
    n_correct = sum(per_question)
    step_accuracy = n_correct / n if n else 1.0
    if not io_ok:
        return RewardResult(0.0, 0.0, step_accuracy, n, n_correct, True, per_question,
                            problem="final-output answer is wrong")
    score = 2.0 * ((1.0 - alpha) * 1.0 + alpha * step_accuracy)
    return RewardResult(score, 1.0, step_accuracy, n, n_correct, True, per_question)
