"""The value uses of the idiom library: every entry writes programs with the structure of
C1 (when it has a call-free use), C3 and C6 that pass the static rules, run on their own
call and tell type-directed inputs apart; and a few uses compute what their names say."""

from __future__ import annotations

import ast
import random

import pytest

import workers.pipeline.builtin.idioms as idioms
from tests.workers.pipeline.builtin.idiom_draws import use_function
from workers.pipeline.builtin.idiom_uses_values import VALUE_USES
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.constraints.levels import with_blueprint
from workers.pipeline.input_synthesis import synthesize_inputs
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()
TRIES = 60


def _outputs(code: str, entry: str, args: str, seed: int) -> list[str]:
    """repr of the entry's result on its own call and on six type-directed inputs."""
    space: dict = {}
    exec(compile(code, "<use>", "exec"), space)  # noqa: S102 - the generator's own program
    calls = [args] + [c.args for c in synthesize_inputs(args, 6, seed=seed)]
    out = []
    for i, call in enumerate(calls):
        try:
            out.append(repr(space[entry](*ast.literal_eval(f"({call},)"))))
        except Exception as exc:  # noqa: BLE001 - only the program's own call must not raise
            assert i > 0, (code, args, exc)
            out.append(type(exc).__name__)
    return out


def _good_draw(key: tuple[str, str], level: str) -> str | None:
    """The first draw at `level` that has the structure, passes the static rules and gives
    two outputs at least (None when TRIES draws find none)."""
    entry = CATALOG.get(*key)
    for i in range(TRIES):
        cell = Constraint(key[0], key[1], level, with_blueprint(LEVELS[level], random.Random(f"v:{i}")))
        made = idioms.build_idiom(entry, cell.knobs, random.Random(f"values:{key}:{level}:{i}"), ("task",))
        if made is None:
            continue
        code, name, args = made
        if not measure_structure(code, name, cell).matches or static_findings(code):
            continue
        if len(set(_outputs(code, name, args, seed=i))) >= 2:
            return code
    return None


