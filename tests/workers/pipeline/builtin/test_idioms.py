"""The idiom library: its draws have the structure they are drawn for, use the target
nested, pass the static rules and mostly the self-check, and are a function of the seed."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from workers.pipeline.builtin.idiom_uses import USES
from workers.pipeline.builtin.idioms import build_idiom
from workers.pipeline.builtin.selfcheck import self_check
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.constraints.levels import with_blueprint
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()
NAMES = ("process_batch",)


def draws(t: str, method: str, level: str, count: int) -> list[tuple[Constraint, tuple[str, str, str]]]:
    entry = CATALOG.get(t, method)
    out = []
    for i in range(count * 4):
        cell = Constraint(t, method, level, with_blueprint(LEVELS[level], random.Random(f"t:{i}")))
        made = build_idiom(entry, cell.knobs, random.Random(f"idiom:{t}:{method}:{level}:{i}"), NAMES)
        if made is not None:
            out.append((cell, made))
        if len(out) == count:
            break
    return out


def test_every_use_names_a_catalog_entry() -> None:
    for t, method in USES:
        assert CATALOG.get(t, method) is not None


@pytest.mark.parametrize("level", list(LEVELS))
def test_draws_have_the_structure_and_pass_the_static_rules(level: str) -> None:
    checked = Counter()
    for t, method in USES:
        for cell, (code, entry, args) in draws(t, method, level, 4):
            checked["draws"] += 1
            measured = measure_structure(code, entry, cell)
            checked["match"] += measured.matches
            checked["static"] += not static_findings(code)
            assert measured.target_uses >= 2 and measured.nested_calls, (cell, code)
            compile(code, "<idiom>", "exec")
            assert eval(f"({args},)") is not None  # noqa: S307 - literals the draw wrote
    assert checked["draws"] >= 30, checked
    assert checked["match"] >= 0.85 * checked["draws"], checked
    assert checked["static"] >= 0.9 * checked["draws"], checked


def test_most_draws_run_clean_on_their_own_and_drawn_inputs() -> None:
    verdicts = Counter()
    for level in ("C3", "C5", "C6"):
        for t, method in [("zip", "zip"), ("enumerate", "enumerate"), ("filter", "filter"),
                          ("reversed", "reversed"), ("float", "round()"), ("str", "split")]:
            for cell, (code, entry, args) in draws(t, method, level, 10):
                if not measure_structure(code, entry, cell).matches or static_findings(code):
                    continue
                verdict = self_check(code, entry, args, seed=5, target=method.removesuffix("()"))
                verdicts["runs"] += 1
                verdicts["raises"] += "raises" in verdict.findings
                verdicts["clean"] += set(verdict.findings) <= {"idle_normalizer"}
                verdicts["idle"] += "idle_normalizer" in verdict.findings
    assert verdicts["runs"] >= 100, verdicts
    assert verdicts["raises"] <= 0.1 * verdicts["runs"], verdicts
    # (clean of the findings this test was written for; a normalizing call the data never
    # needs, `label.rstrip('s')` on words without one, is bounded on its own). Raw draws,
    # before the generator's self-check redraws them: about half run clean (75-80 of 143-145
    # on 10 draws a cell, as here: 3 a cell left the count within two deviations of the
    # bound; a draw the gate names a trick, `len(list(reversed([...])))`, is left out of the runs)
    assert verdicts["clean"] >= 0.45 * verdicts["runs"], verdicts
    assert verdicts["idle"] <= 0.2 * verdicts["runs"], verdicts


def test_c1_draws_call_nothing_but_the_target_and_c6_draws_call_their_helper() -> None:
    for t, method in [("zip", "zip"), ("filter", "filter"), ("set", "&")]:
        for cell, (code, entry, _) in draws(t, method, "C1", 3):
            assert not measure_structure(code, entry, cell).other_methods, code
        for cell, (code, entry, _) in draws(t, method, "C6", 3):
            measured = measure_structure(code, entry, cell)
            assert measured.call_chain and code.count("def ") == 2, code


def test_a_walk_of_the_whole_data_runs_once_before_nested_loops() -> None:
    """A use that reads all of the data is hoisted out of a two-loop blueprint."""
    entry = CATALOG.get("zip", "zip")  # every zip use reads the whole data
    knobs = Knobs(True, True, False, 3, ("for", "while", "if"))
    seen = 0
    for i in range(40):
        made = build_idiom(entry, knobs, random.Random(f"h:{i}"), NAMES)
        if made is None:
            continue
        lines = made[0].splitlines()
        use = next(k for k, line in enumerate(lines) if "zip(" in line)
        loop = next(k for k, line in enumerate(lines) if line.lstrip().startswith(("for ", "while ")))
        assert use < loop, made[0]
        seen += 1
    assert seen >= 10


def test_the_same_seed_gives_the_same_draw() -> None:
    entry = CATALOG.get("enumerate", "enumerate")
    knobs = with_blueprint(LEVELS["C4"], random.Random(3))
    first = [build_idiom(entry, knobs, random.Random(f"s:{i}"), NAMES) for i in range(20)]
    again = [build_idiom(entry, knobs, random.Random(f"s:{i}"), NAMES) for i in range(20)]
    assert first == again
    assert len({d for d in first if d is not None}) >= 15


def test_entries_without_a_use_fall_through() -> None:
    entry = CATALOG.get("dict", "popitem")
    assert build_idiom(entry, LEVELS["C3"], random.Random(1), NAMES) is None


def _loop_draws(blueprint: tuple[str, ...], count: int) -> list[str]:
    """Programs of every use drawn for a blueprint with a loop (several draws per entry)."""
    knobs = Knobs(True, True, False, len(blueprint), blueprint)
    out = []
    for t, method in list(USES)[:count]:
        entry = CATALOG.get(t, method)
        for i in range(6):
            made = build_idiom(entry, knobs, random.Random(f"w:{t}:{method}:{i}"), NAMES)
            if made is not None:
                out.append(made[0])
    return out


def test_a_walk_from_both_ends_moves_both_pointers_and_reads_the_front() -> None:
    walks = 0
    for code in _loop_draws(("while", "if"), 80):
        lines = [line.strip() for line in code.splitlines()]
        head = next((k for k, line in enumerate(lines) if re.match(r"\w+, \w+ = 0, len\(\w+\) - 1$", line)), None)
        if head is None:
            continue
        lo, hi = lines[head].split(" = ")[0].split(", ")
        walks += 1
        assert lines[head + 1] in (f"while {lo} < {hi}:", f"while {lo} <= {hi}:"), code
        moves = {f"{lo}, {hi} = {lo} + 1, {hi} - 1"} <= set(lines) or {f"{lo} += 1", f"{hi} -= 1"} <= set(lines)
        assert moves, code
        assert any(f"[{lo}" in line for line in lines[head + 2:]), code  # the front item (or from it on)
    assert walks >= 10, walks


def test_a_best_so_far_that_starts_unset_is_only_compared_once_set() -> None:
    unset = 0
    for code in _loop_draws(("for", "if"), 200) + _loop_draws(("while", "for"), 200):
        lines = [line.strip() for line in code.splitlines()]
        for name in {line.split(" = ")[0] for line in lines if line.endswith(" = None")}:
            unset += 1
            for line in lines:
                if f"max({name}, " in line or f"{name} < " in line or f"> {name}" in line:
                    assert f"{name} is None" in line, code
            namespace: dict = {}
            exec(compile(code, "<idiom>", "exec"), namespace)  # noqa: S102 - our own draw
    assert unset >= 5, unset


def test_scaffolding_methods_leave_out_the_target_and_calls_where_none_are_allowed() -> None:
    from workers.pipeline.builtin.idioms import _Program

    entry = CATALOG.get("str", "capitalize")
    use = USES[("str", "capitalize")][0]
    knobs = with_blueprint(LEVELS["C5"], random.Random(0))
    program = _Program(entry, knobs, random.Random(0), use)
    assert program.methods("word.capitalize()", "word.upper()", "itertools.pairwise(xs)") == \
        ("word.upper()", "itertools.pairwise(xs)")
    c1 = _Program(entry, with_blueprint(LEVELS["C1"], random.Random(0)), random.Random(0), use)
    assert c1.methods("word.upper()") == ()


@pytest.mark.parametrize("level", ["C4", "C5", "C6"])
def test_every_module_the_scaffolding_calls_is_imported(level: str) -> None:
    seen = Counter()
    for (t, method) in USES:
        for _, (code, _, _) in draws(t, method, level, 2):
            for module in ("itertools", "collections", "math", "operator"):
                if re.search(rf"(?<![\w.]){module}\.", code):
                    seen[module] += 1
                    assert f"import {module}\n" in code, code
    assert seen["itertools"] and sum(seen.values()) > seen["itertools"]  # the scaffolding does reach for them


def test_a_use_that_formats_its_values_keeps_them() -> None:
    """A use that cases, pads or f-formats what it builds is never reduced to its count by
    a number accumulator (`total += len([str(v).zfill(3) ...])` would discard the work)."""
    from workers.pipeline.builtin.idioms import _FORMATS, _Miss, _Program

    knobs = Knobs(True, True, False, 2, ("for", "if"))
    built = 0
    for (t, method), uses in USES.items():
        for k, use in enumerate(uses):
            if use.statement or use.straight_only or use.rtype not in ("str", "list", "set") \
                    or not _FORMATS.search(use.text):
                continue
            for i in range(3):
                program = _Program(CATALOG.get(t, method), knobs, random.Random(f"fmt:{t}:{method}:{k}:{i}"), use)
                try:
                    made = program.build(NAMES)
                except _Miss:
                    continue
                if made is None or program.acc_kind == "direct":
                    continue
                built += 1
                assert program.acc_kind != "number", made[0]
    assert built >= 20
