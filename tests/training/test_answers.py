"""The one answer parser/grader: literals, types, blocks, assertions, per-kind grading."""

from __future__ import annotations

import pytest

from training import make
from training.answers import (
    extract_assertion_value, find_answer_block, grade_output, parse_assertion, parse_block,
)
from training.kinds import GradeContext, code_key, grade_question
from training.prompts import ordinal
from training.values import FloatTolerance, NotALiteral, canonical_type, parse_literal, values_equal

CTX = GradeContext("f")


@pytest.mark.parametrize("pred, gold, equal", [
    (1, 1, True), (1, 1.0, False), (True, 1, False), (0.1 + 0.2, 0.3, False),
    ({3, 1, 2}, {1, 2, 3}, True), ({1, 2}, {1, 3}, False), ({1.0000000001}, {1.0}, False),
    ({"a": [1, 2]}, {"a": [1, 2]}, True), ({1: "a"}, {True: "a"}, False),
    ((1, [2.0]), (1, [2.0000000001]), False), ([1, 2], (1, 2), False), ("a;b", "a;b", True),
    (1234568.0, 1234567.0, False), (0.0, 1e-10, False), (-5e-10, 5e-10, False),
    ({1, 2.0}, {1.0, 2}, False), ({"k": {1.5}}, {"k": {1.5}}, True), (1e999, 1e999, True),
])
def test_values_equal_is_pythons_eq_with_exact_types(pred, gold, equal):
    assert values_equal(pred, gold) is equal
    assert (pred == gold) or not equal  # never looser than Python's ==


@pytest.mark.parametrize("pred, gold, equal", [
    (0.1 + 0.2, 0.3, True), (1234567.5, 1234567.0, True), (1.0 + 1e-3, 1.0, False),
    ({1.0000000001}, {1.0}, True), ((1, [2.0]), (1, [2.0000000001]), True), (1, 1.0, False),
])
def test_a_float_tolerance_is_explicit(pred, gold, equal):
    assert values_equal(pred, gold, FloatTolerance()) is equal


def test_float_tolerance_options():
    assert FloatTolerance.from_option(None) is None and FloatTolerance.from_option(False) is None
    assert FloatTolerance.from_option(True) == FloatTolerance()
    assert FloatTolerance.from_option(1e-3) == FloatTolerance(rel=1e-3, abs=0.0)
    assert FloatTolerance.from_option({"abs": 0.5}) == FloatTolerance(abs=0.5)
    for bad in ("yes", {"tol": 1}, -1.0, {"rel": float("nan")}):
        with pytest.raises(ValueError):
            FloatTolerance.from_option(bad)


def test_parse_literal_never_executes_and_bounds_size():
    assert parse_literal(" [1, 'a;b', {2}] ") == [1, "a;b", {2}]
    assert parse_literal("set()") == set()
    for bad in ("__import__('os')", "f(1)", "lambda: 1", "[x for x in y]", "", "1 +"):
        with pytest.raises(NotALiteral):
            parse_literal(bad)
    with pytest.raises(NotALiteral):
        parse_literal("[" * 200_000)


@pytest.mark.parametrize("written, canonical", [
    ("int", "int"), ("Integer", "int"), ("<class 'str'>", "str"), ("List[int]", "list"),
    ("dict[str, int]", "dict"), ("NoneType", "NoneType"), ("None", "NoneType"), (" `set` ", "set"),
    ("boolean", "bool"), ("builtins.tuple", "tuple"),
])
def test_canonical_type_names(written, canonical):
    assert canonical_type(written) == canonical


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_find_answer_block_takes_the_last_block():
    text = "<answer>old</answer> thinking <ANSWER>\nnew\n</answer>"
    assert find_answer_block(text).strip() == "new"
    assert find_answer_block("no block") is None
    assert find_answer_block("<answer>\nunclosed").strip() == "unclosed"


def test_tags_block_numbered_with_missing_and_multiline_values():
    block = """
    assert f([1,
              2]) == [3]
    1. for x in xs:
    3. [1,
        2]; list
    4. 'a;b\\nc'; str
    """
    parsed = parse_block(block, 5)
    assert parsed.valid
    assert parsed.assertion == "assert f([1,\n2]) == [3]"
    assert parsed.answers == {1: "for x in xs:", 3: "[1,\n2]; list", 4: "'a;b\\nc'; str"}


@pytest.mark.parametrize("block, problem", [
    ("assert f(1) == 2\nassert f(1) == 3\n1. x", "more than one assertion"),
    ("assert f(1) == 2\n1. a\n1. b", "unexpected answer number 1"),
    ("assert f(1) == 2\n1. a\n7. b", "unexpected answer number 7"),
    ("assert f(1) == 2\n1. a\ndef f(x): return 2", "line is not an answer"),
    ("assert f(1) == 2\n2. a\n1. b", "unexpected answer number 1"),
])
def test_tags_block_rejects_injected_lines(block, problem):
    parsed = parse_block(block, 2)
    assert not parsed.valid and problem in parsed.problem


