"""Session 17's rules for the generic forms (C3-C6 programs the idiom library declines): the C6
helper is not called on the whole input inside a loop (the same value every turn: the turn
feeds its element and the helper is called once, after the walk), and the names they give
to what they build say what it is for (a total, the items kept, a working copy)."""

from __future__ import annotations

import ast
import random

import pytest

from workers.pipeline.builtin import program
from workers.pipeline.builtin.program import build_program
from workers.pipeline.builtin.registry import UnsupportedConstraint
from workers.pipeline.constraints import load_catalog
from workers.pipeline.records import Knobs

CATALOG = load_catalog()
BLUEPRINTS = [("if", "if-elif", "for"), ("while", "if", "while"), ("for", "if", "if-elif"), ("if-elif", "for", "if")]


def _helper_calls_in_loops(code: str) -> tuple[int, list[str]]:
    """(helper calls in the entry, those inside a loop on the whole input: every name the call
    reads is an entry parameter that no line of the loop rebinds or changes). A call on a
    working copy the helper itself changes is left out: its value moves turn by turn."""
    tree = ast.parse(code)
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    helpers, entry = {f.name for f in funcs[:-1]}, funcs[-1]
    calls = [n for n in ast.walk(entry) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id in helpers]
    params = {a.arg for a in entry.args.args}
    invariant = []
    for loop in (n for n in ast.walk(entry) if isinstance(n, (ast.For, ast.While))):
        changed = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        changed |= {n.func.value.id for n in ast.walk(loop) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}
        for stmt in loop.body:
            for call in (n for n in ast.walk(stmt) if n in calls):
                read = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)} - helpers
                if read and read <= params and not read & changed:
                    invariant.append(ast.unparse(call))
    return len(calls), invariant


def _flow_draws(blueprint: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(program, "IDIOM_SHARE", 0.0)  # the generic forms only
    monkeypatch.setattr(program, "SCENE_SHARE", 0.0)
    knobs = Knobs(True, True, True, 3, blueprint)
    codes = []
    for entry in CATALOG.entries[::3]:
        try:
            codes.append(build_program(entry, knobs, random.Random(f"helper-calls:{entry.type}:{entry.method}:{blueprint}")).code)
        except UnsupportedConstraint:  # an entry the generic forms have no form for
            continue
    return codes


@pytest.mark.parametrize("blueprint", BLUEPRINTS)
def test_the_helper_is_not_called_on_the_whole_input_every_turn(blueprint: tuple[str, ...],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _flow_draws(blueprint, monkeypatch)
    assert len(codes) > 40
    for code in codes:
        calls, invariant = _helper_calls_in_loops(code)
        assert calls >= 1, code  # still a call chain
        assert invariant == [], code


def test_the_check_sees_a_call_the_loop_never_changes() -> None:
    # the shape the old generic forms wrote: the helper on the whole input under an element loop
    code = ("def clip(sample):\n    return sample[:2]\n"
            "def check(record):\n    kept = []\n    for x in record:\n"
            "        kept.append(x)\n        kept.append(clip(record))\n    return kept\n")
    assert _helper_calls_in_loops(code) == (1, ["clip(record)"])
    moved = code.replace("        kept.append(clip(record))\n    return", "    kept.append(clip(record))\n    return")
    assert _helper_calls_in_loops(moved) == (1, [])


def _accumulators(code: str) -> list[str]:
    """Names the entry starts empty or at zero and then adds to (`total = 0 ... total += x`)."""
    entry = [n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)][-1]
    starts = {s.targets[0].id for s in entry.body if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)
              and isinstance(s.value, (ast.Constant, ast.List)) and not getattr(s.value, "elts", None)}
    grown = {n.target.id for n in ast.walk(entry) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
    grown |= {n.func.value.id for n in ast.walk(entry) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "append" and isinstance(n.func.value, ast.Name)}
    counters = {n.id for w in ast.walk(entry) if isinstance(w, ast.While) for n in ast.walk(w.test) if isinstance(n, ast.Name)}
    return sorted(starts & grown - counters)


@pytest.mark.parametrize("blueprint", BLUEPRINTS)
def test_the_generic_forms_name_what_a_value_is_for(blueprint: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    from workers.pipeline.builtin.flow import _ACC_NAMES
    roles = {n for names in _ACC_NAMES.values() for n in names}
    codes = _flow_draws(blueprint, monkeypatch)
    accs = [a for code in codes for a in _accumulators(code)]
    assert len(accs) > 20
    assert set(accs) <= roles, sorted(set(accs) - roles)
    for code in codes:  # a number's digits are digits; an id taken off a work list is not one
        for loop in (n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.While)):
            first = loop.body[0]
            if isinstance(first, ast.Assign) and isinstance(first.value, ast.Call) \
                    and isinstance(first.value.func, ast.Attribute) and first.value.func.attr == "pop":
                assert first.targets[0].id not in ("digit", "last_digit", "d"), code


def test_a_helper_is_named_for_what_it_gives_back() -> None:
    """`def check(rate): return round(...)` and `def normalize(xs): return xs.count(3) > 1`
    read wrong: the generic forms' helper takes its name from its result (a test is a
    `check` or `is_valid`, a number a `score`, a text a `normalize`, a collection a `pick`)."""
    from workers.pipeline.builtin.context import Ctx
    from workers.pipeline.builtin.program import HELPER_NAMES_BY_RESULT, HELPER_NAMES_OTHER
    from workers.pipeline.builtin.registry import form_for, subject_type

    kinds = set()
    for i, entry in enumerate(load_catalog().entries):
        form = form_for(entry)
        if form is None or program._probe(form, True).stmt:
            continue
        g = Ctx(random.Random(i), True)
        _lines, name, _types, (_params, rtype) = program._helper(g, form, subject_type(entry), g.rng, 2)
        assert name in HELPER_NAMES_BY_RESULT.get(rtype, HELPER_NAMES_OTHER), (entry, name, rtype)
        kinds.add(rtype if rtype in HELPER_NAMES_BY_RESULT else "other")
    assert kinds == {"bool", "int", "float", "str", "other"}
