"""bench/target_calls.py's two measures on programs whose answer is known."""

from __future__ import annotations

import ast

from bench.target_calls import GiveBack, outputs
from workers.pipeline.builtin.selfcheck import target_answers


def test_a_call_given_its_receiver_back_changes_the_output_only_where_it_did_work() -> None:
    code = "def f(words):\n    return [w.lower() for w in words]\n"
    without = GiveBack("lower", 0).visit(ast.parse(code))
    assert ast.unparse(without).endswith("[w for w in words]")
    plain, mixed = ["['apple', 'river']"], ["['Apple', 'river']"]
    assert outputs(without, "f", plain) == outputs(ast.parse(code), "f", plain)
    assert outputs(ast.parse(code), "f", mixed) == ["['apple', 'river']"] != outputs(without, "f", mixed)


def test_a_predicates_answers_are_recorded_per_call() -> None:
    code = "def f(words):\n    return [w for w in words if w.isdigit() or w.isupper()]\n"
    assert target_answers(code, "f", "isdigit", [(["apple", "42", "OK"],)]) == {0: {False, True}}
    assert target_answers(code, "f", "isdigit", [(["apple", "OK"],)]) == {0: {False}}
    assert target_answers(code, "f", "isupper", [(["42"],)]) == {}  # (`or` never asked it)
