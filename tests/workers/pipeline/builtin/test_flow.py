"""The generic flow's branch arms: whole-input tests chosen on a sample of inputs, element
tests on the values of every sample input, so every arm runs for some of the few inputs
the pipeline keeps (coverage-first among type-directed candidates)."""

from __future__ import annotations

import ast
import importlib
import random

import pytest

import workers.pipeline.builtin.program as program
from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.flow import MIN_ARM, SAMPLES, Flow, Var, _need, _paths
from workers.pipeline.builtin.registry import form_for
from workers.pipeline.builtin.selfcheck import _Runner
from workers.pipeline.constraints import load_catalog
from workers.pipeline.inputs import InputCandidate, distinct_inputs, greedy_cover
from workers.pipeline.input_synthesis import synthesize_inputs
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()
# entries of several subject types; blueprints whose arms 3 kept inputs can all run (the
# arms under whole-input tests need at most 2 inputs of their own)
ENTRIES = [("filter", "filter"), ("str", "rsplit"), ("dict", "get"), ("set", "-"),
           ("zip", "zip"), ("float", "int()"), ("range", "range"), ("tuple", "[:]")]
BLUEPRINTS = [("if", "if", "for"), ("if-elif", "if", "while"), ("for", "if-elif", "if"),
              ("if", "if-elif", "if"), ("while", "if-elif", "if-elif"), ("if", "for", "if-elif")]


def untaken(code: str, entry: str, args: str, seed: int) -> int:
    """Arms written in the code that none of 3 inputs kept coverage-first among the call
    and 12 type-directed candidates runs (as the naturalness gate keeps them)."""
    cands = [InputCandidate(args, "teacher")] + synthesize_inputs(args, 12, seed=seed)
    inputs = [c.args for c in distinct_inputs(cands, 13)]
    runner = _Runner(code, entry)
    runs = [runner.run(ast.literal_eval(f"({a},)")) for a in inputs]
    outs, hits = [r[0] for r in runs], [r[1] for r in runs]
    ok = [i for i, o in enumerate(outs) if o.startswith("ok:")] or list(range(len(outs)))
    chosen = [ok[k] for k in greedy_cover([hits[i] for i in ok], [outs[i] for i in ok], 3)]
    ran = set().union(*(hits[c] for c in chosen))
    return sum(1 for a in runner.arms if a.kind in ("if", "else") and a.mark not in ran)


@pytest.mark.parametrize("call_chain", [False, True], ids=["C5", "C6"])
def test_generic_depth_3_draws_run_every_arm_on_the_kept_inputs(monkeypatch, call_chain: bool) -> None:
    monkeypatch.setattr(program, "IDIOM_SHARE", 0.0)  # the generic flow only
    monkeypatch.setattr(program, "SCENE_SHARE", 0.0)
    drawn = clean = 0
    for t, m in ENTRIES:
        entry = CATALOG.get(t, m)
        for b, blueprint in enumerate(BLUEPRINTS):
            knobs = Knobs(True, True, call_chain, 3, blueprint)
            target = Constraint(t, m, "C6" if call_chain else "C5", knobs)
            for attempt in range(3):
                rng = random.Random(f"flow-test:{t}:{m}:{b}:{attempt}:{call_chain}")
                p = program.build_program(entry, knobs, rng)
                if not measure_structure(p.code, p.entry_point, target).matches \
                        or static_findings(p.code):
                    continue  # the generator redraws these
                drawn += 1
                clean += untaken(p.code, p.entry_point, p.args, seed=7000 + drawn) == 0
    assert drawn >= len(ENTRIES) * len(BLUEPRINTS)
    assert clean / drawn >= 0.85, f"{clean}/{drawn} draws run every arm"


def _flow(literal: str, ptype: str = "list", seed: int = 3) -> Flow:
    g = Ctx(random.Random(seed), True)
    name = g.param(ptype)
    g.params[-1].literal = literal
    entry = CATALOG.get("list", "count")
    flow = Flow(g, form_for(entry), ptype, Var(name, ptype, "value", [ast.literal_eval(literal)]),
                False, "int")
    flow.start_acc()
    return flow


