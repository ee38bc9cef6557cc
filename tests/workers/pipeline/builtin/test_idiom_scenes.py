"""Scenes (idiom_scenes): C5/C6 programs with a skeleton of their own. Each scene must write,
for some entry, a program with the structure its level asks for that the self-check finds
clean (every statement changes an output, every arm runs, the output varies); blueprints no
scene writes are declined, so the library's frame takes them."""

from __future__ import annotations

import ast
import random

import pytest

from workers.pipeline.builtin.fit import statically_fit
from workers.pipeline.builtin.idiom_scenes import _SCENES, _Scene, build_scene
from workers.pipeline.builtin.idioms import _Miss, fitting_uses
from workers.pipeline.builtin.selfcheck import self_check
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.records import Constraint, Knobs

CATALOG = load_catalog()
ENTRIES = list(CATALOG.entries) if hasattr(CATALOG, "entries") else list(CATALOG)


def _knobs(level: str, blueprint: tuple[str, ...]) -> Knobs:
    base = LEVELS[level]
    return Knobs(base.nested_calls, base.other_methods, base.call_chain, len(blueprint), blueprint)


def _clean_scene(name: str, level: str, blueprint: tuple[str, ...]) -> tuple[str, str]:
    """(code, entry point) of the first clean program scene `name` writes, over the catalog's
    entries and four draws each."""
    knobs = _knobs(level, blueprint)
    for k, entry in enumerate(ENTRIES):
        uses = fitting_uses(entry, knobs)
        if not uses or uses[0].statement:
            continue
        for draw in range(4):
            rng = random.Random(f"scene:{name}:{level}:{k}:{draw}")
            scene = _Scene(entry, knobs, rng, rng.choice(uses), name)
            try:
                code, point, args = scene.build(("f",))
            except _Miss:
                continue
            if not statically_fit(code, point, Constraint(entry.type, entry.method, level, knobs)):
                continue
            if self_check(code, point, args, 1, target=entry.method.removesuffix("()")).clean:
                return code, point
    raise AssertionError(f"no clean {name} program at {level} {blueprint}")


@pytest.mark.parametrize("level", ["C5", "C6"])
@pytest.mark.parametrize(("name", "blueprint", "marks"), [
    ("streak", ("for", "if", "if"), ("+= 1", "= 0\n")),
    ("repeats", ("while", "if-elif", "if"), ("= set()", ".add(")),
    ("windows", ("for", "for", "if"), ("range(len(",)),
    ("letters", ("for", "if", "if"), ("= False", "= True")),
    ("split", ("if", "for", "if-elif"), ("if len(",)),
])
def test_each_scene_writes_a_clean_program_of_its_level(name: str, blueprint: tuple[str, ...],
                                                        marks: tuple[str, ...], level: str) -> None:
    code, point = _clean_scene(name, level, blueprint)
    assert all(mark in code for mark in marks), code
    functions = [n.name for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)]
    assert functions[-1] == point
    assert len(functions) == (2 if level == "C6" else 1)  # C6: the use is a helper the entry calls


@pytest.mark.parametrize(("name", "blueprint", "marks"), [
    ("streak", ("for", "if"), ("max(",)),
    ("repeats", ("while", "if-elif"), ("elif",)),
    ("letters", ("for", "if"), (" and not ",)),
    ("grades", ("for", "if-elif"), ("elif",)),
    ("digits", ("for", "while"), ("//= 10",)),
    ("tally", ("while", "for"), (".get(",)),
])
def test_c4_scenes_write_two_deep_programs(name: str, blueprint: tuple[str, ...], marks: tuple[str, ...]) -> None:
    code, point = _clean_scene(name, "C4", blueprint)
    assert all(mark in code for mark in marks), code
    assert len([n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)]) == 1


def test_a_guarded_scene_holds_its_walk_under_the_test() -> None:
    code, point = _clean_scene("split", "C5", ("if", "for", "if-elif"))
    entry = next(n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == point)
    guard = next(s for s in entry.body if isinstance(s, ast.If))
    assert isinstance(guard.body[0], ast.For)


