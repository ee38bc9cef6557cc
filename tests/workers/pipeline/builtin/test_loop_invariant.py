"""Values a loop adds on every turn without reading what the loop changes (session 31).

Seed 11's 600 builtin programs held 16 such loops before: the generic forms put a use of the
whole input (`dims == point == coords` over three tuples, `changed &= {1, 6, 8}`) in an inner
loop's slot, where every turn added the same value.
"""

from __future__ import annotations

import pytest

from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.builtin import generate_program
from workers.pipeline.builtin.invariant import invariant_values
from workers.pipeline.builtin.selfcheck import self_check
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.grid import batch_constraints

REPEATED = """def compare_records(dims, point, coords):
    result = []
    for x in dims:
        remaining = x
        while remaining > 0:
            result.append(remaining % 10)
            result.append(dims == point == coords)
            remaining //= 10
    return result
"""


@pytest.mark.parametrize("code, found", [
    (REPEATED, ["result.append(dims == point == coords)"]),
    # a helper called with the outer word on every letter of it
    ("def pad(w):\n    return w.ljust(6)\n\ndef f(text):\n    line = ''\n    for part in text.split():\n"
     "        for ch in part:\n            line += pad(part)\n    return line\n", ["line += pad(part)"]),
    # the same literal intersected on every turn
    ("def f(ids):\n    kept = set(ids)\n    for v in ids:\n        kept &= {1, 6, 8}\n    return kept\n",
     ["kept &= {1, 6, 8}"]),
])
def test_a_value_added_on_every_turn_is_found(code: str, found: list[str]) -> None:
    assert invariant_values(code) == found


@pytest.mark.parametrize("code", [
    # a counter, a value of the element, a step the loop's test reads
    "def f(xs):\n    n = 0\n    for x in xs:\n        n += 1\n    return n\n",
    "def f(xs):\n    t = 0\n    for x in xs:\n        t += len(str(x))\n    return t\n",
    "def f(n, step):\n    pos = 0\n    while pos < n:\n        pos += step\n    return pos\n",
    # a weight counted where a test holds, a separator after each item; a running position the loop reads
    "def f(xs, w):\n    t = 0\n    for x in xs:\n        if x > 3:\n            t += w\n    return t\n",
    "def f(xs, sep):\n    out = ''\n    for x in xs:\n        out += x\n        out += sep\n    return out\n",
    "def f(xs, gap):\n    at, out = 0, []\n    for x in xs:\n        out.append(x[at:])\n        at += gap\n    return out\n",
    # a value that changes because the loop changes what it reads
    "def f(xs):\n    left, got = list(xs), []\n    for x in xs:\n        got.append(max(left))\n        left.pop()\n"
    "    return got\n",
    "def take(s):\n    return s.pop()\n\ndef f(xs):\n    work, t = set(xs), 0\n    while work:\n"
    "        t += take(work)\n    return t\n",
])
def test_values_that_change_or_count_are_left(code: str) -> None:
    assert invariant_values(code) == []


def test_the_self_check_scores_it() -> None:
    verdict = self_check(REPEATED, "compare_records", "(12, 5, 30), (1, 2), (1, 2)", seed=3)
    assert "loop_invariant_value" in verdict.findings
    assert verdict.score >= 4


@pytest.mark.parametrize("seed", [11, 12])
def test_builtin_batches_add_no_value_on_every_turn(seed: int) -> None:
    """The cells that wrote them (tuple and set comparisons, a literal `&=`, a slice of the
    whole input at C3-C5) now write the use once, after the walk."""
    catalog = load_catalog()
    cells = batch_constraints(catalog, BatchSpec(programs=600, levels=tuple(LEVELS), seed=seed))
    picked = [(i, c) for i, c in enumerate(cells)
              if c.level in ("C3", "C4", "C5") and (c.type, c.method) in {
                  ("tuple", "=="), ("tuple", "!="), ("set", "=="), ("set", "!="), ("set", "&="), ("tuple", "[:]"),
                  ("list", "[:]")}]
    assert len(picked) >= 6
    repeated = {i: invariant_values(generate_program(c, seed, i, catalog).code) for i, c in picked}
    assert {i: r for i, r in repeated.items() if r} == {}
