"""Session 20: the loops the idiom library nests on one element do work a person would write.
A letter is not walked by counting its place in the alphabet down by 4-6, nor a digit by
counting it down by 2-3 (the same meaningless sum for every letter or digit): a letter's while
finds its places in its word one after another (`word.find(ch, at + 1)` until -1), a digit's
follows its Collatz steps down to 1. A for over a fixed set of letters (`for other in 'xyz'`)
under a letter reads that letter; where its body would not, it walks the letter's neighbours
in the alphabet instead (else every letter adds the same thing). The generic forms walk the
digits of a number that can be below zero by its size."""

from __future__ import annotations

import ast
import random
import re

import pytest

from workers.pipeline.builtin import idioms, program
from workers.pipeline.builtin.program import build_program
from workers.pipeline.builtin.registry import UnsupportedConstraint
from workers.pipeline.builtin.selfcheck import _Runner, _values
from workers.pipeline.constraints import load_catalog
from workers.pipeline.records import Knobs

from .idiom_draws import blueprint_draws

CATALOG = load_catalog()


def _count_downs(code: str) -> list[str]:
    """While loops whose test is `v > 0` and whose body ends by taking a constant off `v`."""
    found = []
    for loop in (n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.While)):
        test, last = loop.test, loop.body[-1]
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and isinstance(test.ops[0], ast.Gt) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == 0 \
                and isinstance(last, ast.AugAssign) and isinstance(last.op, ast.Sub) \
                and isinstance(last.target, ast.Name) and last.target.id == test.left.id \
                and isinstance(last.value, ast.Constant):
            found.append(ast.unparse(loop).splitlines()[0])
    return found


def _find_walks(code: str) -> list[ast.While]:
    return [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.While)
            and ast.unparse(n.test).endswith("!= -1")]


def _element_whiles(kinds: tuple[str, ...], salt: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Draws of a while on the element under two for loops (the walks on the element, not its
    wearing down), none of which counts down."""
    monkeypatch.setattr(idioms, "SHRINK_WHILES", 0.0)
    codes = [code for code, _, _ in blueprint_draws(("for", "for", "while"), 3, kinds, salt)]
    assert len(codes) > 60
    for code in codes:
        assert not _count_downs(code), code
    return codes


def test_a_letter_is_walked_through_its_word_not_counted_down(monkeypatch: pytest.MonkeyPatch) -> None:
    walks = 0
    for code in _element_whiles(("str", "list", "set"), "letter-whiles", monkeypatch):
        for loop in _find_walks(code):
            walks += 1
            at = loop.test.left.id  # type: ignore[attr-defined]
            step = loop.body[-1]
            # the next find starts past this place (forward) or ends before it (backward): it ends
            assert isinstance(step, ast.Assign) and step.targets[0].id == at, code  # type: ignore[attr-defined]
            text = ast.unparse(step.value)
            assert text.endswith(f"{at} + 1)") or text.endswith(f"0, {at})"), code
    assert walks > 10


def test_a_digit_follows_its_collatz_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    collatz = 0
    for code in _element_whiles(("list", "tuple", "dict"), "digit-whiles", monkeypatch):
        collatz += bool(re.search(r"(\w+) = \1 // 2 if \1 % 2 == 0 else 3 \* \1 \+ 1", code))
    assert collatz > 5


def test_a_set_of_letters_under_a_letter_reads_it() -> None:
    draws = blueprint_draws(("for", "for", "for"), 4, ("str", "list"), "letter-sets")
    assert len(draws) > 60
    sets = 0
    for code, _, _ in draws:
        tree = ast.parse(code)
        for outer in (n for n in ast.walk(tree) if isinstance(n, ast.For) and isinstance(n.target, ast.Name)):
            for inner in (s for s in outer.body if isinstance(s, ast.For)):
                walked = inner.iter
                literal = isinstance(walked, ast.Constant) or "ascii_lowercase" in ast.unparse(walked) \
                    or ast.unparse(walked) == "sorted('etaoin')"
                neighbours = "chr(ord(" in ast.unparse(walked)
                if not (literal or neighbours):
                    continue
                sets += 1
                letter = outer.target.id
                read = {n.id for s in inner.body for n in ast.walk(s) if isinstance(n, ast.Name)}
                read |= {n.id for n in ast.walk(walked) if isinstance(n, ast.Name)}
                assert letter in read, code
    assert sets > 5


def test_the_generic_forms_walk_the_digits_of_a_signed_number_by_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A difference of neighbours is below zero on some calls: its digits are those of its
    `abs` (`int('-')` raised on the call's own input, and the draw was lost)."""
    monkeypatch.setattr(program, "IDIOM_SHARE", 0.0)  # the generic forms only
    monkeypatch.setattr(program, "SCENE_SHARE", 0.0)
    knobs = Knobs(True, True, False, 3, ("for", "for", "for"))
    walked = signed = 0
    for entry in [e for e in CATALOG.entries if e.type in ("list", "tuple")]:
        for i in range(4):
            try:
                made = build_program(entry, knobs, random.Random(f"signed-digits:{entry.method}:{i}"))
            except UnsupportedConstraint:
                break
            if not re.search(r"for \w+ in str\((abs\()?\w+\)?\):", made.code):
                continue
            walked += 1
            signed += "in str(abs(" in made.code
            outcome = _Runner(made.code, made.entry_point).run(_values(made.args))[0]
            assert outcome != "error:ValueError", made.code  # (a draw growing past the caps is the self-check's)
    assert walked > 10 and signed > 0