def test_blueprints_no_scene_writes_are_declined() -> None:
    for blueprint in (("if", "if", "if"), ("for", "for", "for"), ("while", "while", "while")):
        assert not any(fits(blueprint) for _, fits in _SCENES)
        knobs = _knobs("C5", blueprint)
        for k, entry in enumerate(ENTRIES[:40]):
            assert build_scene(entry, knobs, random.Random(k), ("f",)) is None


def test_statement_uses_and_other_depths_are_declined() -> None:
    append = next(e for e in ENTRIES if (e.type, e.method) == ("list", "append"))
    assert build_scene(append, _knobs("C5", ("for", "if", "if")), random.Random(0), ("f",)) is None
    upper = next(e for e in ENTRIES if (e.type, e.method) == ("str", "upper"))
    assert build_scene(upper, _knobs("C3", ("for",)), random.Random(0), ("f",)) is None


def test_same_seed_same_scene() -> None:
    knobs = _knobs("C6", ("for", "if", "if"))
    made = [[build_scene(e, knobs, random.Random(f"same:{k}"), ("f",)) for k, e in enumerate(ENTRIES[:60])]
            for _ in range(2)]
    assert made[0] == made[1]
    assert sum(m is not None for m in made[0]) >= 3


def test_a_batch_carries_scenes_and_says_which_programs_they_wrote() -> None:
    """Seed 11's C5/C6 slots 23, 137 and 335 are written by scenes (the program says so);
    slots no scene writes keep the builder that wrote them before scenes."""
    from workers.pipeline.batch_spec import BatchSpec
    from workers.pipeline.builtin import generate_program
    from workers.pipeline.grid import batch_constraints

    cells = batch_constraints(CATALOG, BatchSpec(programs=600, levels=tuple(LEVELS), seed=11))
    families = {slot: generate_program(cells[slot], 11, slot, CATALOG).family for slot in (23, 137, 335, 24, 136)}
    assert [families[s] for s in (23, 137, 335)] == ["scene"] * 3
    assert {families[24], families[136]} <= {"idiom", "generic", "compact"}


@pytest.mark.parametrize(("name", "role"), [("digits", "cut"), ("tally", "item_test")])
def test_a_use_may_be_the_cut_or_the_test_on_each_item(name: str, role: str) -> None:
    """A number the use gives is the cut; a yes-or-no on each item is the test that picks
    the items the inner walk reads, so the use runs in the walk. (A number on words cuts
    their lengths too, but letter counts over the longer synthesized words mostly run past
    the trace's 100 lines, so no draw here is clean enough to hold it.)"""
    for level, inner, draw in ((lv, kind, d) for lv in ("C5", "C6") for kind in ("for", "while") for d in range(3)):
        knobs = _knobs(level, ("for", "if", inner))
        for k, entry in enumerate(ENTRIES):
            uses = fitting_uses(entry, knobs)
            if not uses or uses[0].statement:
                continue
            for use in uses:
                scene = _Scene(entry, knobs, random.Random(f"role:{k}:{use.text}:{draw}"), use, name)
                try:
                    code, point, args = scene.build(("f",))
                except _Miss:
                    continue
                if not getattr(scene, role) or not statically_fit(code, point, Constraint(entry.type, entry.method, level, knobs)):
                    continue
                if not self_check(code, point, args, 1, target=entry.method.removesuffix("()")).clean:
                    continue
                walk = next(n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.For))
                test = walk.body[0]
                assert isinstance(test, ast.If) and any(isinstance(n, (ast.For, ast.While)) for n in test.body), code
                if role == "cut":
                    assert scene.cut in ast.unparse(test.test), code
                else:
                    assert ast.unparse(test.test) == ast.unparse(ast.parse(scene.item_test, mode="eval").body), code
                return
    raise AssertionError(f"no clean {name} program with the use as its {role}")
