"""Shapes of the generic flow's loops: a set of the items met so far is only written when
the loop's first if tests it (else the set is a dead store)."""

from __future__ import annotations

import ast
import random
import re

from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.flow import Flow, Var, _repeats
from workers.pipeline.builtin.registry import form_for
from workers.pipeline.constraints import load_catalog

CATALOG = load_catalog()


def _draw(seed: int, literal: str, blueprint: tuple[str, ...] = ("for", "if")) -> tuple[Flow, str]:
    g = Ctx(random.Random(seed), True)
    name = g.param("list")
    g.params[-1].literal = literal
    flow = Flow(g, form_for(CATALOG.get("list", "count")), "list",
                Var(name, "list", "value", [ast.literal_eval(literal)]), False, "int")
    flow.start_acc()
    flow.block(blueprint)
    code = "\n".join([f"def f({', '.join(q.name for q in g.params)}):", *flow.lines,
                      f"    return {flow.finish()}"])
    return flow, code


def test_repeats_marks_the_items_met_before() -> None:
    assert _repeats([3, 1, 3, 4, 1, 1]) == [False, False, True, False, True, True]
    assert _repeats([]) == []


def test_a_seen_set_is_written_only_with_its_membership_test() -> None:
    written = 0
    for seed in range(300):
        flow, code = _draw(seed, "[3, 1, 3, 4, 1, 5]")
        found = re.search(r"^    (\w+) = set\(\)$", code, re.M)
        if found is None:
            continue
        written += 1
        seen = found.group(1)
        first_if = re.search(r"^        if (.*):$", code, re.M)
        assert first_if is not None and re.fullmatch(rf"\w+ in {seen}", first_if.group(1)), code
        assert re.search(rf"^        {seen}\.add\(\w+\)$", code, re.M), code
        namespace: dict = {}
        exec(compile(code, "<flow>", "exec"), namespace)  # noqa: S102 - the generator's own code
        args = [ast.literal_eval(q.literal) for q in flow.g.params]
        namespace["f"](*args)  # runs on the teacher's input
    assert written >= 3


def test_two_pointers_pair_each_item_with_its_mirror() -> None:
    """`lo, hi = 0, len(xs) - 1` / `while lo < hi:` reads xs[lo] and xs[hi], then moves
    both ends in; it runs on the teacher's input."""
    written = 0
    for seed in range(200):
        flow, code = _draw(seed, "[3, 8, 1, 6, 4, 9]", ("while", "if"))
        head = re.search(r"^    (\w+), (\w+) = 0, len\((\w+)\) - 1$", code, re.M)
        if head is None:
            continue
        written += 1
        lo, hi, xs = head.groups()
        assert f"    while {lo} < {hi}:" in code, code
        assert re.search(rf"^        \w+, (\w+) = {xs}\[{lo}\], {xs}\[{hi}\]$", code, re.M), code
        assert code.index(f"        {lo} += 1") < code.index(f"        {hi} -= 1"), code
        namespace: dict = {}
        exec(compile(code, "<flow>", "exec"), namespace)  # noqa: S102 - the generator's own code
        namespace["f"](*[ast.literal_eval(q.literal) for q in flow.g.params])
    assert written >= 10


def test_a_fed_item_is_read_when_the_feed_must_read_it() -> None:
    """An off-path walk reads its item only in its feed: the other ways of taking it then
    exclude the counts (`acc += 1`) that would leave the loop variable unread."""
    for seed in range(60):
        g = Ctx(random.Random(seed), True)
        name = g.param("list")
        flow = Flow(g, form_for(CATALOG.get("list", "count")), "list",
                    Var(name, "list", "value", [[3, 1, 4]]), False, "int")
        flow.start_acc()
        flow.feed_element(Var("item", "int", "value", [3, 1, 4]), alternative=True, reads=True)
        assert re.search(r"\bitem\b", flow.lines[-1]), flow.lines


def test_halves_are_the_values_a_halving_loop_visits() -> None:
    from workers.pipeline.builtin.flow import _halves
    assert _halves(10) == [10, 5, 2, 1]
    assert _halves(1) == [1]
    assert _halves(0) == [] and _halves(None) == []


def test_a_program_asks_each_whole_input_question_once() -> None:
    """Nested or chained tests on the whole input never reuse a template with another
    bound (not `min(xs) < 27`, then `min(xs) < 20` inside it)."""
    several = 0
    for seed in range(150):
        flow, code = _draw(seed, "[3, 11, 4, 19, 8, 2]", ("if", "if-elif", "if"))
        asked = [m.group(1) for m in re.finditer(r"^\s*(?:if|elif) (.*):$", code, re.M)
                 if m.group(1) in flow.template_of]
        templates = [flow.template_of[t] for t in asked]
        assert len(set(templates)) == len(templates), code
        several += len(asked) >= 3
    assert several >= 30
