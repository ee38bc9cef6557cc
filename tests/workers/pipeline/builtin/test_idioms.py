"""The idiom library: its draws have the structure they are drawn for, use the target
nested, pass the static rules and mostly the self-check, and are a function of the seed."""

from __future__ import annotations

import random
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
            for cell, (code, entry, args) in draws(t, method, level, 3):
                if not measure_structure(code, entry, cell).matches or static_findings(code):
                    continue
                verdict = self_check(code, entry, args, seed=5)
                verdicts["runs"] += 1
                verdicts["raises"] += "raises" in verdict.findings
                verdicts["clean"] += verdict.clean
    assert verdicts["runs"] >= 30, verdicts
    assert verdicts["raises"] <= 0.1 * verdicts["runs"], verdicts
    assert verdicts["clean"] >= 0.5 * verdicts["runs"], verdicts


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
