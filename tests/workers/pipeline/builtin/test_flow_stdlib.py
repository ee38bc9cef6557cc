"""The generic flow writes its scaffolding with the builtin types' methods and the standard
library (a deque work list, itertools.pairwise, lowered word walks, attribute tests), imports
the modules it uses, and never calls the target's own method there."""

from __future__ import annotations

import ast
import random

from workers.pipeline.builtin.context import Ctx, program_text
from workers.pipeline.builtin.flow import Flow, Var
from workers.pipeline.builtin.registry import form_for
from workers.pipeline.constraints import load_catalog

CATALOG = load_catalog()


def _draw(seed: int, ptype: str, literal: str, method: str, kinds: tuple[str, ...],
          banned: set[str]) -> tuple[Flow, str]:
    g = Ctx(random.Random(seed), True)
    name = g.param(ptype)
    g.params[-1].literal = literal
    flow = Flow(g, form_for(CATALOG.get(ptype, method)), ptype,
                Var(name, ptype, "value", [ast.literal_eval(literal)]), False, "int")
    flow.banned = banned
    flow.start_acc()
    flow.block(kinds)
    code = program_text([f"def f({', '.join(q.name for q in g.params)}):", *flow.lines,
                         f"    return {flow.finish()}"], g.imports)  # as build_program writes it
    return flow, code


def _run(flow: Flow, code: str) -> None:
    namespace: dict = {}
    exec(compile(code, "<flow>", "exec"), namespace)  # noqa: S102 - the generator's own code
    namespace["f"](*[ast.literal_eval(q.literal) for q in flow.g.params])  # runs on the teacher's input


def test_fits_keeps_the_targets_call_names_out() -> None:
    flow, _ = _draw(0, "list", "[3, 1, 4]", "count", ("for",), {"lower"})
    assert not flow.fits("word.lower().split()") and flow.fits("word.upper()")
    assert flow.pick(("text.lower()", "text.title()")) == "text.title()"


def test_work_lists_from_the_front_are_deques_and_pairs_come_from_itertools() -> None:
    shapes = {"deque": 0, "pairwise": 0}
    for seed in range(200):
        for kinds in (("while", "if"), ("for", "if")):
            flow, code = _draw(seed, "list", "[3, 1, 3, 4, 1, 5]", "count", kinds, set())
            assert ".pop(0)" not in code or "collections.deque" not in code, code
            if "collections.deque(" in code:
                shapes["deque"] += 1
                assert "import collections" in code and ".popleft()" in code, code
            if "itertools.pairwise(" in code:
                shapes["pairwise"] += 1
                assert "import itertools" in code, code
            _run(flow, code)
    assert shapes["deque"] >= 5 and shapes["pairwise"] >= 5, shapes


def test_lowered_walks_stay_off_when_lower_is_the_target() -> None:
    lowered = 0
    for seed in range(200):
        flow, code = _draw(seed, "str", "'Tiger River 42'", "count", ("for", "if"), set())
        lowered += ".lower()" in code
        _run(flow, code)
        flow, code = _draw(seed, "str", "'Tiger River 42'", "count", ("for", "if"), {"lower"})
        assert ".lower()" not in code, code
    assert lowered >= 20
