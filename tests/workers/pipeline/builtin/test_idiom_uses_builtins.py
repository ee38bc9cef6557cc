"""The idiom uses of the five iterator builtins (enumerate, zip, filter, range, reversed):
enough of them over every data kind that one level's programs rarely share a use, each
nesting its target, calling other things only when it says so, passing the static rules,
running on any input of its kinds (empty and one-item lists too: a walk hands a use the few
items left, a work list may be empty) with outputs that follow the input; and a few compute
what their names say."""

from __future__ import annotations

import math
import random
import re
import string

import pytest

import workers.pipeline.builtin.idioms as idioms
from tests.workers.pipeline.builtin.idiom_draws import use_function
from workers.pipeline.builtin.idiom_uses import USES
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.constraints.levels import with_blueprint
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()
KEYS = [(b, b) for b in ("enumerate", "zip", "filter", "range", "reversed")]
NAMES = {"xs": "xs", "ys": "ys", "w": "w", "x": "x", "i": "i", "n": "n", "k": "3", "s": "'a'",
         "r": "1.5", "f": "2.5", "lo": "1.0"}


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 9)))


def _values(kind: str, rng: random.Random) -> dict[str, str]:
    """Placeholder values for one call: data of `kind` of 0..10 items, the current element
    (an item, a digit or a letter), an index, a limit and the drawn literals."""
    size = rng.choice((0, 1, 2, 3, rng.randint(4, 10), rng.randint(4, 10)))
    if kind == "ints":
        xs: object = [rng.randint(0, 70) for _ in range(size)]
        x: object = rng.choice((rng.randint(0, 70), rng.randint(0, 9)))
    elif kind == "prices":
        xs = [round(rng.uniform(0, 40), rng.choice((1, 2))) for _ in range(size)]
        x = rng.choice((round(rng.uniform(0, 30), 2), rng.randint(0, 9)))
    elif kind == "words":
        xs = [_word(rng) for _ in range(size)]
        x = rng.choice((_word(rng), rng.choice(string.ascii_lowercase)))
    else:
        xs = "".join(rng.choice(string.ascii_lowercase + " ,." * 3) for _ in range(size * 2))
        x = _word(rng)
    w = xs if kind == "text" and rng.random() < 0.7 else rng.choice(("", _word(rng), " " + _word(rng)))
    return {"xs": repr(xs), "ys": repr([_word(rng) for _ in range(rng.randint(5, 10))]), "w": repr(w),
            "x": repr(x), "i": str(rng.randint(0, 12)), "n": str(rng.randint(0, 62)),
            "k": str(rng.choice((2, 3, 4, 5))), "s": repr(rng.choice(("a", "e", "o", ",", " "))),
            "r": rng.choice(("1.08", "0.2", "1.5", "0.85")), "f": "2.5", "lo": rng.choice(("1.0", "2.5", "0.5"))}


def test_each_builtin_has_uses_over_every_kind_and_result_type() -> None:
    for key in KEYS:
        uses = USES[key]
        assert len(uses) >= (9 if key[0] == "range" else 15), key
        kinds = {k for u in uses for k in u.kinds}
        assert kinds == {"ints", "words", "prices", "text"}, (key, kinds)
        assert len({u.rtype for u in uses}) >= 4, key
        if key[0] != "range":  # C1 (nothing but the target) has uses to draw
            assert sum(not u.calls for u in uses) >= 4, key
        shapes = [re.sub(r"\{\w+\}", "V", u.text) for u in uses]
        assert len(set(shapes)) == len(shapes), key


@pytest.mark.parametrize("key", KEYS, ids=lambda k: k[0])
def test_every_use_nests_the_target_and_calls_what_it_says(key: tuple[str, str]) -> None:
    cell = Constraint(key[0], key[1], "C2", LEVELS["C2"])
    for use in USES[key]:
        assert use.names and set(use.kinds) <= {"ints", "words", "prices", "text"}, use.text
        assert "{xs}" in use.text or "{w}" in use.text or "{x}" in use.text, use.text
        assert not re.search(r"(?<!\{)\{w\}", use.text) or use.kinds == ("text",), use.text
        code = use_function(use.text, NAMES)
        measured = measure_structure(code, "f", cell)
        assert measured.nested_calls and not static_findings(code), use.text
        assert measured.other_methods == use.calls, use.text


@pytest.mark.parametrize("key", KEYS, ids=lambda k: k[0])
def test_every_use_runs_on_any_input_of_its_kinds_and_follows_it(key: tuple[str, str]) -> None:
    few = {"bool": 2, "int": 4, "float": 5}
    for use in USES[key]:
        for kind in use.kinds:
            rng = random.Random(f"{use.text}:{kind}")
            outputs = set()
            for _ in range(200):
                values = _values(kind, rng)
                try:
                    result = eval(use.text.format(**values), {"math": math})  # noqa: S307 - our own template on literals
                except Exception as exc:  # noqa: BLE001 - the assertion names the input
                    raise AssertionError((use.text, values, exc)) from exc
                assert not hasattr(result, "__next__"), use.text  # a value, not a lazy iterator
                outputs.add(repr(result))
            assert len(outputs) >= few.get(use.rtype, 8), (use.text, kind, len(outputs))


