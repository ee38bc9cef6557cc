"""Input synthesis: valid literals, distinct values, the same types and shapes as the known
call; mutation prompts carry the sampled reference values."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.pipeline.arg_mutation import build_mutation_messages, parse_mutation, sample_reference_values
from workers.pipeline.inputs import (
    InputCandidate, UnsupportedArguments, canonical_key, distinct_inputs, format_args, parse_literal_args,
)
from workers.pipeline.input_synthesis import synthesize_inputs


def _shape(value):
    """Type skeleton: containers by type and element types (empty -> type only)."""
    if isinstance(value, (list, set, frozenset)):
        return (type(value).__name__, frozenset(_shape(v) for v in value))
    if isinstance(value, tuple):
        return ("tuple", tuple(_shape(v) for v in value))
    if isinstance(value, dict):
        return ("dict", frozenset((_shape(k), _shape(v)) for k, v in value.items()))
    return type(value).__name__


def _element_types_within(new, old) -> bool:
    """Every element type of `new` occurs in `old` (containers may change length)."""
    if isinstance(old, (list, set, frozenset)):
        old_shapes = {_shape(v) for v in old}
        return type(new) is type(old) and all(_shape(v) in old_shapes or any(_element_types_within(v, o) for o in old) for v in new)
    if isinstance(old, dict):
        return type(new) is dict and all(
            any(_element_types_within(k, ok) and _element_types_within(v, ov) for ok, ov in old.items()) for k, v in new.items()
        )
    if isinstance(old, tuple):
        if len(old) >= 3 and len({type(v) for v in old}) == 1:  # may be a sequence: any length
            return type(new) is tuple and all(_element_types_within(v, old[0]) for v in new)
        return type(new) is tuple and len(new) == len(old) and all(_element_types_within(a, b) for a, b in zip(new, old))
    return type(new) is type(old)


EXAMPLES = [
    "[3, 1, 2]",
    "'hello world', 2",
    "{'a': 1, 'b': 2}, 'a'",
    "(1, 'x', 2.5), [True, False]",
    "(4, 8, 15, 16), 'k'",
    "{1, 2, 3}, {2, 3, 4}",
    "[[1, 2], [3]], 0",
    "'a,b,c', ','",
    "-5, 3.0, None",
]


@pytest.mark.parametrize("args", EXAMPLES)
def test_synthesized_inputs_are_distinct_literals_of_the_same_types(args: str) -> None:
    original = parse_literal_args(args)
    produced = synthesize_inputs(args, count=3, seed=7)
    assert len(produced) == 3
    keys = {canonical_key(c.args) for c in produced}
    assert len(keys) == 3 and canonical_key(args) not in keys
    for cand in produced:
        assert cand.origin == "synthesized"
        values = parse_literal_args(cand.args)  # a valid literal argument list
        assert len(values) == len(original)
        for new, old in zip(values, original):
            assert _element_types_within(new, old), (cand.args, args)


def test_record_tuples_keep_their_arity_and_tuples_of_one_type_also_vary_in_length() -> None:
    records = {len(parse_literal_args(c.args)[0]) for c in synthesize_inputs("(1, 'x', 2.5)", count=12, seed=3)}
    pairs = {len(parse_literal_args(c.args)[0]) for c in synthesize_inputs("(3, 4)", count=12, seed=3)}
    sequences = [len(parse_literal_args(c.args)[0]) for c in synthesize_inputs("(4, 8, 15, 16)", count=12, seed=3)]
    assert records == {3} and pairs == {2}
    assert 4 in sequences and len(set(sequences)) >= 3  # len() of such an input is not a constant


def test_synthesis_is_deterministic_in_the_seed() -> None:
    assert synthesize_inputs("[1, 2, 3], 'abc'", 3, seed=1) == synthesize_inputs("[1, 2, 3], 'abc'", 3, seed=1)
    assert synthesize_inputs("[1, 2, 3], 'abc'", 3, seed=1) != synthesize_inputs("[1, 2, 3], 'abc'", 3, seed=2)


@pytest.mark.parametrize("args", ["x", "len([1])", "a=1", "[1, 2"])
def test_non_literal_arguments_are_refused(args: str) -> None:
    with pytest.raises(UnsupportedArguments):
        synthesize_inputs(args, 2, seed=0)


def test_distinct_inputs_drops_respellings_and_keeps_priority_order() -> None:
    cands = [
        InputCandidate("[1, 2], 'a'", "teacher"),
        InputCandidate("[1,2],'a'", "llm_mutation"),
        InputCandidate("[2, 1], 'a'", "synthesized"),
        InputCandidate("[1, 2], \"a\"", "synthesized"),
        InputCandidate("[3], 'b'", "synthesized"),
    ]
    kept = distinct_inputs(cands, 3)
    assert [c.args for c in kept] == ["[1, 2], 'a'", "[2, 1], 'a'", "[3], 'b'"]
    assert canonical_key("1") != canonical_key("True")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(-100, 100), st.text(max_size=5), st.booleans(), st.none()), min_size=1, max_size=3))
def test_format_args_round_trips(values: list) -> None:
    assert parse_literal_args(format_args(tuple(values))) == tuple(values)


def test_reference_values_follow_the_reference_recipe() -> None:
    refs = sample_reference_values(seed=3, key="slot:1")
    assert 5 <= refs.length <= 15
    assert len(refs.integers) == refs.length and all(5 <= i <= 20 for i in refs.integers)
    assert len(refs.strings) == refs.length
    for s in refs.strings:
        repeated = len(set(s)) == 1 and 5 <= len(s) <= 15
        assert repeated or 5 <= len(s) <= 10
    assert sample_reference_values(3, "slot:1") == refs
    assert sample_reference_values(3, "slot:2") != refs


def test_mutation_prompt_carries_the_reference_values_and_rules() -> None:
    refs = sample_reference_values(seed=1, key="slot:0")
    messages = build_mutation_messages("def f(xs):\n    return sorted(xs)\n", "f", "[3, 1]", refs)
    user = messages[-1]["content"]
    assert messages[0] == {"role": "system", "content": "You are a code generator."}
    assert f"length L = {refs.length}" in user
    assert str(list(refs.integers)) in user and str(list(refs.strings)) in user
    assert "print(f([3, 1]))" in user
    assert "longer than 5" in user and "no comments" in user


def test_parse_mutation_takes_only_the_entry_call_arguments() -> None:
    text = "Sure:\n```python\ndef f(xs):\n    return sorted(xs)\n\nprint(f([9, 8, 7, 6, 5, 4]))\n```"
    assert parse_mutation(text, "f") == "[9, 8, 7, 6, 5, 4]"
    assert parse_mutation(text, "g") is None
    assert parse_mutation("no code here", "f") is None


def test_some_synthesized_inputs_are_neighbours_of_the_call_that_relate_its_arguments() -> None:
    """Fresh draws of two sets are almost never equal or nested; the neighbours of the call
    make both happen, and edit one argument by one item."""
    first, second = {1, 4, 7, 8, 9}, {1, 4, 7, 8, 9, 12}
    pairs = [parse_literal_args(c.args) for c in synthesize_inputs(f"{first}, {second}", count=40, seed=5)]
    assert any(a == b for a, b in pairs)
    assert any(a < b or b < a for a, b in pairs)
    assert any(len(a ^ first) + len(b ^ second) == 1 for a, b in pairs)


def test_a_neighbour_of_a_short_call_is_grown_to_the_reference_lengths_first() -> None:
    """`{3, 4}` keeps its items and gains drawn ones: at least 5, as every synthesized set."""
    sets = [parse_literal_args(c.args)[0] for c in synthesize_inputs("{3, 4}", count=20, seed=2)]
    assert all(len(s) >= 5 for s in sets)
    assert any({3, 4} <= s for s in sets)


@pytest.mark.parametrize("program, call", [
    (lambda seen, allowed: seen <= allowed, "{3, 5}, {1, 2, 8}"),
    (lambda a, b: a == b, "[1, 2, 3], [1, 2, 4]"),
    (lambda words, w: w in words, "['apple', 'pear', 'fig'], 'kiwi'"),
    (lambda text, sub: text.find(sub) >= 0, "'hello world', 'xyz'"),
    (lambda counts, k: k in counts, "{'a': 1, 'b': 2}, 'z'"),
])
def test_a_program_relating_its_arguments_sees_both_answers(program, call) -> None:
    """Over 8 synthesized inputs (the gate's count) the answer is True for some and False
    for others, for most seeds; fresh draws alone gave one answer for every seed."""
    varied = [seed for seed in range(10)
              if len({program(*parse_literal_args(c.args)) for c in synthesize_inputs(call, 8, seed)}) == 2]
    assert len(varied) >= 5, varied
