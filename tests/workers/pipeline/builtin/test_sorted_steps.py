"""Tests against the item before, on data the program sorted itself (session 31).

A walk over `sorted(marks, reverse=True)` that asks `mark - prev > 4` asks what no step of
falling data can answer yes; the idiom library now leaves out, on sorted data, the step
tests its order decides (`_ORDER_DECIDES`), and keeps the others.
"""

from __future__ import annotations

import random

import pytest

from workers.pipeline.builtin.idioms import _ORDER_DECIDES, _PREV_COND, sorted_order


@pytest.mark.parametrize("lines, xs, order", [
    (["    ranked = sorted(marks, reverse=True)"], "ranked", False),
    (["    ranked = sorted(marks)[:4]"], "ranked", True),
    (["    small = heapq.nsmallest(3, marks)"], "small", True),
    ([], "sorted(marks)", True),
    (["    ranked = sorted(marks, key=abs)"], "ranked", None),  # (another order than the values')
    (["    ranked = sorted(marks)", "    ranked = marks[::-1]"], "ranked", None),  # the newest binding counts
    (["    ranked = sorted(marks) + [0]"], "ranked", None),
    ([], "marks", None),
])
def test_the_order_of_the_walked_data_is_read_off_its_binding(lines: list[str], xs: str, order: bool | None) -> None:
    assert sorted_order(lines, xs) is order


def _answers(template: str, pairs: list[tuple[float, float]]) -> set[bool]:
    test = template.replace("{a3}", "3")
    return {bool(eval(test.format(x=x, p=p))) for p, x in pairs}  # noqa: S307 - the library's own templates


@pytest.mark.parametrize("rising", [True, False])
def test_the_left_out_tests_are_the_ones_the_order_decides(rising: bool) -> None:
    """Every step of sorted data answers a left-out test alike; each kept test is answered
    both ways on some of them (drawn data of the pipeline's sizes, repeats included: on
    rising data `x > p` asks for a strict rise)."""
    rng = random.Random(5)
    pairs = []
    for _ in range(60):
        data = sorted((rng.randint(1, 30) for _ in range(rng.randint(3, 8))), reverse=not rising)
        pairs += list(zip(data, data[1:]))
    strict = [(p, x) for p, x in pairs if p != x]  # (a repeat is no step either way)
    for template in _PREV_COND["int"]:
        if template in _ORDER_DECIDES[rising]:
            assert len(_answers(template, strict)) == 1, template
        else:
            assert _answers(template, pairs) == {True, False}, template
