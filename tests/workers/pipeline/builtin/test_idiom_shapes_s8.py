"""Idiom loop shapes of session 8: loops that wear the current element down, texts parsed
off their front with partition, list walks over ranked / keyed / partial items, walks that
stop at a later test (break), and number results folded as checksums or hashes."""

from __future__ import annotations

import ast
import random
import re

import pytest

from workers.pipeline.builtin import idioms
from workers.pipeline.input_synthesis import synthesize_inputs

from .idiom_draws import blueprint_draws


def _draws(blueprint: tuple[str, ...], per_entry: int = 3, kinds: tuple[str, ...] | None = None) -> list[tuple[str, str, str]]:
    return blueprint_draws(blueprint, per_entry, kinds, "s8")


def _run(code: str, entry: str, args: str) -> str:
    space: dict = {}
    exec(compile(code, "<idiom>", "exec"), space)  # noqa: S102 - our own draw
    try:
        return repr(space[entry](*ast.literal_eval(f"({args},)")))
    except Exception as exc:  # noqa: BLE001 - a drawn input the program does not take
        return f"error: {type(exc).__name__}"


def _loop_steps(code: str) -> list[tuple[str, str]]:
    """(while test, last line of its body) of each while loop on a single name's value."""
    tree = ast.parse(code)
    return [(ast.unparse(node.test), ast.unparse(node.body[-1])) for node in ast.walk(tree)
            if isinstance(node, ast.While)]


def test_loops_that_wear_the_element_down_end_and_change_what_they_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "SHRINK_WHILES", 1.0)
    seen: set[str] = set()
    for code, entry, args in _draws(("for", "while", "if"), 2):
        for test, step in _loop_steps(code):
            m = re.fullmatch(r"(\w+) (//=|/=|-=) .+|(\w+) = (sum\(map\(int, str\(\w+\)\)\)|round\(.+\)|\w+\[1:\]|\w+\[:-1\]|\w+\.replace\(.+, 1\))", step)
            if not m:
                continue
            name = m[1] or m[3]
            if not re.search(rf"\b{name}\b", test):
                continue
            seen.add(re.sub(r"\w+", "N", step.split("=", 1)[1].strip()) if "=" in step else step)
            # the loop ends on the program's own input and on drawn ones (no timeout, no error)
            for cand in [args] + [c.args for c in synthesize_inputs(args, 3, seed=len(code))]:
                assert not _run(code, entry, cand).startswith("error: Recursion"), code
    assert len(seen) >= 5, seen


def test_a_text_is_parsed_word_by_word_off_its_front(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "PURPOSE_WHILES", 1.0)
    parsed = 0
    for code, entry, args in _draws(("while", "if"), 4, kinds=("str",)):
        m = re.search(r"(\w+), _, (\w+) = \2\.partition\((.+)\)", code)
        if not m:
            continue
        parsed += 1
        word, rest, sep = m[1], m[2], ast.literal_eval(m[3])
        assert f"while {rest}:" in code, code
        assert sep in ast.literal_eval(f"({args},)")[0] or sep == " ", (sep, args)
        assert not _run(code, entry, args).startswith("error"), code
        assert re.search(rf"\b{word}\b", code.split(m[0])[1]), code  # the word is read in the body
    assert parsed >= 5, parsed


def test_list_walks_go_over_ranked_keyed_and_partial_items() -> None:
    sources = set()
    for code, _, _ in _draws(("for", "if"), 3):
        for line in code.splitlines():
            m = re.fullmatch(r"\s*for \w+ in (sorted\(\w+, (reverse=True|key=.+)\)|itertools\.accumulate\(.+\)|"
                             r"heapq\.n(smallest|largest)\(\d, \w+\)|\w+\[:?len\(\w+\) // 2:?\]|"
                             r"\w+\[:\d\] \+ \w+\[-\d:\]|\[\w+\[0\], \w+\[-1\]\]):", line)
            if m:
                sources.add(re.sub(r"\b[a-z_]+\b(?![.(=])|\d", "N", m[1]))
    assert len(sources) >= 4, sources


def test_a_later_test_in_a_walk_may_end_it() -> None:
    stops = 0
    for code, entry, args in _draws(("for", "if-elif"), 2):
        tree = ast.parse(code)
        for node in ast.walk(tree):
            if isinstance(node, ast.For) and any(isinstance(s, ast.If) and s.orelse and isinstance(s.orelse[0], ast.If)
                                                 and isinstance(s.orelse[0].body[-1], ast.Break) for s in node.body):
                stops += 1
                assert not _run(code, entry, args).startswith("error"), code
    assert stops >= 10, stops


def test_number_results_are_sometimes_checksums_or_hashes() -> None:
    folds = {"xor": 0, "hash": 0, "squares": 0}
    for code, entry, args in _draws(("for", "if"), 3, kinds=("list", "enumerate", "zip", "range", "int")):
        if re.search(r"\w+ \^= .+", code):
            folds["xor"] += 1
        if re.search(r"(\w+) = \(\1 \* 31 \+ .+\) % 1009", code):
            folds["hash"] += 1
        if re.search(r"(\w+) \+= (\w+) \* \2\b|\w+ \+= \(.+\) \*\* 2", code):
            folds["squares"] += 1
    assert all(n >= 2 for n in folds.values()), folds


def test_a_single_letter_is_never_walked_as_if_it_were_a_word() -> None:
    """`for ch in word: for x in ch:` walks one letter; a letter is compared with the letters of
    a set instead, its place in the alphabet counted down, and it is measured by `ord`, not `len`."""
    compared = 0
    for code, _, _ in _draws(("for", "for", "for"), 2, kinds=("str",)) + _draws(("for", "for", "while"), 2, kinds=("str",)):
        tree = ast.parse(code)
        letters = {node.target.id for node in ast.walk(tree) if isinstance(node, ast.For)
                   and isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Name)
                   and any(isinstance(outer, ast.For) and isinstance(outer.target, ast.Name)
                           and outer.target.id == node.iter.id and "split" in ast.unparse(outer.iter)
                           for outer in ast.walk(tree))}
        for node in ast.walk(tree):
            if isinstance(node, ast.For) and isinstance(node.iter, ast.Name):
                assert node.iter.id not in letters, code
            if isinstance(node, ast.Call) and ast.unparse(node.func) in ("len", "iter") and node.args:
                assert ast.unparse(node.args[0]) not in letters, code
        compared += bool(re.search(r"for \w+ in '(aeiou|rstlne|xyz|bcdfg)':", code))
    assert compared >= 3, compared
