"""Question building from traces written by hand in the sandbox's contract format.

Checks the parts that need no interpreter: frame attribution in recursion, continuation
lines of multi-line statements, comprehension frames, truncated values, AST line kinds.
"""

from __future__ import annotations

from workers.pipeline.questions import QuestionConfig, build_questions
from training.trace.source_map import build_source_map
from training.trace.visits import LEAVES, read_visits

ALL = QuestionConfig(max_next_line=100, max_variable=100, max_coverage=100, max_never_run=100,
                     minus_one_share=1.0, nil_share=1.0)


def v(value, truncated=False):
    return {"type": type(value).__name__, "repr": repr(value), "truncated": truncated}


def step(event, func, line, depth, **locals_):
    return {"event": event, "func": func, "line": line, "depth": depth,
            "locals": {k: v(x) for k, x in locals_.items()}}


FACT = """def fact(n):
    if n <= 1:
        return 1
    r = n * fact(n - 1)
    return r
"""
# fact(2): the inner call's lines must not be read as the outer frame's next lines.
FACT_TRACE = {"steps": [
    step("call", "fact", 1, 0, n=2),
    step("line", "fact", 2, 0, n=2),
    step("line", "fact", 4, 0, n=2),
    step("call", "fact", 1, 1, n=1),
    step("line", "fact", 2, 1, n=1),
    step("line", "fact", 3, 1, n=1),
    {**step("return", "fact", 3, 1, n=1), "value": v(1)},
    step("line", "fact", 5, 0, n=2, r=2),
    {**step("return", "fact", 5, 0, n=2, r=2), "value": v(2)},
]}


def by_key(qset):
    return {(q.kind, q.line, q.visit, q.variable): q.gold_answer for q in qset.questions[1:]}


def test_recursion_frames_are_kept_apart():
    smap = build_source_map(FACT)
    log = read_visits(FACT_TRACE["steps"], smap)
    assert [(x.line, x.visit, x.frame, x.next_line) for x in log.visits] == [
        (2, 1, 0, 4), (4, 1, 0, 5), (2, 2, 1, 3), (3, 1, 1, LEAVES), (5, 1, 0, LEAVES)]
    qs = build_questions(FACT, "fact", "2", v(2), FACT_TRACE, ALL)
    got = by_key(qs)
    assert qs.status == "kept"
    assert got[("next_line", 2, 1, None)] == "r = n * fact(n - 1)"  # outer frame: n=2
    assert got[("next_line", 2, 2, None)] == "return 1"  # inner frame: n=1
    # line 4 then 5 is the textual successor: not asked; its variable change is
    assert ("next_line", 4, 1, None) not in got
    assert got[("variable", 4, 1, "r")] == "2; int"
    assert ("next_line", 3, 1, None) not in got  # after a return line: -1 by rote, never asked
    assert ("next_line", 5, 1, None) not in got


MULTI = """def g(xs):
    total = sum(
        xs)
    ys = [x * 2
          for x in xs]
    return total
"""
MULTI_TRACE = {"steps": [
    step("call", "g", 1, 0, xs=[1, 2]),
    step("line", "g", 2, 0, xs=[1, 2]),
    step("line", "g", 3, 0, xs=[1, 2]),
    step("line", "g", 2, 0, xs=[1, 2]),
    step("line", "g", 4, 0, xs=[1, 2], total=3),
    step("call", "<listcomp>", 4, 1),
    step("line", "<listcomp>", 4, 1),
    step("line", "<listcomp>", 5, 1, x=1),
    {**step("return", "<listcomp>", 4, 1, x=2), "value": v([2, 4])},
    step("line", "g", 6, 0, xs=[1, 2], total=3, ys=[2, 4]),
    {**step("return", "g", 6, 0, xs=[1, 2], total=3, ys=[2, 4]), "value": v(3)},
]}


def test_continuation_lines_and_comprehension_frames_collapse_into_statements():
    smap = build_source_map(MULTI)
    log = read_visits(MULTI_TRACE["steps"], smap)
    assert [(x.line, x.visit, x.next_line) for x in log.visits] == [(2, 1, 4), (4, 1, 6), (6, 1, LEAVES)]
    assert not smap.statements[2].askable and smap.statements[6].askable


def test_truncated_and_non_literal_values_are_never_asked():
    code = "def h(s):\n    t = s * 3\n    o = object()\n    return 1\n"
    trace = {"steps": [
        step("call", "h", 1, 0, s="ab"),
        step("line", "h", 2, 0, s="ab"),
        {**step("line", "h", 3, 0, s="ab"), "locals": {"s": v("ab"), "t": v("abab", truncated=True)}},
        {**step("line", "h", 4, 0), "locals": {"s": v("ab"), "t": v("abab", truncated=True),
                                               "o": {"type": "object", "repr": "<object object at 0x1>", "truncated": False}}},
        {**step("return", "h", 4, 0), "value": v(1)},
    ]}
    qs = build_questions(code, "h", "'ab'", v(1), trace, ALL)
    assert [q for q in qs.questions if q.kind == "variable"] == []


def test_truncated_trace_makes_no_never_ran_claims():
    trace = {"steps": FACT_TRACE["steps"][:5], "truncated": True}
    qs = build_questions(FACT, "fact", "2", v(2), trace, ALL)
    assert {q.line for q in qs.questions[1:]} <= {2, 4}  # only lines seen, none "never ran"
    assert by_key(qs)[("next_line", 2, 1, None)] == "r = n * fact(n - 1)"
    assert ("next_line", 2, 2, None) not in by_key(qs)  # its successor is past the cut
    assert qs.stats["trace_complete"] is False


def test_ast_kinds_not_substrings():
    code = ("def k(items):\n    fmt = 'for {}'.format(items)\n    for i in items:\n"
            "        if i:\n            pass\n        elif not i:\n            fmt += 'if'\n    return fmt\n")
    smap = build_source_map(code)
    assert smap.statements[2].kind == "simple"  # `for` inside `format` is not a loop
    assert smap.statements[3].kind == "for" and smap.statements[4].kind == "if"
    assert smap.statements[6].kind == "if"  # elif
    assert smap.successor(5) == 6 and smap.successor(7) == 8


def test_rejections_are_machine_readable():
    assert build_questions(FACT, "fact", "2", v("x", truncated=True), FACT_TRACE).reason == "result_truncated"
    assert build_questions(FACT, "fact", "2", {"type": "range", "repr": "range(0, 2)"}, FACT_TRACE).reason == "result_not_literal"
    assert build_questions(FACT, "fact", "2", v(2), None).reason == "trace_missing"


def test_selection_is_seeded_and_capped():
    a = build_questions(FACT, "fact", "2", v(2), FACT_TRACE, QuestionConfig(max_next_line=2, max_variable=1), seed=7)
    b = build_questions(FACT, "fact", "2", v(2), FACT_TRACE, QuestionConfig(max_next_line=2, max_variable=1), seed=7)
    assert a.questions == b.questions
    kinds = [q.kind for q in a.questions]
    assert kinds.count("next_line") == 2 and kinds.count("variable") == 1
    assert [q.position for q in a.questions] == [0, 1, 2, 3]
