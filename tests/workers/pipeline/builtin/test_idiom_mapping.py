"""The dict entries on a mapping the program is given: their programs take a dict of counts,
walk it as such code does (names with counts, the counts alone, the names alone, a copy
emptied with popitem), meet their level, and run on the pipeline's own dict inputs."""

from __future__ import annotations

import ast
import random
import re

from sandbox import Job, Sandbox
from workers.pipeline.builtin import idioms
from workers.pipeline.builtin.idiom_uses_mapping import MAPPING_USES
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.constraints.levels import with_blueprint
from workers.pipeline.input_synthesis import synthesize_inputs
from workers.pipeline.naturalness.static import loop_facts, static_findings
from workers.pipeline.records import Constraint
from workers.pipeline.static_check import measure_structure

CATALOG = load_catalog()


def _mapping_draws(per_level: int = 6) -> list[tuple[str, str, str, str]]:
    """(level, code, entry point, arguments) of the draws that took a mapping."""
    out = []
    for (t, method) in MAPPING_USES:
        for level in ("C3", "C4", "C5", "C6"):
            for i in range(per_level):
                rng = random.Random(f"mapping:{method}:{level}:{i}")
                knobs = with_blueprint(LEVELS[level], rng)
                made = idioms.build_idiom(CATALOG.get(t, method), knobs, rng, ("task",))
                if made is None or not made[2].startswith("{"):
                    continue
                cell = Constraint(t, method, level, knobs)
                if measure_structure(made[0], made[1], cell).matches and not static_findings(made[0]):
                    out.append((level, *made))
    return out


def test_mapping_programs_meet_their_level_and_read_every_loop_variable() -> None:
    draws = _mapping_draws()
    assert {level for level, *_ in draws} == {"C3", "C4", "C5", "C6"}
    assert len(draws) > 120, len(draws)  # of 240 (an entry with a words use too draws it some times)
    walks = set()
    for _, code, _, args in draws:
        assert isinstance(ast.literal_eval(f"({args},)")[0], dict)
        assert loop_facts(code).unused_loop_vars == 0, code
        walks.update(re.findall(r"for \w+(?:, \w+)? in (\w+\.items\(\)|\w+\.values\(\)|sorted\(\w+\))", code))
        walks.update(re.findall(r"= (\w+)\.popitem\(\)", code) and ["popitem"])
    # names with counts, counts alone, names alone, a copy emptied entry by entry
    assert any(".items()" in w for w in walks) and any(".values()" in w for w in walks)
    assert any(w.startswith("sorted(") for w in walks) and "popitem" in walks, walks


def test_mapping_programs_run_on_the_pipelines_dict_inputs(sb: Sandbox) -> None:
    draws = _mapping_draws(per_level=3)
    assert len(draws) > 60, len(draws)
    jobs = []
    for k, (_, code, entry, args) in enumerate(draws):
        for j, cand in enumerate([args] + [c.args for c in synthesize_inputs(args, 3, seed=k)]):
            jobs.append(Job(id=f"{k}:{j}", code=code, entry_point=entry, args=cand))
    failed = [(r.id, r.exception) for r in sb.run_many(jobs) if not r.ok]
    assert not failed, (failed[:3], [draws[int(f[0].split(":")[0])][1] for f in failed[:1]])


def test_a_name_lookup_is_one_of_the_calls_own_names_or_another_word() -> None:
    """`stock.get(name, ...)`: the name parameter is a key of the call's own mapping in
    most draws, so `in` tests and lookups split the inputs."""
    found = missing = 0
    for i in range(40):
        rng = random.Random(f"lookup:{i}")
        knobs = with_blueprint(LEVELS["C3"], rng)
        made = idioms.build_idiom(CATALOG.get("dict", "get"), knobs, rng, ("task",))
        if made is None or not made[2].startswith("{"):
            continue
        values = ast.literal_eval(f"({made[2]},)")
        names = [v for v in values[1:] if isinstance(v, str)]
        if names:
            found += names[0] in values[0]
            missing += names[0] not in values[0]
    assert found > missing > 0, (found, missing)
