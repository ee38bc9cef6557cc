"""Stage II reward: unit-test pass rate of generated code, run in the sandbox.

Each test calls the entry point on literal arguments in a fresh sandboxed run and compares
the typed return value with the expected literal on the host, so code that forges output,
prints "OK" or returns an object with a permissive `__eq__` passes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from training.answers import find_answer_block
from training.kinds import gold_typed_value, observed_value
from training.rewards.result import RewardResult, graded_or_zero
from training.rewards.runtime import run_call_status
from training.training_tasks import Task
from training.values import FloatTolerance, NotALiteral, values_equal

DEFAULT_FORMAT_BONUS = 0.05
MAX_CODE_CHARS = 50_000
_FENCE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S | re.I)


def extract_code(solution_str: str) -> tuple[str | None, bool]:
    """(code, well_formatted): the last fenced block, preferring the `<answer>` block;
    well formatted when that block sits inside `<answer>` tags."""
    block = find_answer_block(solution_str)
    for scope, tagged in ((block, True), (solution_str, False)):
        if scope is None:
            continue
        fences = _FENCE.findall(scope)
        if fences:
            return fences[-1], tagged and block is not None
    return None, False


MAX_TIMEOUTS = 2  # runs of one answer that may end in the sandbox's timeout; the tests after them fail


def score_codegen(task: Task, solution_str: str, format_bonus: float = DEFAULT_FORMAT_BONUS,
                  runner: Callable[[str, str, str, int], dict | None] | None = None,
                  tolerance: FloatTolerance | None = None) -> RewardResult:
    return graded_or_zero(lambda: _score(task, solution_str, format_bonus, runner, tolerance),
                          len(task.tests), 1.0 + format_bonus)


def _score(task: Task, solution_str: str, format_bonus: float,
           runner: Callable[[str, str, str, int], dict | None] | None,
           tolerance: FloatTolerance | None) -> RewardResult:
    code, well_formatted = extract_code(solution_str) if isinstance(solution_str, str) else (None, False)
    n = len(task.tests)
    if code is None or not code.strip():
        return RewardResult(0.0, n_questions=n, problem="no code block", max_score=1.0 + format_bonus)
    if len(code) > MAX_CODE_CHARS:
        return RewardResult(0.0, n_questions=n, problem="code too long", max_score=1.0 + format_bonus)
    run = (lambda *a: ("ok", runner(*a))) if runner else run_call_status
    passed, timeouts = [], 0
    for test in task.tests:
        status, typed = run(code, task.entry_point, test.args, task.hash_seed)
        passed.append(_matches(typed, test.expected, tolerance))
        timeouts += status == "timeout"
        if timeouts == MAX_TIMEOUTS:  # each run of a solution that hangs costs the whole timeout
            passed += [False] * (n - len(passed))
            break
    n_correct = sum(passed)
    rate = n_correct / n
    bonus = format_bonus if well_formatted and n_correct > 0 else 0.0
    return RewardResult(rate + bonus, 1.0 if n_correct == n else 0.0, rate, n, n_correct,
                        well_formatted, tuple(passed), max_score=1.0 + format_bonus)


def _matches(typed: dict | None, expected: dict, tolerance: FloatTolerance | None) -> bool:
    try:
        return values_equal(observed_value(typed), gold_typed_value(expected), tolerance)
    except NotALiteral:
        return False