def test_the_sample_starts_with_the_teachers_input_and_varies_it() -> None:
    flow = _flow("[3, 1, 4]")
    values = flow.values_of(flow.param.name)
    assert len(values) == SAMPLES and values[0] == [3, 1, 4]
    assert all(isinstance(v, list) for v in values) and len({len(v) for v in values}) > 1
    assert flow.values_of(flow.param.name) is values  # drawn once


@pytest.mark.parametrize("seed", range(8))
def test_whole_input_tests_give_every_arm_sample_inputs(seed: int) -> None:
    flow = _flow("[3, 1, 4]", seed=seed)
    tests, deep, arms = flow.choose_whole(True, False, 1, None, tight=True)
    assert len(tests) == 2 and len(arms) == 2
    values = flow.values_of(flow.param.name)
    x = flow.param.name
    env = lambda i: {x: values[i], **({flow.limit: flow.limit_at(i)} if flow.limit else {})}  # noqa: E731
    modules = {m: importlib.import_module(m) for m in ("math", "statistics", "collections")}  # a test may call them
    first = {i for i in range(SAMPLES) if eval(tests[0], modules, env(i))}  # noqa: S307
    second = {i for i in range(SAMPLES) if i not in first and eval(tests[1], modules, env(i))}  # noqa: S307
    assert set(arms[0]) == first and set(arms[1]) == second  # the arms are what the tests say
    assert all(len(a) >= MIN_ARM[-1] for b, a in enumerate(arms) if b != deep)
    assert 0 in arms[deep]  # the teacher's input runs the deeper levels


def test_an_element_if_elif_splits_the_anchor_inputs_values() -> None:
    flow = _flow("[3, 8, 5, 12, 6, 1]")
    x = Var("value", "int", "value", [3, 8, 5, 12, 6, 1], [3, 8, 5, 12, 6, 1, 40, 17])
    flow.scope.append(x)
    arms, _, counts = flow.element_tests(x, True, False)
    assert len(arms) == 2 and counts[0] >= 1 and counts[1] >= 1
    first = {v for v in x.sample if arms[0][1](v, flow.limit_at(0))}
    assert first and set(x.sample) - first


def test_paths_and_need_count_the_arms_under_whole_input_tests() -> None:
    assert _paths(()) == 1 and _paths(("for", "if-elif")) == 1
    assert _paths(("if-elif", "if", "if-elif")) == 3
    assert _need(()) == 1 and _need(("while", "if")) == 1
    assert _need(("if", "for")) == 2 and _need(("if-elif",)) == 1 + MIN_ARM[-1]


def test_a_sets_working_copy_never_takes_the_sets_own_items_again(monkeypatch) -> None:
    """`latest = set(blocked)` then `latest.add(item)` for each item of blocked changes
    nothing on any input: the copy takes a value made from the item (its double, its last
    digit ...) instead."""
    import re
    monkeypatch.setattr(program, "IDIOM_SHARE", 0.0)  # the generic flow only
    monkeypatch.setattr(program, "SCENE_SHARE", 0.0)
    copies = 0
    for m in ("remove", "discard", "pop", "update", "copy"):
        entry = CATALOG.get("set", m)
        for i in range(40):
            knobs = Knobs(True, True, False, 2, (("for", "if"), ("if", "for"))[i % 2])
            p = program.build_program(entry, knobs, random.Random(f"set-copy:{m}:{i}"))
            for acc, src, unpacked in re.findall(r"(\w+) = (?:set\((\w+)\)|\{\*(\w+)\})", p.code):
                src = src or unpacked
                items = re.findall(rf"for (\w+) in (?:sorted\()?{src}\b", p.code)
                copies += bool(items)
                for x in items:
                    assert not re.search(rf"\b{acc}\.add\({x}\)", p.code), p.code
    assert copies >= 10
