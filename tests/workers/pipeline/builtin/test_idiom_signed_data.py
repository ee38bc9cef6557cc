"""A digit walk guards with `abs` only where its data can hold a negative number: integer
data is made signed for a share of the programs that walk it, and named for it."""

from __future__ import annotations

import ast
import re

import pytest

from workers.pipeline.builtin import idioms
from workers.pipeline.builtin.context import renamed

from .idiom_draws import blueprint_draws

WALK = re.compile(r"\w+ = (abs\()?\w+\)?\n\s+while |str\((abs\()?(int\()?\w+\)")


def _data(code: str, args: str) -> tuple[str, list]:
    """The entry's list parameter and its value."""
    entry = [n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)][-1]
    values = ast.literal_eval(f"({args},)")
    return next((a.arg, v) for a, v in zip(entry.args.args, values) if isinstance(v, list))


def test_digit_walks_guard_with_abs_only_over_signed_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "SHRINK_WHILES", 1.0)
    draws = [d for blueprint in (("for", "while", "if"), ("for", "for", "if"))
             for d in blueprint_draws(blueprint, 6, ("list", "tuple", "set"), "signed-data")]
    guarded = plain = 0
    for code, _, args in draws:
        walks = [m.group(0) for m in WALK.finditer(code)]
        if not walks or not any(isinstance(a, list) for a in ast.literal_eval(f"({args},)")):
            continue
        name, values = _data(code, args)
        negative = any(isinstance(v, (int, float)) and v < 0 for v in values)
        if any("abs(" in w for w in walks):
            guarded += 1
            assert negative and name in idioms._SIGNED_NAMES, code
        else:
            plain += 1
        if not negative:
            assert "abs(" not in " ".join(walks), code
    assert guarded >= 5 and plain >= 5, (guarded, plain)


def test_an_unsigned_walk_reads_the_number_itself() -> None:
    """A walk's mark comes off whole, an argument with parentheses of its own too."""
    code = "def f(xs):\n    for i in range(len(xs)):\n        left = __magnitude__(xs[max(i, 1)])\n"
    assert idioms._unwrapped(code, idioms._MAGNITUDE) == \
        "def f(xs):\n    for i in range(len(xs)):\n        left = xs[max(i, 1)]\n"


def test_renaming_touches_names_only() -> None:
    code = "def f(ages):\n    label = 'ages'\n    return ages + [len(ages)], label.ages\n"
    assert renamed(code, "ages", "readings") == \
        "def f(readings):\n    label = 'ages'\n    return readings + [len(readings)], label.ages\n"
