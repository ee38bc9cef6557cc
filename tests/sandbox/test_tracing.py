"""Trace correctness on hand-checked programs: loops, branches, helpers, recursion."""

from __future__ import annotations

import sys

import pytest

from sandbox import Limits

from .conftest import job


def shape(result):
    return [(s["event"], s["func"], s["line"], s["depth"]) for s in result.trace["steps"]]


def local(step, name):
    return step["locals"][name]["repr"]


LOOP_BRANCH = """\
def f(n):
    total = 0
    for i in range(n):
        if i % 2:
            total += i
        else:
            total -= 1
    return total
"""


def test_loop_and_branches(sb):
    r = sb.run(job(LOOP_BRANCH, args="3", trace=True))
    assert r.status == "ok" and r.result["repr"] == "-1"
    assert shape(r) == [
        ("call", "f", 1, 0), ("line", "f", 2, 0), ("line", "f", 3, 0),
        ("line", "f", 4, 0), ("line", "f", 7, 0), ("line", "f", 3, 0),
        ("line", "f", 4, 0), ("line", "f", 5, 0), ("line", "f", 3, 0),
        ("line", "f", 4, 0), ("line", "f", 7, 0), ("line", "f", 3, 0),
        ("line", "f", 8, 0), ("return", "f", 8, 0)]
    steps = r.trace["steps"]
    # locals on a line step are the values before that line runs
    assert steps[1]["locals"] == {"n": {"type": "int", "repr": "3", "json": 3, "truncated": False}}
    assert local(steps[5], "total") == "-1" and local(steps[5], "i") == "0"
    assert local(steps[8], "total") == "0"
    assert steps[-1]["value"]["repr"] == "-1" and local(steps[-1], "total") == "-1"


HELPER = """\
def helper(s):
    return s.upper()

def f(words):
    out = []
    for w in words:
        out.append(helper(w))
    return out
"""


def test_helper_calls_are_traced_one_level_deeper(sb):
    r = sb.run(job(HELPER, args="['a', 'b']", trace=True))
    assert r.result["repr"] == "['A', 'B']"
    assert shape(r) == [
        ("call", "f", 4, 0), ("line", "f", 5, 0), ("line", "f", 6, 0), ("line", "f", 7, 0),
        ("call", "helper", 1, 1), ("line", "helper", 2, 1), ("return", "helper", 2, 1),
        ("line", "f", 6, 0), ("line", "f", 7, 0),
        ("call", "helper", 1, 1), ("line", "helper", 2, 1), ("return", "helper", 2, 1),
        ("line", "f", 6, 0), ("line", "f", 8, 0), ("return", "f", 8, 0)]
    returns = [s for s in r.trace["steps"] if s["event"] == "return" and s["func"] == "helper"]
    assert [s["value"]["repr"] for s in returns] == ["'A'", "'B'"]
    assert local(r.trace["steps"][8], "out") == "['A']"


RECURSION = """\
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)
"""


def test_recursion_depths_and_return_values(sb):
    r = sb.run(job(RECURSION, entry="fact", args="3", trace=True))
    assert r.result["repr"] == "6"
    assert shape(r) == [
        ("call", "fact", 1, 0), ("line", "fact", 2, 0), ("line", "fact", 4, 0),
        ("call", "fact", 1, 1), ("line", "fact", 2, 1), ("line", "fact", 4, 1),
        ("call", "fact", 1, 2), ("line", "fact", 2, 2), ("line", "fact", 3, 2),
        ("return", "fact", 3, 2), ("return", "fact", 4, 1), ("return", "fact", 4, 0)]
    values = [s["value"]["repr"] for s in r.trace["steps"] if s["event"] == "return"]
    assert values == ["1", "2", "6"]


RAISES = """\
def inner(x):
    return 10 // x

def f(x):
    try:
        return inner(x)
    except ZeroDivisionError:
        return -1
"""


