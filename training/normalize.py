"""Normalized ASTs: the one definition of "the same program up to naming", shared by the
pipeline's dedup hash and the exports' near-duplicate clusters and contamination checks.

Every name the author chose (functions, classes, parameters, locals, globals) becomes a
placeholder in order of first use; docstrings, annotations, decorators, comments and layout
are dropped. Builtins, imported modules, attribute names and literals are kept: `s.upper()`
and `s.lower()` are different programs, and so are `n + 1` and `n + 2`.
"""

from __future__ import annotations

import ast
import builtins
import hashlib

BUILTINS = frozenset(dir(builtins))


class NormalizeError(ValueError):
    """Code that does not parse cannot be normalized."""


class _Renamer(ast.NodeTransformer):
    def __init__(self, keep: frozenset[str]) -> None:
        self.keep = keep
        self.names: dict[str, str] = {}

    def rename(self, name: str) -> str:
        if name in self.keep:
            return name
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self.rename(node.name)
        drop_docstring(node)
        node.returns = None
        node.decorator_list = []
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self.rename(node.name)
        drop_docstring(node)
        self.generic_visit(node)
        return node

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

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        if node.value is None:
            return ast.Pass()
        return ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)


def drop_docstring(node: ast.AST) -> None:
    body = getattr(node, "body", None)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        del body[0]
        if not body:
            body.append(ast.Pass())


def imported_names(tree: ast.AST) -> frozenset[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(names)


def canonical(tree: ast.Module, keep: frozenset[str], *, drop_imports: bool = False) -> ast.Module:
    """Rename in place (names in `keep` stay); optionally drop import statements."""
    drop_docstring(tree)
    tree = _Renamer(keep).visit(tree)
    if drop_imports:
        tree.body = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))] or [ast.Pass()]
    return ast.fix_missing_locations(tree)


def parse(code: str) -> ast.Module:
    try:
        return ast.parse(code)
    except SyntaxError as exc:
        raise NormalizeError(f"cannot normalize code that does not parse: {exc.msg}") from exc


def normalized_dump(code: str) -> str:
    tree = parse(code)
    tree = canonical(tree, BUILTINS | imported_names(tree))
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def normalized_hash(code: str) -> str:
    """sha256 hex of the canonical AST dump (the pipeline's dedup key)."""
    return hashlib.sha256(normalized_dump(code).encode("utf-8")).hexdigest()
