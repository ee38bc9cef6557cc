"""Session 16's scaffolding rules: an entry takes no parameter it never reads, whole-input tests
carry no emptiness guard the inputs never need, sorted data is taken off its large end while a
test on the data holds, and an index walk's item read once is read in place."""

from __future__ import annotations

import ast
import random
import re

import pytest

from workers.pipeline.builtin import flow, idioms
from workers.pipeline.builtin.idioms import _read_once, build_idiom
from workers.pipeline.builtin.idiom_uses import USES
from workers.pipeline.constraints import load_catalog
from workers.pipeline.inputs import SizeBounds
from workers.pipeline.records import Knobs

from .idiom_draws import blueprint_draws

CATALOG = load_catalog()


def _entry(code: str) -> ast.FunctionDef:
    return [n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)][-1]


@pytest.mark.parametrize("blueprint", [("for", "if"), ("if-elif", "for", "while"), ("while", "if", "for")])
def test_an_entry_reads_every_parameter_it_takes(blueprint: tuple[str, ...]) -> None:
    draws = blueprint_draws(blueprint, 3, None, "s16-params")
    assert len(draws) > 100
    for code, entry, args in draws:
        func = _entry(code)
        read = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        params = [a.arg for a in func.args.args]
        assert all(p in read for p in params), code
        # the call passes one argument per parameter
        assert len(ast.literal_eval(f"({args},)")) == len(params), (code, args)


def test_whole_input_tests_take_no_emptiness_guard() -> None:
    # the inputs a program runs on are never empty: drawn ones hold SizeBounds' minimum or more
    assert SizeBounds().min_len >= 1 and SizeBounds().min_str_len >= 1
    for group, tests in flow._WHOLE.items():
        for text, _ in tests:
            assert not text.startswith("{x} and "), (group, text)
            assert "default=" not in text, (group, text)


def test_sorted_data_is_taken_off_its_large_end_while_its_test_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "PURPOSE_WHILES", 1.0)
    found = 0
    for code, entry, args in blueprint_draws(("while", "if"), 6, ("list", "str"), "s16-pops"):
        # (the names bounded_pops gives the pile; other walks stop when the result is enough)
        m = re.search(r"\b(pile|ranked|rest) = sorted\((.+)\)\n\s+while (.+):\n\s+(\w+) = \1\.pop\(\)\n", code)
        if m is None:
            continue
        pile, test = m.group(1), m.group(3)
        found += 1
        # the test is on what is left of the pile: items past a bound, or a total over a budget
        assert re.search(rf"\b{pile}\b", test), code
        assert re.search(rf"{pile}\[-1\]|sum\(|len\(", test), code
    assert found >= 5


@pytest.mark.parametrize(("lines", "expected"), [
    # read once: the fetch goes and the item is read in place
    (["i = 0", "while i < len(xs):", "    x = xs[i]", "    if x > 4:", "        total += 1", "    i += 1"],
     ["i = 0", "while i < len(xs):", "    if xs[i] > 4:", "        total += 1", "    i += 1"]),
    # read twice: kept
    (["i = 0", "while i < len(xs):", "    x = xs[i]", "    if x > 4:", "        total += x", "    i += 1"], None),
    # rebound: kept
    (["i = 0", "while i < len(xs):", "    x = xs[i]", "    x += 1", "    i += 1"], None),
    # on a line with a string literal the name may stand in the text: kept
    (["i = 0", "while i < len(xs):", "    x = xs[i]", "    out.append(f'{x}')", "    i += 1"], None),
])
def test_an_item_read_once_is_read_in_place(lines: list[str], expected: list[str] | None) -> None:
    body = list(lines)
    _read_once(body, 3, "x")
    assert body == (expected or lines)


def test_draws_with_the_new_loops_keep_the_same_seed_same_program() -> None:
    knobs = Knobs(True, True, False, 3, ("while", "if", "for"))
    for t, method in list(USES)[:40]:
        a = build_idiom(CATALOG.get(t, method), knobs, random.Random(f"s16:{t}:{method}"), ("process_batch",))
        b = build_idiom(CATALOG.get(t, method), knobs, random.Random(f"s16:{t}:{method}"), ("process_batch",))
        assert a == b