def test_exception_events(sb):
    r = sb.run(job(RAISES, args="0", trace=True))
    assert r.result["repr"] == "-1"
    events = [(s["event"], s["func"], s["line"]) for s in r.trace["steps"]]
    assert ("exception", "inner", 2) in events and ("exception", "f", 6) in events
    step = next(s for s in r.trace["steps"] if s["event"] == "exception")
    assert step["exception"] == {"type": "ZeroDivisionError",
                                 "message": "integer division or modulo by zero"}
    assert events[-2:] == [("line", "f", 8), ("return", "f", 8)]


def test_library_code_is_invisible_and_module_level_is_not_traced(sb):
    code = "import json\nX = sorted([3, 1])\ndef f():\n    return json.dumps(X)\n"
    r = sb.run(job(code, trace=True))
    assert {s["func"] for s in r.trace["steps"]} == {"f"}
    assert r.result["repr"] == "'[1, 3]'"


def test_trace_limit_stops_the_run(sb):
    code = "def f():\n    i = 0\n    while True:\n        i += 1\n"
    r = sb.run(job(code, trace=True, limits=Limits(trace_steps=50)))
    assert r.status == "trace_limit"
    assert len(r.trace["steps"]) == 50


def test_untraced_run_has_no_trace(sb):
    r = sb.run(job(LOOP_BRANCH, args="3"))
    assert r.trace is None and r.result["repr"] == "-1"


@pytest.mark.skipif(not hasattr(sys, "monitoring"), reason="sys.monitoring needs Python 3.12+")
def test_monitoring_tracer_is_used_where_available(sb):
    r = sb.run(job(RECURSION, entry="fact", args="3", trace=True))
    assert [s["value"]["repr"] for s in r.trace["steps"] if s["event"] == "return"] == ["1", "2", "6"]


IN_PLACE = """\
def f(xs):
    a = [1, 2, 3]
    a[0] = True
    a[0] = -0.0
    a.reverse()
    s = {30, 10, 20}
    s.discard(10)
    s.add(10)
    d = {"k": 1}
    d["k"] = 2
    t = (1, [2])
    t[1].append(3)
    xs.append(4)
    return a
"""


def test_values_changed_in_place_are_encoded_anew_at_every_step(sb):
    # the tracer reuses an encoding only while a value is provably unchanged (same object,
    # same item objects in the same order); each in-place change must show at its step
    r = sb.run(job(IN_PLACE, args="[5]", trace=True))
    after = {s["line"]: s["locals"] for s in r.trace["steps"] if s["event"] == "line"}
    assert after[3]["a"]["repr"] == "[1, 2, 3]" and after[4]["a"]["repr"] == "[True, 2, 3]"
    assert after[5]["a"]["repr"] == "[-0.0, 2, 3]" and after[6]["a"]["repr"] == "[3, 2, -0.0]"
    assert after[10]["d"]["repr"] == "{'k': 1}" and after[11]["d"]["repr"] == "{'k': 2}"
    assert after[12]["t"]["repr"] == "(1, [2])" and after[13]["t"]["repr"] == "(1, [2, 3])"
    assert after[13]["xs"]["repr"] == "[5]" and r.trace["steps"][-1]["locals"]["xs"]["repr"] == "[5, 4]"
    assert after[8]["s"]["repr"] == "{20, 30}" and after[9]["s"]["repr"] == "{10, 20, 30}"


PATCHED_BUILTINS = """\
import builtins
def f():
    builtins.all = lambda it: True
    builtins.map = lambda *a: iter(())
    xs = [1, 2]
    xs[0] = 7
    xs[1] = 8
    return xs
"""


def test_patching_builtins_cannot_make_the_tracer_reuse_a_stale_value(sb):
    r = sb.run(job(PATCHED_BUILTINS, trace=True))
    seen = [s["locals"]["xs"]["repr"] for s in r.trace["steps"] if "xs" in s["locals"]]
    assert seen[:3] == ["[1, 2]", "[7, 2]", "[7, 8]"]
