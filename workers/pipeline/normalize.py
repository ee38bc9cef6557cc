"""Normalized-AST hash for dedup: two programs that differ only in the names their author
chose (functions, parameters, locals), in comments, docstrings or layout hash the same.

Builtins, imported modules and attribute names are kept: `s.upper()` and `s.lower()` are
different programs; literals are kept too (they change what the program computes).
"""

from __future__ import annotations

import ast
import builtins
import hashlib

_BUILTINS = frozenset(dir(builtins))


class NormalizeError(ValueError):
    """Code that does not parse cannot be normalized."""


class _Canonicalizer(ast.NodeTransformer):
    def __init__(self, keep: frozenset[str]) -> None:
        self.keep = keep
        self.names: dict[str, str] = {}

    def rename(self, name: str) -> str:
        if name in self.keep:
            return name
        return self.names.setdefault(name, f"_{len(self.names)}")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self.rename(node.name)
        _drop_docstring(node)
        node.returns = None
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self.rename(node.arg)
        node.annotation = None
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.rename(node.id)
        return node

    def visit_Global(self, node: ast.Global) -> ast.AST:
        node.names = [self.rename(n) for n in node.names]
        return node

    visit_Nonlocal = visit_Global  # type: ignore[assignment]


def _drop_docstring(node: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str) and len(body) > 1:
        del body[0]


def _imported_names(tree: ast.Module) -> frozenset[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
    return frozenset(names)


def normalized_dump(code: str) -> str:
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise NormalizeError(f"cannot normalize code that does not parse: {exc.msg}") from exc
    _drop_docstring(tree)
    tree = _Canonicalizer(_BUILTINS | _imported_names(tree)).visit(tree)
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def normalized_hash(code: str) -> str:
    """sha256 hex of the canonical AST dump."""
    return hashlib.sha256(normalized_dump(code).encode("utf-8")).hexdigest()
