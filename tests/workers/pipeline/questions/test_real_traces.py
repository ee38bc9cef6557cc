"""Questions built from real sandbox traces of hand-checked programs: loops, nested
branches, C6 helper functions, recursion, early returns, never-executed lines."""

from __future__ import annotations

import pytest

from sandbox import Job, Limits, Sandbox
from training.rewards import score
from training.training_tasks import Task
from workers.pipeline.questions import QuestionConfig, build_oi_questions, build_questions

ALL = QuestionConfig(max_next_line=200, max_variable=200, max_coverage=200, max_never_run=200,
                     minus_one_share=1.0, nil_share=1.0)


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(isolation="namespaces", limits=Limits(timeout_s=5.0)) as sb:
        yield sb


def questions(sandbox, code, entry, args):
    run = sandbox.run(Job(id="q", code=code, entry_point=entry, args=args, trace=True, hash_seed=0))
    assert run.status == "ok", run
    qs = build_questions(code, entry, args, run.result, run.trace, ALL)
    assert qs.status == "kept"
    table = {}
    for q in qs.questions[1:]:
        table[(q.kind, q.line, q.visit, q.variable)] = q.gold_answer
    task = Task("io_whitebox", code, entry, args, run.result, qs.questions)
    assert score(task.gold_answer(), task.ground_truth()).score == 2.0  # gold round-trips
    return run, table


LOOPS = """def f(xs):
    total = 0
    for x in xs:
        if x % 2 == 0:
            if x > 2:
                total += x
            else:
                total -= 1
        elif x == 3:
            total *= 10
        else:
            total += 100
    return total
"""


def test_loop_with_nested_branches(sandbox):
    run, t = questions(sandbox, LOOPS, "f", "[2, 3, 4]")
    assert run.result["repr"] == "-6"  # 0 -> -1 -> -10 -> -6
    assert t[("next_line", 3, 1, None)] == "if x % 2 == 0:"
    assert t[("next_line", 3, 4, None)] == "return total"  # loop exhausted
    assert t[("next_line", 4, 2, None)] == "elif x == 3:"  # x = 3
    assert t[("next_line", 5, 1, None)] == "total -= 1"  # x = 2: inner else
    assert t[("next_line", 5, 2, None)] == "total += x"  # x = 4
    assert t[("next_line", 8, 1, None)] == "for x in xs:"  # jump back, not line 9
    assert t[("next_line", 9, 1, None)] == "total *= 10"
    assert t[("variable", 3, 2, "x")] == "3; int"
    assert t[("variable", 10, 1, "total")] == "-10; int"
    assert t[("variable", 6, 1, "total")] == "-6; int"
    assert t[("next_line", 12, 1, None)] == "-1"  # never runs
    assert t[("coverage", 12, None, None)] == "no" and t[("coverage", 10, None, None)] == "yes"


C6 = """def helper(s, n):
    out = []
    for ch in s:
        if ch.isdigit():
            out.append(int(ch) * n)
    return out

def main(text, n):
    vals = helper(text, n)
    best = max(vals)
    return [best, len(vals)]
"""


def test_c6_helper_frames(sandbox):
    run, t = questions(sandbox, C6, "main", "'a1b2', 3")
    assert run.result["repr"] == "[6, 2]"
    assert t[("variable", 9, 1, "vals")] == "[3, 6]; list"  # after the helper returned
    assert t[("next_line", 3, 1, None)] == "if ch.isdigit():"
    assert ("next_line", 6, 1, None) not in t  # after a return line: never asked
    assert t[("next_line", 4, 1, None)] == "for ch in s:"  # 'a' is not a digit
    assert t[("variable", 5, 2, "out")] == "[3, 6]; list"
    assert t[("variable", 3, 4, "ch")] == "'2'; str"


RECURSION = """def depth(xs):
    if not isinstance(xs, list):
        return 0
    best = 0
    for x in xs:
        d = depth(x)
        if d > best:
            best = d
    return best + 1
"""