@pytest.mark.parametrize("key", list(VALUE_USES), ids=lambda k: f"{k[0]}.{k[1]}")
def test_each_entry_writes_working_programs_at_c1_c3_c6(key: tuple[str, str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "DEPTH0_SHARE", 1.0)  # depth-0 draws every time they may
    uses = VALUE_USES[key]
    deep = any(not u.straight_only for u in uses)  # entries of depth-0 uses only: C1/C2
    levels = (["C3", "C6"] if deep else ["C2"]) + (["C1"] if any(not u.calls for u in uses) else [])
    for level in levels:
        assert _good_draw(key, level) is not None, (key, level)


NAMES = {"xs": "xs", "ys": "ys", "w": "w", "x": "x", "i": "i", "n": "n", "k": "3", "s": "'a'",
         "r": "1.5", "f": "2.5", "lo": "1.0"}


def test_every_use_reads_its_data_and_nests_the_target() -> None:
    for key, uses in VALUE_USES.items():
        assert CATALOG.get(*key) is not None
        assert 1 <= len(uses) <= 4, key
        cell = Constraint(key[0], key[1], "C2", LEVELS["C2"])
        for use in uses:
            assert "{xs}" in use.text or "{w}" in use.text, use.text  # a depth-0 pipeline feeds it
            assert use.names and set(use.kinds) <= {"ints", "words", "prices", "text", "record"}, use.text
            assert "{w}" not in use.text or use.kinds in (("text",), ("record",)), use.text
            code = use_function(use.text, NAMES)
            measured = measure_structure(code, "f", cell)
            assert measured.nested_calls and not static_findings(code), use.text
            assert measured.other_methods == use.calls, use.text  # calls=False: the target alone


STRAIGHT = sorted(k for k in VALUE_USES if all(u.straight_only for u in idioms.USES[k]))  # (other families may add deep uses)


def test_depth0_uses_stay_out_of_loops_and_tests() -> None:
    """An entry whose uses are all straight_only is left to the generic forms at C3-C6 (no
    draw from the generator's stream); one with other uses draws only those there."""
    assert ("tuple", "==") in STRAIGHT and ("set", "==") in STRAIGHT
    for key in STRAIGHT:
        entry = CATALOG.get(*key)
        for level in ("C3", "C4", "C5", "C6"):
            for i in range(6):
                knobs = with_blueprint(LEVELS[level], random.Random(f"deep:{i}"))
                rng = random.Random(f"deep:{key}:{i}")
                before = rng.getstate()
                assert idioms.build_idiom(entry, knobs, rng, ("task",)) is None, (key, level)
                assert rng.getstate() == before, key
    for key in [("float", "!="), ("set", ">")]:  # the same draws as without the depth-0 uses
        deep = tuple(u for u in VALUE_USES[key] if not u.straight_only)
        assert deep and len(deep) < len(VALUE_USES[key]), key
        for i in range(12):
            knobs = with_blueprint(LEVELS["C4"], random.Random(f"deep:{i}"))
            made = idioms.build_idiom(CATALOG.get(*key), knobs, random.Random(f"d:{key}:{i}"), ("task",))
            with pytest.MonkeyPatch.context() as mp:
                mp.setitem(idioms.USES, key, deep)
                assert made == idioms.build_idiom(CATALOG.get(*key), knobs, random.Random(f"d:{key}:{i}"),
                                                  ("task",)), key


RECORD = [k for k, uses in VALUE_USES.items() if any("record" in u.kinds for u in uses)]


def test_the_case_and_digit_predicates_are_written_over_records_at_c3_to_c6() -> None:
    """str isdigit/isdecimal/isnumeric/isupper/islower/istitle had no use (the data's
    lowercase words read alike on every input): over a record ('Order 12 shipped to Maple
    Road', read as a text) their idiom programs pass the structure and the static rules at
    every depth, on data whose words both pass and fail the predicate."""
    assert {m for _, m in RECORD} >= {"isdigit", "isdecimal", "isnumeric", "isupper", "islower", "istitle"}
    for key in RECORD:
        entry = CATALOG.get(*key)
        for level in ("C3", "C4", "C5", "C6"):
            good = 0
            for i in range(8):
                cell = Constraint(key[0], key[1], level, with_blueprint(LEVELS[level], random.Random(f"r:{i}")))
                made = idioms.build_idiom(entry, cell.knobs, random.Random(f"rec:{key}:{level}:{i}"), ("task",))
                if made is None:
                    continue
                code, name, args = made
                record = ast.literal_eval(f"({args},)")[0]
                assert isinstance(record, str) and any(ch.isupper() or ch.isdigit() for ch in record), args
                good += measure_structure(code, name, cell).matches and not static_findings(code)
            assert good >= 3, (key, level)
    rng = random.Random(5)
    words = [w for _ in range(20) for w in ast.literal_eval(idioms._literal(rng, "record")).split()]
    for method in ("isdigit", "isupper", "islower", "istitle"):
        assert 0 < sum(getattr(w, method)() for w in words) < len(words), method


def test_the_same_seed_gives_the_same_value_draws() -> None:
    entry = CATALOG.get("dict", "get")
    knobs = with_blueprint(LEVELS["C5"], random.Random(4))
    first = [idioms.build_idiom(entry, knobs, random.Random(f"same:{i}"), ("task",)) for i in range(10)]
    again = [idioms.build_idiom(entry, knobs, random.Random(f"same:{i}"), ("task",)) for i in range(10)]
    assert first == again and len({d for d in first if d is not None}) >= 8
    for key in STRAIGHT:
        knobs = LEVELS["C2"]
        entry = CATALOG.get(*key)
        first = [idioms.build_idiom(entry, knobs, random.Random(f"same:{i}"), ("task",)) for i in range(40)]
        again = [idioms.build_idiom(entry, knobs, random.Random(f"same:{i}"), ("task",)) for i in range(40)]
        assert first == again and any(first), key


def _value(key: tuple[str, str], index: int, **values: str) -> object:
    """One use with the given literals in its placeholders, evaluated."""
    text = VALUE_USES[key][index].text
    return eval(text.format(**values))  # noqa: S307 - our own template on literals


def test_uses_compute_what_they_are_named_for() -> None:
    # membership in any case: the name as given against the listed words lower-cased
    assert _value(("str", "in"), 1, x="'Apple'", xs="['apple', 'kiwi']") is True
    assert _value(("str", "not in"), 1, x="' Pear'", xs="['pear', 'plum']") is False
    # the position of the best value after the lowest one
    assert _value(("list", "index"), 0, xs="[5, 1, 7, 3, 9, 2]") == 4
    assert _value(("tuple", "index"), 0, xs="[9, 1, 4, 8, 2]") == 3
    # how often the most frequent value occurs
    assert _value(("list", "count"), 0, xs="[3, 1, 3, 2, 3, 1]") == 3
    # a fallback lookup: by first letter, else by last letter, else the word itself
    get = ("dict", "get")
    assert _value(get, 0, xs="['river', 'stone']", x="'sail'") == "stone"
    assert _value(get, 0, xs="['river', 'stone']", x="'toe'") == "stone"
    assert _value(get, 0, xs="['river', 'stone']", x="'ax'") == "ax"
    # values differing from both neighbours, prices other than two marks
    assert _value(("list", "!="), 1, xs="[1, 1, 2, 3, 3]") == [2]
    assert _value(("float", "!="), 0, xs="[1.0, 2.5, 3.0]", lo="1.0", x="3.0") == [2.5]
    # letters first: every letter of the text comes before anything else
    assert _value(("str", "isalpha"), 0, w="'abc, '") is True
    assert _value(("str", "isalpha"), 0, w="'ab c'") is False
    # a number (or a code) at the front or at either end; exactly one number in a record
    assert _value(("str", "isdigit"), 0, w="'12 Maple Road'") is True
    assert _value(("str", "isdigit"), 0, w="'Order 12 shipped'") is False
    assert _value(("str", "isdigit"), 1, w="'Gate Oak 18'") is True
    assert _value(("str", "isdigit"), 2, w="'Order 12 to Oak'") is True
    assert _value(("str", "isdigit"), 2, w="'Order 12 to 7'") is False
    assert _value(("str", "isupper"), 1, w="'Gate Oak UK'") is True
    assert _value(("str", "isupper"), 1, w="'Gate Oak'") is False
    assert _value(("str", "istitle"), 0, w="'shipped to Oak'") is True
    assert _value(("str", "istitle"), 0, w="'shipped to 12'") is False
    # a text with doubled letters
    assert _value(("str", "=="), 0, w="'apple'") is False
    assert _value(("str", "=="), 0, w="'river'") is True


def test_depth0_uses_compute_what_they_are_named_for() -> None:
    # the ends follow the same even/odd pattern (and the pattern changes)
    assert _value(("tuple", "=="), 0, xs="[2, 3, 8, 5]") is True
    assert _value(("tuple", "=="), 0, xs="[2, 3, 5, 8]") is False
    assert _value(("tuple", "=="), 1, xs="[3, 1, 6, 2]") is True
    assert _value(("tuple", "!="), 0, xs="[1, 2, 3, 4]") is False
    assert _value(("tuple", "!="), 0, xs="[1, 2, 4, 3]") is True
    assert _value(("tuple", "!="), 1, xs="[3, 1, 2, 6]") is True
    # more than k prices with cents above the cap; more than k odd dollar amounts
    bool_ = ("float", "bool()")
    assert _value(bool_, 0, xs="[4.5, 6.25, 7.0, 9.75]", x="5.0", k="1") is True
    assert _value(bool_, 0, xs="[4.5, 6.25, 7.0, 9.75]", x="7.0", k="1") is False
    assert _value(bool_, 1, xs="[1.5, 3.25, 4.5, 5.0]", k="1") is True
    assert _value(bool_, 1, xs="[1.5, 2.25, 4.5]", k="1") is False
    assert _value(bool_, 2, xs="[1.2, 2.1, 3.4]") is False and _value(bool_, 2, xs="[1.2, 2.1]") is True
    # the latest even and odd readings both come after the first k
    assert _value(("dict", "=="), 0, xs="[1, 2, 3, 4]", k="2") is True
    assert _value(("dict", "=="), 0, xs="[1, 3, 2, 4]", k="2") is False
    # the even and odd readings fall in the same residues; both alternate slots mixed
    assert _value(("set", "=="), 0, xs="[4, 7, 10, 1]") is True
    assert _value(("set", "=="), 0, xs="[4, 9, 10, 1]") is False
    assert _value(("set", "=="), 2, xs="[1, 2, 4, 3]") is True
    assert _value(("set", "=="), 2, xs="[1, 3, 5, 4]") is False
    # the residues of all readings are more than those of the large ones
    assert _value(("set", ">"), 1, xs="[1, 2, 9]", k="3", n="5") is True
    assert _value(("set", ">"), 1, xs="[9, 12]", k="3", n="5") is False
    assert _value(("set", ">"), 2, xs="['ant', 'bee', 'cow']", x="'bee'") is True
    assert _value(("set", ">"), 2, xs="['cow', 'cat']", x="'bee'") is False
    # prices strictly between the ends' values; steps between unlike neighbours
    assert _value(("float", "!="), 2, xs="[1.5, 2.5, 1.5, 3.0]") == [2.5]
    assert _value(("float", "!="), 3, xs="[1.0, 2.5, 2.5, 4.0]", x="4.0") == [1.5]


@pytest.mark.parametrize("key, index", [(k, i) for k in STRAIGHT + [("float", "!="), ("set", ">")]
                                        for i, u in enumerate(VALUE_USES[k]) if u.straight_only],
                         ids=lambda v: f"{v[0]}.{v[1]}" if isinstance(v, tuple) else str(v))
def test_each_depth0_use_alone_writes_programs_that_tell_inputs_apart(key: tuple[str, str], index: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    use = VALUE_USES[key][index]
    monkeypatch.setattr(idioms, "DEPTH0_SHARE", 1.0)
    monkeypatch.setitem(idioms.USES, key, (use,))
    for level in ["C2"] + (["C1"] if not use.calls else []):
        assert _good_draw(key, level) is not None, (use.text, level)


def test_a_pointer_use_wraps_a_start_past_the_end() -> None:
    """`{i}` is a parameter the pipeline's inputs redraw (44 for a literal 0): the pointer
    walk reads the start modulo the length, as it reads the jump (IndexError before)."""
    from workers.pipeline.builtin.idiom_uses import USES
    text = next(u.text for u in USES[("list", "[i]")] if "{i}" in u.text)
    xs = [5, 2, 7, 1, 8, 3]
    values = [eval(text.format(xs="xs", i=str(i)), {"xs": xs}) for i in (0, 4, 44, 90)]  # noqa: S307
    assert values == [3, 7, 2, 3]
