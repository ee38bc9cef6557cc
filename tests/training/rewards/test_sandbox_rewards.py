"""O->I and unit-test rewards through the real sandbox, and the infrastructure contract:
a sandbox that cannot judge raises, it never yields a silent 0."""

from __future__ import annotations

import threading

import pytest

from sandbox import Limits, Sandbox
from training import make
from training.errors import RewardInfrastructureError
from training.rewards import compute_score, score
from training.rewards import runtime
from training.training_tasks import CodeTest, Task

OI_CODE = """def f(xs, k):
    out = []
    for x in xs:
        if x % k == 0:
            out.append(x * 2)
        while x > 100:
            x -= 0
    return out
"""
RESULT = {"type": "list", "repr": "[6, 12]"}
OI_TASK = Task("oi", OI_CODE, "f", "[3, 4, 6], 3", RESULT, (make.oi_question("f", "[3, 4, 6], 3", RESULT),))


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(isolation="namespaces", limits=Limits(timeout_s=2.0, memory_mb=256)) as sb:
        yield sb


@pytest.fixture
def graded(sandbox):
    with runtime.use_sandbox(sandbox):
        yield sandbox


def oi(answer: str) -> float:
    return compute_score(OI_TASK.data_source, f"<reasoning>r</reasoning><answer>\n{answer}\n</answer>",
                         OI_TASK.ground_truth())["score"]


def test_oi_any_input_reproducing_the_output_scores_two(graded):
    assert oi("assert f([3, 4, 6], 3) == [6, 12]") == 2.0
    assert oi("assert f([6, 3], 3) == [12, 6]") == 0.0  # order matters: [12, 6] != [6, 12]
    assert oi("assert f([3, 5, 6, 7], 3) == [6, 12]") == 2.0  # another correct input
    assert oi("assert f(k=3, xs=[3, 6]) == [6, 12]") == 2.0
    assert oi("assert f([3, 4, 6], 2) == [6, 12]") == 0.0  # gives [8, 12]


def test_oi_rhs_is_ignored_the_stored_result_decides(graded):
    assert oi("assert f([1], 3) == []") == 0.0  # a true assertion, but not the asked output


def test_oi_runaway_and_failing_inputs_score_zero(graded):
    assert oi("assert f([300], 3) == [6, 12]") == 0.0  # infinite loop: timeout is a verdict
    assert oi("assert f([3], 0) == [6, 12]") == 0.0  # ZeroDivisionError
    assert oi("assert f('abc', 3) == [6, 12]") == 0.0  # TypeError
    assert oi("assert f(exit(), 3) == [6, 12]") == 0.0  # never parsed as code


def test_sandbox_that_cannot_start_raises_never_zero():
    def broken():
        raise OSError("namespaces unavailable")

    runtime.set_sandbox_factory(broken)
    try:
        with pytest.raises(RewardInfrastructureError):
            oi("assert f([3, 4, 6], 3) == [6, 12]")
        # white-box scoring needs no sandbox and keeps working
        io_task = Task("io", OI_CODE, "f", "[3, 4, 6], 3", RESULT, (make.io_question("f", "[3, 4, 6], 3", RESULT),))
        assert score(io_task.gold_answer(), io_task.ground_truth()).score == 2.0
    finally:
        runtime.set_sandbox_factory(None)


def test_sandbox_error_result_raises(sandbox):
    class Failing:
        """A real sandbox whose runs come back as `sandbox_error` (forkserver gone)."""

        def run(self, job):
            from sandbox import RunResult

            return RunResult.sandbox_error(job.id, "forkserver died")

    with runtime.use_sandbox(Failing()), pytest.raises(RewardInfrastructureError, match="sandbox_error"):
        oi("assert f([3, 4, 6], 3) == [6, 12]")