def _value(key: tuple[str, str], name: str, **values: str) -> object:
    """The use named `name` (its first task name) with the given literals, evaluated."""
    use = next(u for u in USES[key] if u.names[0] == name)
    return eval(use.text.format(**{**NAMES, **values}), {"math": math})  # noqa: S307 - our own template on literals


def test_uses_compute_what_they_are_named_for() -> None:
    e, z, f, r, rv = KEYS
    # each position's rank, best first; the first item sorting moves; hits numbered from 1
    assert _value(e, "rank_slots", xs="[5, 9, 1]") == {1: 1, 0: 2, 2: 3}
    assert _value(e, "first_misplaced", xs="[1, 2, 5, 3]") == 3  # 3 belongs before 5
    assert _value(e, "number_hits", xs="[4, 9, 2, 8]", n="5") == {1: 1, 3: 2}
    assert _value(e, "odd_before_each", xs="[1, 2, 3, 5, 4]") == [1, 3]
    # steps of the steps; the next two words of each word; the name of the biggest rise
    assert _value(z, "second_differences", xs="[1, 4, 9, 16]") == [2, 2]
    assert _value(z, "next_words", w="'a b c d'") == {"a": ("b", "c"), "b": ("c", "d")}
    assert _value(z, "biggest_gainer", xs="[3, 1, 8, 9]", ys="['ann', 'bo', 'cy']") == "bo"
    assert _value(z, "column_totals", xs="[1, 2, 3, 4, 5]") == [4, 6]
    # two-stage filters
    assert _value(f, "first_big_multiple", xs="[3, 6, 12, 15]", n="7", k="3") == 12
    assert _value(f, "first_big_multiple", xs="[]", n="7", k="3") == -1
    assert _value(f, "even_slots_above", xs="[9, 9, 1, 9, 8]", n="5") == [0, 4]
    assert _value(f, "drop_short_words", w="'an ox ran far'", s="'a'") == "ran far"
    # index walks from a found position
    assert _value(r, "before_lowest", xs="[4, 6, 1, 7]") == [4, 6]
    assert _value(r, "after_first_mark", w="'red fox runs'", s="' '") == "fox runs"
    assert _value(r, "after_first_mark", w="'red fox'", s="','") == "red fox"
    assert _value(r, "back_from_longest", xs="['ab', 'abcd', 'c']") == "abcd ab"
    # order of fields and of their words reversed; the last k matches in their order
    assert _value(rv, "flip_fields", w="'a b,c d'") == "d c, b a"
    assert _value(rv, "recent_excess", xs="[9, 2, 8, 7, 1]", n="5", k="2") == (3, 2)
    assert _value(rv, "recent_long_words", xs="['tiger', 'ox', 'stone', 'apple']", k="2") == "stone apple"
    # the attribute-bearing tasks: a numbered menu, repeats with their counts, shared factors,
    # a tidied title, a product of multiples, a license-key layout, the last words titled
    assert _value(e, "numbered_menu", xs="['ann', 'bob', 'cy']", i="1", s="'c'") == "1. Ann"
    assert _value(e, "repeat_report", xs="[3, 1, 3, 2, 1, 3]") == [(1, 1, 2), (2, 3, 3)]
    assert _value(z, "shared_factors", xs="[4, 6, 9, 12]") == [2, 3]
    assert _value(f, "title_words", w="'red  fox,42 runs'") == "Red Fox Runs"
    assert _value(f, "product_of_multiples", xs="[3, 4, 6, 0, 9]", k="3") == 162
    assert _value(r, "format_key", w="'  ab,cdefg'", k="3") == "AB,-CDE-FG"
    assert _value(rv, "last_words_titled", w="'one, two three.'", k="2") == "Two Three"


def _good_draw(key: tuple[str, str], level: str) -> bool:
    """Some draw at `level` has the structure and passes the static rules."""
    entry = CATALOG.get(*key)
    for i in range(40):
        cell = Constraint(key[0], key[1], level, with_blueprint(LEVELS[level], random.Random(f"b:{i}")))
        made = idioms.build_idiom(entry, cell.knobs, random.Random(f"builtins:{key}:{level}:{i}"), ("task",))
        if made and measure_structure(made[0], made[1], cell).matches and not static_findings(made[0]):
            return True
    return False


@pytest.mark.parametrize("key", KEYS, ids=lambda k: k[0])
def test_each_builtin_writes_programs_at_c1_c3_c6(key: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "DEPTH0_SHARE", 1.0)  # depth-0 draws every time they may
    levels = ["C3", "C6"] + (["C1"] if any(not u.calls for u in USES[key]) else [])
    for level in levels:
        assert _good_draw(key, level), (key, level)
