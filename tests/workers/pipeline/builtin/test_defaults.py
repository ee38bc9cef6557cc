"""A result fed once, in the arms of tests, written as a default they override (session 31)."""

from __future__ import annotations

import pytest

from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.builtin import generate_program
from workers.pipeline.builtin.defaults import default_then_set
from workers.pipeline.constraints import load_catalog
from workers.pipeline.grid import batch_constraints

ONCE = """def convert_rate(price, threshold):
    tally = 0.0
    if price < threshold:
        tally += price * 2
    return round(tally, 2)
"""


def _run(code: str, entry: str, *args):  # noqa: ANN002, ANN202
    space: dict = {}
    exec(code, space)  # noqa: S102 - the test's own programs
    return space[entry](*args)


def test_a_total_added_to_once_becomes_a_default_the_test_overrides() -> None:
    code = default_then_set(ONCE, "convert_rate")
    assert code == ONCE.replace("tally += price * 2", "tally = price * 2")
    assert _run(code, "convert_rate", 3.0, 5) == _run(ONCE, "convert_rate", 3.0, 5) == 6.0
    assert _run(code, "convert_rate", 7.0, 5) == 0.0  # the default, read where the test fails


@pytest.mark.parametrize("before, after", [
    ("    out = []\n    if w:\n        out.append(w[0])\n    elif len(w) > 3:\n        out.insert(0, w[-1])\n",
     "    out = []\n    if w:\n        out = [w[0]]\n    elif len(w) > 3:\n        out = [w[-1]]\n"),
    ("    seen = set()\n    if w:\n        if w[0] < 'm':\n            seen.add(w[0])\n",
     "    seen = set()\n    if w:\n        if w[0] < 'm':\n            seen = {w[0]}\n"),
])
def test_one_item_of_a_list_or_set_is_that_item_in_brackets(before: str, after: str) -> None:
    name = before.split()[0]
    code = f"def f(w):\n{before}    return {name}\n"
    assert default_then_set(code, "f") == f"def f(w):\n{after}    return {name}\n"


@pytest.mark.parametrize("body", [
    # every path adds once: the default would never be read (a dead store)
    "    t = 0\n    if w:\n        t += 1\n    else:\n        t += 2\n",
    # two additions on one path, a loop, a test that reads the result, a subtraction
    "    t = 0\n    if w:\n        t += 1\n        t += len(w)\n",
    "    t = 0\n    for c in w:\n        t += 1\n",
    "    t = 0\n    if w:\n        t += 1\n    if t:\n        t += 2\n",
    "    t = 0\n    if w:\n        t -= len(w)\n",
    # a list extended by an iterable is not that iterable
    "    t = []\n    if w:\n        t += w.split()\n",
])
def test_results_that_add_up_or_have_no_plain_form_are_left(body: str) -> None:
    code = f"def f(w):\n{body}    return t\n"
    assert default_then_set(code, "f") == code


def test_builtin_tests_only_programs_write_no_single_addition() -> None:
    """Seed 11 wrote `+=` / `.append` on an empty result, once per path, in 14 of 100 C3
    programs; what a C3 batch stores now holds none."""
    catalog = load_catalog()
    cells = batch_constraints(catalog, BatchSpec(programs=60, levels=("C3",), seed=11))
    codes = [(p.code, p.entry_point) for p in (generate_program(c, 11, i, catalog) for i, c in enumerate(cells))]
    assert [code for code, entry in codes if default_then_set(code, entry) != code] == []