def test_lazy_sandbox_is_created_once_across_threads(sandbox):
    calls = []

    def factory():
        calls.append(1)
        return sandbox

    runtime.set_sandbox_factory(factory)
    try:
        got = []
        threads = [threading.Thread(target=lambda: got.append(runtime.get_sandbox())) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(calls) == 1 and all(g is sandbox for g in got)
    finally:
        runtime._sandbox = None  # the module fixture owns this sandbox; do not close it here
        runtime.set_sandbox_factory(None)


GEN_TASK = Task("codegen", "def add(a, b):\n    return a + b\n", "add", tests=(
    CodeTest("1, 2", {"type": "int", "repr": "3"}),
    CodeTest("[1], [2]", {"type": "list", "repr": "[1, 2]"}),
    CodeTest("-1, 1", {"type": "int", "repr": "0"}),
    CodeTest("'a', 'b'", {"type": "str", "repr": "'ab'"}),
), instruction="Write add(a, b).")


def gen(code: str, tags: bool = True) -> dict:
    body = f"```python\n{code}\n```"
    text = f"<answer>\n{body}\n</answer>" if tags else body
    return compute_score(GEN_TASK.data_source, text, GEN_TASK.ground_truth())


def test_codegen_pass_rate_and_format_bonus(graded):
    assert gen("def add(a, b):\n    return a + b")["score"] == pytest.approx(1.05)
    assert gen("def add(a, b):\n    return a + b", tags=False)["score"] == pytest.approx(1.0)
    half = gen("def add(a, b):\n    return a + b if isinstance(a, int) else None")
    assert half["score"] == pytest.approx(0.5 + 0.05) and half["n_correct"] == 2  # ints only
    assert compute_score(GEN_TASK.data_source, "no code", GEN_TASK.ground_truth())["score"] == 0.0
    assert gen("def add(a, b):\n    return a + b", tags=True)["valid_format"] == 1.0


def test_codegen_exploits_pass_nothing(graded):
    forged = ("class Any:\n    def __eq__(self, other):\n        return True\n    def __repr__(self):\n"
              "        return '3'\ndef add(a, b):\n    return Any()")
    assert gen(forged)["n_correct"] == 0
    assert gen("import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b")["n_correct"] == 0
    assert gen("print(3)\nexit()")["n_correct"] == 0


def test_oi_forged_repr_does_not_pass(graded):
    code = ("class Fake:\n    def __repr__(self):\n        return '[6, 12]'\n"
            "def f(xs, k):\n    return Fake() if xs == [0] else [x * 2 for x in xs if x % k == 0]\n")
    task = Task("oi", code, "f", "[3, 6], 3", RESULT, (make.oi_question("f", "[3, 6], 3", RESULT),))
    assert score("<answer>\nassert f([3, 6], 3) == [6, 12]\n</answer>", task.ground_truth()).score == 2.0
    assert score("<answer>\nassert f([0], 3) == [6, 12]\n</answer>", task.ground_truth()).score == 0.0


class CountingSandbox:
    """The real sandbox, counting the runs a reward asks of it."""

    def __init__(self, inner):
        self.inner, self.runs = inner, 0

    def run(self, job):
        self.runs += 1
        return self.inner.run(job)


def test_an_answer_that_hangs_costs_two_timeouts_not_one_per_test(sandbox):
    """Each test of a hanging answer cost the whole timeout, one after another (20 s for four
    tests at the default 5 s); the tests after the second timeout now fail without a run."""
    counting = CountingSandbox(sandbox)
    with runtime.use_sandbox(counting):
        hangs = gen("def add(a, b):\n    while True:\n        pass")
        assert (hangs["score"], hangs["n_correct"], counting.runs) == (0.0, 0, 2)
        counting.runs = 0
        slow_on_one = gen("def add(a, b):\n    while a == 1:\n        pass\n    return a + b")
        assert counting.runs == len(GEN_TASK.tests) and slow_on_one["n_correct"] == len(GEN_TASK.tests) - 1
