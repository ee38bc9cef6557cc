"""Typed value encoding: round trips for every built-in type, canonical set order, caps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from sandbox import encode_value, literal_from_typed
from sandbox.encoding import canonical_order

ROUND_TRIP = [
    None, True, False, 0, -7, 2**100, 3.5, -0.0, 1e300, 0.1, complex(1, -2), "", "a'b\"c\n\t\\",
    "ünïcødé ✓", b"", b"\x00\xff'", bytearray(b"xy"), [], [1, [2, [3]]], (), (1,), (1, "a"),
    set(), {3, 1, 2}, frozenset(), frozenset({"b", "a"}), {}, {"k": [1, {2: (3,)}]},
    {(1, 2): frozenset({1})}, {1: None, "1": None}, [float("inf"), -float("inf")],
    {frozenset({1, 2}), frozenset({3})},
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=repr)
def test_round_trip(value):
    typed = encode_value(value)
    assert typed["type"] == type(value).__name__
    assert typed["truncated"] is False
    back = literal_from_typed(typed)
    assert type(back) is type(value)
    assert back == value
    assert encode_value(back)["repr"] == typed["repr"]


def test_nan_round_trips_as_nan():
    typed = encode_value([math.nan, {math.nan}])
    assert typed["repr"] == "[nan, {nan}]"
    back = literal_from_typed(typed)
    assert math.isnan(back[0]) and math.isnan(next(iter(back[1])))
    assert "json" not in typed


def test_json_form_only_when_exact():
    assert encode_value([1, "a", None, 2.5, {"k": True}])["json"] == [1, "a", None, 2.5, {"k": True}]
    for value in [(1,), {1, 2}, {1: 2}, b"x", 2**70, math.inf]:
        assert "json" not in encode_value(value), value


def test_sets_are_canonically_ordered_whatever_the_insertion_order():
    a, b = set(), set()
    for item in ["pear", "apple", "fig", 10, 9, -1.5, (2, "x"), (1, "y"), None]:
        a.add(item)
    for item in reversed([None, (1, "y"), (2, "x"), -1.5, 9, 10, "fig", "apple", "pear"]):
        b.add(item)
    assert encode_value(a)["repr"] == encode_value(b)["repr"] == \
        "{-1.5, 9, 10, 'apple', 'fig', 'pear', None, (1, 'y'), (2, 'x')}"
    assert canonical_order({3, 1, 2}) == [1, 2, 3]


def test_dicts_keep_insertion_order():
    assert encode_value({"b": 1, "a": 2})["repr"] == "{'b': 1, 'a': 2}"


def test_cap_marks_truncated_and_refuses_literal():
    typed = encode_value(list(range(10_000)), max_chars=50)
    assert typed["truncated"] is True and len(typed["repr"]) == 50 and "json" not in typed
    with pytest.raises(ValueError, match="truncated"):
        literal_from_typed(typed)
    assert encode_value("x" * 10**7, max_chars=20)["truncated"] is True


def test_huge_int_and_cycles_and_depth_do_not_blow_up():
    assert encode_value(10**5000)["truncated"] is True
    loop = [1]
    loop.append(loop)
    assert encode_value(loop)["repr"] == "[1, [...]]"
    # the text reads back as `[1, [Ellipsis]]`, another value: never taken as the value
    assert encode_value(loop)["truncated"] is True
    shared = [1]
    assert encode_value([shared, shared])["truncated"] is False  # shared, not cyclic
    cyclic = {"a": 1}
    cyclic["b"] = cyclic
    assert encode_value(cyclic) == {"type": "dict", "repr": "{'a': 1, 'b': {...}}", "truncated": True}
    deep = []
    for _ in range(500):
        deep = [deep]
    assert encode_value(deep)["truncated"] is True


def test_other_objects_lose_their_addresses_and_are_not_literals():
    class Thing:
        pass

    typed = encode_value(Thing())
    assert typed["type"] == "Thing" and " at 0x" not in typed["repr"]
    assert encode_value(range(3)) == {"type": "range", "repr": "range(0, 3)", "truncated": False}
    for typed in (encode_value(Thing()), encode_value(range(3)), encode_value(iter([]))):
        with pytest.raises(ValueError):
            literal_from_typed(typed)


@pytest.mark.parametrize("text", ["__import__('os').system('x')", "f(1)", "a.b", "[x for x in y]",
                                  "{**a}", "open('x')", "frozenset(open('x'))"])
def test_literal_reader_never_evaluates(text):
    with pytest.raises(ValueError):
        literal_from_typed({"type": "str", "repr": text, "truncated": False})


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                    st.binary(max_size=8), st.floats(allow_nan=False))
hashables = st.recursive(scalars, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3), max_leaves=6)
values = st.recursive(
    hashables,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hashables, inner, max_size=3)
    | st.sets(hashables, max_size=4) | st.tuples(inner),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(values)
def test_round_trip_property(value):
    typed = encode_value(value)
    back = literal_from_typed(typed)
    assert encode_value(back)["repr"] == typed["repr"]
    assert back == value and type(back) is type(value)


def test_an_object_whose_repr_reads_as_a_literal_says_what_it_is():
    import collections
    import fractions

    class Name(str):
        pass

    class Liar:
        def __repr__(self):
            return "  [1, 2]"

    assert encode_value(Name("ab"))["repr"] == "<Name: 'ab'>"
    assert encode_value([Liar()])["repr"] == "[<Liar:   [1, 2]>]"
    assert encode_value(Liar())["repr"] == "<Liar:   [1, 2]>"

    class Folded:  # the parser folds MATHEMATICAL BOLD SMALL E into "e": `set({1, 2})`
        def __repr__(self):
            return "s\U0001d41et({1, 2})"

    assert encode_value([Folded()])["repr"] == "[<Folded: s\U0001d41et({1, 2})>]"
    # honest reprs of other types (a call, or text in angle brackets) stay as they are
    assert encode_value(collections.Counter("aab"))["repr"] == "Counter({'a': 2, 'b': 1})"
    assert encode_value(collections.deque([1]))["repr"] == "deque([1])"
    assert encode_value(fractions.Fraction(1, 3))["repr"] == "Fraction(1, 3)"
    assert encode_value(range(3))["repr"] == "range(0, 3)"
    assert encode_value(object())["repr"] == "<object object>"
