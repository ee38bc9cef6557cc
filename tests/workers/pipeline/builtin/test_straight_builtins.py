"""The depth-0 bodies of the iterator builtins: they, not the generic fallback, write the
C1/C2 programs of enumerate, filter, reversed, zip and range, meet the level (target nested
in itself; no other call at C1, some other call at C2) with no static finding, and vary."""

from __future__ import annotations

import ast
import random

import pytest

from workers.pipeline.builtin import straight_builtins
from workers.pipeline.builtin.context import Ctx
from workers.pipeline.constraints import LEVELS
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint
from workers.pipeline.static_check import measure_structure

DRAWS = 60


def _program(target: str, calls: bool, seed: int) -> str | None:
    g = Ctx(random.Random(f"straight:{target}:{calls}:{seed}"), calls)
    data = g.param("int" if target == "range" else "list")
    body = straight_builtins.build(g, target, data, calls)
    if body is None:
        return None
    return "\n".join([f"def f({', '.join(q.name for q in g.params)}):", *body]) + "\n"


@pytest.mark.parametrize("target", straight_builtins.BUILTINS)
@pytest.mark.parametrize("level", ["C1", "C2"])
def test_builtin_bodies_meet_the_level_and_vary(target: str, level: str) -> None:
    cell = Constraint(target, target, level, LEVELS[level])
    codes = [c for c in (_program(target, level == "C2", s) for s in range(DRAWS)) if c]
    assert len(codes) >= DRAWS * 0.95  # the generic forms take almost none of them
    good = [c for c in codes if measure_structure(c, "f", cell).matches and not static_findings(c)]
    assert len(good) >= len(codes) * 0.9, [c for c in codes if c not in good][:2]
    shapes = {ast.dump(ast.parse(c)) for c in codes}
    assert len(shapes) >= len(codes) * 0.9
    for code in codes:  # every parameter is read
        tree = ast.parse(code)
        params = {a.arg for a in tree.body[0].args.args}
        loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        assert params <= loaded, code
