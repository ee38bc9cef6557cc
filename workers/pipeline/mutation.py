"""AST program mutations that change behaviour, so a model cannot answer by pattern.

Each mutant differs from its parent by one edit: a flipped comparison, a changed constant or
slice bound, or a method swapped for a compatible one. Whether a mutant is kept is decided
later by execution (it must run cleanly), like any other program.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass

FLIP_COMPARE = {
    ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
}

# methods that take the same arguments and return the same kind of value
COMPATIBLE_METHODS = [
    {"upper", "lower", "swapcase", "title", "capitalize", "casefold"},
    {"strip", "lstrip", "rstrip"},
    {"startswith", "endswith"},
    {"find", "rfind"},
    {"index", "rindex"},
    {"split", "rsplit"},
    {"isalpha", "isdigit", "isalnum", "isspace", "islower", "isupper"},
    {"ljust", "rjust", "center"},
    {"union", "intersection", "difference", "symmetric_difference"},
    {"issubset", "issuperset", "isdisjoint"},
    {"keys", "values"},
    {"min", "max"},
    {"any", "all"},
]
_SWAP = {name: group for group in COMPATIBLE_METHODS for name in group}


@dataclass(frozen=True)
class Mutant:
    code: str
    edit: str  # human-readable description, stored as provenance


def _sites(tree: ast.Module) -> list[tuple[str, ast.AST, object]]:
    sites: list[tuple[str, ast.AST, object]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in FLIP_COMPARE:
                    sites.append(("compare", node, i))
        elif isinstance(node, ast.Constant) and type(node.value) is int and not isinstance(node.value, bool):
            sites.append(("constant", node, None))
        elif isinstance(node, ast.Slice):
            for bound in ("lower", "upper", "step"):
                if isinstance(getattr(node, bound), ast.Constant) and type(getattr(node, bound).value) is int:
                    sites.append(("slice", node, bound))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in _SWAP:
                sites.append(("method", node, name))
    return sites


def _apply(kind: str, node: ast.AST, where: object, rng: random.Random) -> str:
    if kind == "compare":
        assert isinstance(node, ast.Compare) and isinstance(where, int)
        old = node.ops[where]
        node.ops[where] = FLIP_COMPARE[type(old)]()
        return f"compare {type(old).__name__} -> {type(node.ops[where]).__name__} at line {node.lineno}"
    if kind == "constant":
        assert isinstance(node, ast.Constant)
        old = node.value
        node.value = old + rng.choice((-2, -1, 1, 2)) if old not in (0, 1) else old + 1
        return f"constant {old} -> {node.value} at line {node.lineno}"
    if kind == "slice":
        assert isinstance(node, ast.Slice) and isinstance(where, str)
        bound = getattr(node, where)
        old = bound.value
        new = old + rng.choice((-1, 1))
        if where == "step" and new == 0:
            new = old + 1 if old + 1 != 0 else old - 1
        bound.value = new
        return f"slice {where} {old} -> {new} at line {bound.lineno}"
    assert isinstance(node, ast.Call) and isinstance(where, str)
    alternatives = sorted(_SWAP[where] - {where})
    new_name = rng.choice(alternatives)
    if isinstance(node.func, ast.Attribute):
        node.func.attr = new_name
    else:
        assert isinstance(node.func, ast.Name)
        node.func.id = new_name
    return f"method {where} -> {new_name} at line {node.lineno}"


def mutate_program(code: str, seed: int, count: int) -> list[Mutant]:
    """Up to `count` distinct single-edit mutants of `code`, deterministic in `seed`."""
    try:
        original = ast.unparse(ast.parse(code))
    except SyntaxError:
        return []
    rng = random.Random(f"mutate:{seed}:{code}")
    n_sites = len(_sites(ast.parse(code)))
    order = list(range(n_sites))
    rng.shuffle(order)
    mutants: list[Mutant] = []
    seen = {original}
    for index in order:
        tree = ast.parse(code)
        kind, node, where = _sites(tree)[index]  # same walk order on a fresh tree
        edit = _apply(kind, node, where, rng)
        text = ast.unparse(tree)
        if text in seen:
            continue
        seen.add(text)
        mutants.append(Mutant(text + "\n", edit))
        if len(mutants) == count:
            break
    return mutants
