"""A while that wears the current element down does not hold another one wearing the same
element down: the inner loop would leave the outer one's test false, a loop that runs once."""

from __future__ import annotations

import ast

import pytest

from workers.pipeline.builtin import idioms

from .idiom_draws import blueprint_draws


def _worn(loop: ast.While) -> set[str]:
    """Names the loop wears down: its test reads them and its body rebinds them from
    themselves at its top level (`word = word[1:]`, `n //= 10`)."""
    tested = {n.id for n in ast.walk(loop.test) if isinstance(n, ast.Name)}
    out = set()
    for s in loop.body:
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            out.add(s.target.id)
        elif isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            if s.targets[0].id in {n.id for n in ast.walk(s.value) if isinstance(n, ast.Name)}:
                out.add(s.targets[0].id)
    return out & tested


@pytest.mark.parametrize("blueprint", [("for", "while", "while"), ("while", "while", "if")])
def test_an_element_is_not_worn_down_twice_in_one_nest(blueprint: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(idioms, "SHRINK_WHILES", 1.0)
    draws = blueprint_draws(blueprint, 4, ("list", "str", "tuple"), "shrink-nesting")
    assert len(draws) > 50
    nested = 0
    for code, _, _ in draws:
        for outer in (n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.While)):
            for inner in (n for s in outer.body for n in ast.walk(s) if isinstance(n, ast.While)):
                nested += 1
                assert not (_worn(outer) & _worn(inner)), code
    assert nested > 10  # the draws do nest whiles