def test_unnumbered_answers_accepted_only_when_count_matches():
    assert parse_block("assert f(1) == 2\nx = 1\n-1", 2).answers == {1: "x = 1", 2: "-1"}
    assert not parse_block("assert f(1) == 2\nx = 1", 2).valid


def test_json_block():
    parsed = parse_block('{"assertion": "assert f(1) == 2", "answers": {"1": "-1", "2": "[1]; list"}}', 2, "json")
    assert parsed.valid and parsed.assertion == "assert f(1) == 2" and parsed.answers == {1: "-1", 2: "[1]; list"}
    assert not parse_block('{"assertion": "x", "answers": {"3": "-1"}}', 2, "json").valid
    assert not parse_block("not json", 2, "json").valid


def test_parse_assertion_reads_literals_only():
    a = parse_assertion("assert f([1, 2], k=3) == {'a': 1}", "f")
    assert a.value_ok and a.value == {"a": 1} and a.args == ([1, 2],) and a.kwargs == {"k": 3}
    assert a.args_text() == "[1, 2], k=3"
    assert parse_assertion("assert {'a': 1} == f(0)", "f").value == {"a": 1}
    assert parse_assertion("assert f(x) == f(x)", "f") is None
    assert parse_assertion("assert True or f(1) == 2", "f") is None
    assert parse_assertion("assert g(1) == 2", "f") is None
    assert parse_assertion("assert f(1) == 2, 'msg'", "f") is None
    assert parse_assertion("assert f(1) == 2; import os", "f") is None
    assert not parse_assertion("assert f(1) == g()", "f").value_ok
    assert parse_assertion("assert f(__import__('os')) == 1", "f").args is None
    assert parse_assertion("assert f(*[1]) == 1", "f").args is None


def test_extract_assertion_value_and_grade_output():
    text = "I think assert f(1) == 2 first... <answer>\nassert f(1) == [3, 4]\n</answer>"
    assert extract_assertion_value(text, "f") == (True, [3, 4])
    assert extract_assertion_value("so\n```\nassert f(1) == 'x'\n```\nfinally assert f(1) == 'y'", "f") == (True, "y")
    assert extract_assertion_value("<answer>assert f(1) == 1\nassert f(1) == 2</answer>", "f") == (False, None)
    assert grade_output("[3, 4]", {"type": "list", "repr": "[3, 4]"})
    assert grade_output(" ( 1 ,2 ) ", "(1, 2)")
    assert not grade_output("[3, 4]", {"type": "tuple", "repr": "(3, 4)"})
    assert grade_output(text, {"type": "list", "repr": "[3, 4]"}, entry_point="f")
    assert not grade_output("something with 1 in it", "1")  # no substring matching
    with pytest.raises(NotALiteral):
        grade_output("1", {"type": "str", "repr": "'ab", "truncated": True})


def test_code_key_is_whitespace_tolerant_but_not_token_blind():
    assert code_key("total+=  x") == code_key("total += x")
    assert code_key("for x in xs :") == code_key("for x in xs:") == code_key("for x in xs")
    assert code_key("return a") != code_key("returna")
    assert code_key("s = 'a  b'") != code_key("s = 'a b'")


def test_kind_grading():
    nxt = make.next_line_question(1, 3, "for x in xs:", 1, 4, "total += x")
    assert grade_question("total+=x", nxt, CTX) and grade_question("`total += x`", nxt, CTX)
    assert grade_question("4 | total += x", nxt, CTX) and not grade_question("5 | total += x", nxt, CTX)
    assert not grade_question("-1", nxt, CTX) and not grade_question(None, nxt, CTX)
    leaves = make.next_line_question(2, 6, "return x", 1, -1, None)
    assert grade_question(" -1 ", leaves, CTX) and not grade_question("return x", leaves, CTX)
    var = make.variable_question(3, 4, "s = x", 1, "s", {"type": "str", "repr": "'a;b'"})
    assert grade_question("'a;b'; str", var, CTX) and grade_question('"a;b" ;String', var, CTX)
    assert not grade_question("'a;b'", var, CTX) and not grade_question("'a;b'; int", var, CTX)
    assert not grade_question("Nil", var, CTX)
    nil = make.variable_question(4, 9, "y = 1", 1, "y", None)
    assert grade_question("nil", nil, CTX) and not grade_question("1; int", nil, CTX)
    cov = make.coverage_question(5, 9, "y = 1", False)
    assert grade_question("No", cov, CTX) and not grade_question("yes", cov, CTX)
    io = make.io_question("f", "[1, 2], 3", {"type": "list", "repr": "[3]"})
    assert grade_question("assert f([1,2],3)==[3]", io, CTX)
    assert not grade_question("assert f([1, 2], 4) == [3]", io, CTX)  # answers another call
    assert not grade_question("assert f([1, 2], 3) == (3,)", io, CTX)
