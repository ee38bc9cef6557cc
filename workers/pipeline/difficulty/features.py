"""Difficulty features read off the AST and the interpreter trace.

Everything is decided from the tree and the recorded events (never from substrings), so a
`for` inside a string or a name like `format` counts for nothing.
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Features:
    trace_steps: int
    lines_executed: int
    loop_iterations: int
    branch_decisions: int
    max_call_depth: int
    helper_calls: int
    variables_changed: int
    methods_used: int
    ast_nodes: int
    control_depth: int
    result_chars: int

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def _lines_of(tree: ast.AST, kinds: tuple[type, ...]) -> set[int]:
    return {node.lineno for node in ast.walk(tree) if isinstance(node, kinds)}


def _control_depth(node: ast.AST, depth: int = 0) -> int:
    deepest = depth
    for child in ast.iter_child_nodes(node):
        step = 1 if isinstance(child, (ast.For, ast.While, ast.If, ast.comprehension)) else 0
        deepest = max(deepest, _control_depth(child, depth + step))
    return deepest


def _methods(tree: ast.AST) -> int:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
            elif isinstance(node.func, ast.Name):
                names.add(node.func.id)
        elif isinstance(node, (ast.BinOp, ast.Compare, ast.Subscript)):
            names.add(type(getattr(node, "op", node)).__name__)
    return len(names)


@dataclass(frozen=True)
class _Static:
    loop_lines: frozenset[int]
    branch_lines: frozenset[int]
    methods_used: int
    ast_nodes: int
    control_depth: int


@lru_cache(maxsize=4096)
def _static(code: str) -> _Static:
    """The AST half of the features; a program has several inputs, so it is parsed once."""
    tree = ast.parse(code)
    return _Static(
        loop_lines=frozenset(_lines_of(tree, (ast.For, ast.While, ast.AsyncFor))),
        branch_lines=frozenset(_lines_of(tree, (ast.If, ast.IfExp))),
        methods_used=_methods(tree),
        ast_nodes=sum(1 for _ in ast.walk(tree)),
        control_depth=_control_depth(tree),
    )


def compute_features(code: str, entry_point: str, trace: dict | None, result_repr: str) -> Features:
    static = _static(code)
    loop_lines, branch_lines = static.loop_lines, static.branch_lines
    steps = (trace or {}).get("steps", [])
    executed: set[tuple[str, int]] = set()
    loop_iterations = branch_decisions = helper_calls = variables_changed = 0
    max_depth = 0
    last_locals: dict[tuple[str, int], dict] = {}
    for step in steps:
        event, func, line, depth = step.get("event"), step.get("func"), step.get("line"), step.get("depth", 0)
        max_depth = max(max_depth, depth)
        if event == "call" and func != entry_point:
            helper_calls += 1
        if event != "line":
            continue
        executed.add((func, line))
        if line in loop_lines:
            loop_iterations += 1
        if line in branch_lines:
            branch_decisions += 1
        frame = (func, depth)
        now = step.get("locals", {})
        before = last_locals.get(frame)
        if before is not None:
            variables_changed += sum(1 for k, v in now.items() if before.get(k) != v)
        last_locals[frame] = now
    return Features(
        trace_steps=len(steps),
        lines_executed=len(executed),
        loop_iterations=loop_iterations,
        branch_decisions=branch_decisions,
        max_call_depth=max_depth,
        helper_calls=helper_calls,
        variables_changed=variables_changed,
        methods_used=static.methods_used,
        ast_nodes=static.ast_nodes,
        control_depth=static.control_depth,
        result_chars=len(result_repr),
    )