def test_recursion_visits_count_across_frames_next_lines_stay_in_frame(sandbox):
    run, t = questions(sandbox, RECURSION, "depth", "[1, [2]]")
    assert run.result["repr"] == "2"
    # line 2 runs for [1,[2]], 1, [2], 2 in that order
    assert t[("next_line", 2, 1, None)] == "best = 0"
    assert t[("next_line", 2, 2, None)] == "return 0"
    assert t[("next_line", 2, 3, None)] == "best = 0"
    # after `d = depth(x)` in the outer frame comes line 7 of the same frame, not the callee
    # line 6 runs: outer x=1 (1st), outer x=[2] (2nd), inner x=2 (3rd); each visit's value is
    # read when its own frame moves on, after the callee returned
    assert t[("variable", 6, 1, "d")] == "0; int"
    assert t[("variable", 6, 2, "d")] == "1; int"
    assert t[("variable", 6, 3, "d")] == "0; int"
    assert t[("next_line", 7, 1, None)] == "for x in xs:"
    assert t[("next_line", 7, 3, None)] == "best = d"


EARLY = """def find(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            return i
    missing = -1
    return missing
"""


def test_early_return_and_never_executed_lines(sandbox):
    run, t = questions(sandbox, EARLY, "find", "[5, 7, 9], 7")
    assert run.result["repr"] == "1"
    assert t[("next_line", 3, 2, None)] == "return i"
    assert ("next_line", 4, 1, None) not in t  # after a return line: never asked
    assert t[("next_line", 5, 1, None)] == "-1"  # never runs
    assert t[("variable", 5, 1, "missing")] == "Nil"
    assert t[("variable", 2, 2, "x")] == "7; int"
    assert t[("variable", 2, 2, "i")] == "1; int"


LITERALS = """def g(xs):
    seen = []
    count = 0
    for x in xs:
        if x in seen:
            count += 1
        seen.append(x)
    return count
"""


def test_literal_assignments_and_returns_are_never_asked(sandbox):
    run, t = questions(sandbox, LITERALS, "g", "[1, 2, 1]")
    assert run.result["repr"] == "1"
    assert not [k for k in t if k[0] == "variable" and k[1] in (2, 3)]  # `seen = []`, `count = 0`
    assert t[("variable", 6, 1, "count")] == "1; int"
    assert t[("variable", 7, 3, "seen")] == "[1, 2, 1]; list"
    assert not [k for k in t if k[0] == "next_line" and k[1] == 8]  # the return line


def test_default_selection_asks_at_most_one_constant_answer_per_kind(sandbox):
    run = sandbox.run(Job(id="q", code=EARLY, entry_point="find", args="[5, 7, 9], 7", trace=True, hash_seed=0))
    constant = {"next_line": 0, "variable": 0}
    for seed in range(60):
        qs = build_questions(EARLY, "find", "[5, 7, 9], 7", run.result, run.trace, seed=seed)
        per_kind = {"next_line": 0, "variable": 0}
        for q in qs.questions[1:]:
            if q.gold_answer in ("-1", "Nil"):
                per_kind[q.kind] += 1
        assert max(per_kind.values()) <= 1
        for kind, n in per_kind.items():
            constant[kind] += n
    assert 0 < constant["next_line"] < 60 and constant["variable"] < 60  # asked sometimes, never always


def test_a_value_holding_an_answer_tag_is_not_asked(sandbox):
    """A gold assertion whose value holds `</answer>` cut its own answer block short: the
    exported gold scored 0 while a response escaping the slash scored 2."""
    code = "def f(word):\n    tag = '</' + word + '>'\n    return tag\n"
    for args, reason in (("'answer'", "answer_tag_in_value"), ("'b'", None)):
        run = sandbox.run(Job(id="t", code=code, entry_point="f", args=args, trace=True, hash_seed=0))
        built = build_questions(code, "f", args, run.result, run.trace, ALL)
        assert built.reason == reason
        assert build_oi_questions("f", args, run.result).reason == reason
    assert build_questions(code, "f", "'</answer>'", {"type": "str", "repr": "'x'"}, None).reason == "answer_tag_in_value"
