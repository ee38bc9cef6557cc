"""Exact grading (issue 13, item 5): Python's `==` with exact types in every reward and in
the pipeline's solver; a float tolerance only when asked for; keyword arguments graded;
code that passes no test scores exactly 0."""

from __future__ import annotations

import ast

import pytest

from sandbox import Limits, Sandbox
from training import make
from training.rewards import compute_score, runtime, score
from training.training_tasks import CodeTest, Task
from workers.pipeline.difficulty.solver import score_completion
from workers.pipeline.records import Completion

FLOAT_CODE = "def f(x):\n    return x * 1.0\n"


def io_task(result_repr: str, args: str = "x=0", code: str = FLOAT_CODE) -> Task:
    result = {"type": type(ast.literal_eval(result_repr)).__name__, "repr": result_repr}
    return Task("io", code, "f", args, result, (make.io_question("f", args, result),))


def io_score(task: Task, assertion: str, **options) -> float:
    return score(f"<answer>\n{assertion}\n</answer>", task.ground_truth(), **options).score


@pytest.mark.parametrize("gold", ["1234567.0", "1e-10", "5e-10", "0.30000000000000004", "2.5"])
def test_nudged_floats_lose_the_io_credit(gold):
    task = io_task(gold, args="1")
    value = float(gold)
    assert io_score(task, f"assert f(1) == {value!r}") == 2.0
    nudges = [value * (1 + 1e-7)] + ([value + 1e-10, -value] if abs(value) < 1e-6 else [])
    for nudged in nudges:
        assert nudged != value
        assert io_score(task, f"assert f(1) == {nudged!r}") == 0.0


def test_python_eq_rejects_what_tolerance_accepted():
    cases = [("1234567.0", "1234568.0"), ("1e-10", "0.0"), ("5e-10", "-5e-10"),
             ("0.30000000000000004", "0.3")]
    for gold, predicted in cases:
        task = io_task(gold, args="1")
        assert io_score(task, f"assert f(1) == {predicted}") == 0.0
        # the documented, off-by-default option brings the old behaviour back
        assert io_score(task, f"assert f(1) == {predicted}", float_tolerance=True) == 2.0


def test_exact_types_all_the_way_down():
    task = io_task("[1, {2: (True, 'a')}]", args="1", code="def f(x):\n    return [x, {2: (True, 'a')}]\n")
    assert io_score(task, "assert f(1) == [1, {2: (True, 'a')}]") == 2.0
    for wrong in ("[1.0, {2: (True, 'a')}]", "[True, {2: (True, 'a')}]", "[1, {2: (1, 'a')}]",
                  "[1, {2.0: (True, 'a')}]", "[1, {2: [True, 'a']}]"):
        assert io_score(task, f"assert f(1) == {wrong}") == 0.0


def test_keyword_arguments_in_the_assertion_are_graded():
    task = io_task("2", args="1", code="def f(x):\n    return x + 1\n")
    assert io_score(task, "assert f(x=1) == 2") == 2.0
    assert io_score(task, "assert f(1) == 2") == 2.0
    assert io_score(task, "assert f(y=1) == 2") == 0.0
    assert io_score(task, "assert f(x=1.0) == 2") == 0.0
    assert io_score(task, "assert f(1, x=1) == 2") == 0.0
    two = io_task("3", args="1, 2", code="def f(a, b):\n    return a + b\n")
    assert io_score(two, "assert f(b=2, a=1) == 3") == 2.0
    assert io_score(two, "assert f(1, b=2) == 3") == 2.0
    assert io_score(two, "assert f(2, a=1) == 3") == 0.0


def test_the_solver_grades_with_the_same_exact_rule():
    gold = {"type": "float", "repr": "0.30000000000000004"}
    texts = ["[ANSWER]assert f(1) == 0.3[/ANSWER]", "[ANSWER]assert f(1) == 0.30000000000000004[/ANSWER]",
             "[ANSWER]assert f(1) == 0.30000000000000010[/ANSWER]"]
    completion = Completion(request_key="k", texts=tuple(texts), model="m", status="ok")
    assert score_completion(completion, gold, "f", 3).passes == 1
    ints = score_completion(Completion(request_key="k", texts=("[ANSWER]assert f(1) == True[/ANSWER]",), model="m", status="ok"),
                            {"type": "int", "repr": "1"}, "f", 1)
    assert ints.passes == 0


GEN_TASK = Task("codegen", "def add(a, b):\n    return a + b\n", "add", tests=(
    CodeTest("1, 2", {"type": "int", "repr": "3"}),
    CodeTest("0.1, 0.2", {"type": "float", "repr": "0.30000000000000004"}),
), instruction="Write add(a, b).")


@pytest.fixture(scope="module")
def graded():
    with Sandbox(isolation="namespaces", workers=1, limits=Limits(timeout_s=2.0, memory_mb=256)) as sb:
        with runtime.use_sandbox(sb):
            yield sb


def gen(code: str, **options) -> dict:
    text = f"<answer>\n```python\n{code}\n```\n</answer>"
    return compute_score(GEN_TASK.data_source, text, GEN_TASK.ground_truth(), **options)


def test_code_that_passes_no_test_scores_exactly_zero(graded):
    nothing = gen("def add(a, b):\n    return None")
    assert nothing["score"] == 0.0 and nothing["n_correct"] == 0
    one = gen("def add(a, b):\n    return round(a + b, 1) if isinstance(a, float) else a + b")
    assert one["n_correct"] == 1 and one["score"] == pytest.approx(0.5 + 0.05)
    assert gen("def add(a, b):\n    return a + b")["score"] == pytest.approx(1.05)
    loose = gen("def add(a, b):\n    return round(a + b, 1) if isinstance(a, float) else a + b",
                float_tolerance=1e-9)
    assert loose["n_correct"] == 2


def test_code_reading_ground_truth_from_disk_finds_none(graded):
    reader = ("import os\ndef add(a, b):\n    for root in ('/', '/tmp', '/var/tmp', os.getcwd()):\n"
              "        for name in os.listdir(root):\n"
              "            if name.endswith(('.sqlite3', '.json', '.jsonl', '.parquet')):\n"
              "                return open(os.path.join(root, name)).read()\n    return None\n")
    assert gen(reader)["score"] == 0.0
