"""What each source line is, decided from the AST (never from substrings).

The reference found loop and branch lines by substring (`for` matched `format`; METHOD.md
section 8, item 7) and took the first `def` as the entry point (item 6). Here every
statement is classified from the tree, attributed to its enclosing function, mapped from
all its physical lines to its first line (a multi-line call produces line events on its
continuation lines), and marked askable only when a question about it reads unambiguously.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache

LOOP_KINDS = ("for", "while")
BRANCH_KINDS = ("if",)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)
_NO_EVENT = (ast.Global, ast.Nonlocal)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Statement:
    line: int  # first line: what traces report and questions name
    header_end: int  # last line of a simple statement, or of a compound statement's header
    kind: str  # "for" | "while" | "if" | "return" | "except" | "try" | "simple" | "def"
    scope: str  # name of the enclosing function (code object name seen by the tracer)
    in_function: bool
    source: str  # the first line, stripped
    assigned: tuple[str, ...]  # plain names this statement binds
    askable: bool  # one statement alone on one line, emits a line event, no yield
    end: int = 0  # last line of the whole statement (a compound statement's body included)
    body_first: int | None = None  # first statement line of the body (loops, ifs)
    assigns_literal: bool = False  # `x = []`, `n = -1`: the value is written in the code
    reads: tuple[str, ...] = ()  # plain names the statement's own expressions read


@dataclass
class SourceMap:
    statements: dict[int, Statement] = field(default_factory=dict)
    line_to_statement: dict[int, int] = field(default_factory=dict)
    functions: dict[str, list[int]] = field(default_factory=dict)  # scope -> statement lines
    params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # function -> parameter names

    def statement_at(self, raw_line: int) -> Statement | None:
        start = self.line_to_statement.get(raw_line)
        return None if start is None else self.statements.get(start)

    def successor(self, line: int) -> int | None:
        """The next statement in source order within the same function (None at its end):
        where execution would go if nothing jumped."""
        stmt = self.statements[line]
        for other in self.functions.get(stmt.scope, []):
            if other > stmt.header_end:
                return other
        return None

    def last_line(self, scope: str) -> int | None:
        """The function's last statement in source order."""
        lines = self.functions.get(scope)
        return lines[-1] if lines else None

    def enclosing_loops(self, line: int) -> list[int]:
        """Header lines of the loops of the same function whose body holds `line`, innermost last."""
        stmt = self.statements[line]
        return [other for other in self.functions.get(stmt.scope, [])
                if other < line and self.statements[other].kind in LOOP_KINDS
                and self.statements[other].end >= line]


@lru_cache(maxsize=1024)
def source_map_of(code: str) -> SourceMap:
    """The map of `code`, built once per process: a program has several inputs, and the
    questions, the rationale writer and its verifier all read it (callers only read it)."""
    return build_source_map(code)


def build_source_map(code: str) -> SourceMap:
    tree = ast.parse(code)
    lines = code.split("\n")
    smap = SourceMap()
    starts: dict[int, int] = {}
    _walk(tree.body, "<module>", False, lines, smap, starts)
    for line, count in starts.items():
        if count > 1 and line in smap.statements:
            smap.statements[line] = _replace(smap.statements[line], askable=False)
    for scope, stmt_lines in smap.functions.items():
        smap.functions[scope] = sorted(set(stmt_lines))
    return smap


def _replace(stmt: Statement, **changes: object) -> Statement:
    data = stmt.__dict__ | changes
    return Statement(**data)  # type: ignore[arg-type]


def _walk(body: list[ast.stmt], scope: str, in_function: bool, lines: list[str],
          smap: SourceMap, starts: dict[int, int]) -> None:
    for index, node in enumerate(body):
        if index == 0 and in_function and _is_docstring(node):
            continue
        _add(node, scope, in_function, lines, smap, starts)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            smap.params[node.name] = tuple(x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs))
        if isinstance(node, _SCOPES):
            _walk(node.body, node.name, isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)),
                  lines, smap, starts)
            continue
        for child_body in _child_bodies(node):
            _walk(child_body, scope, in_function, lines, smap, starts)
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                _add(handler, scope, in_function, lines, smap, starts)
                _walk(handler.body, scope, in_function, lines, smap, starts)


def _child_bodies(node: ast.stmt) -> list[list[ast.stmt]]:
    bodies = []
    for name in ("body", "orelse", "finalbody"):
        value = getattr(node, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            bodies.append(value)
    if isinstance(node, ast.Match):
        bodies.extend(case.body for case in node.cases)
    return bodies


def _add(node: ast.stmt | ast.excepthandler, scope: str, in_function: bool, lines: list[str],
         smap: SourceMap, starts: dict[int, int]) -> None:
    first = node.lineno
    if isinstance(node, _SCOPES) and node.decorator_list:
        first = min(d.lineno for d in node.decorator_list)
    body = getattr(node, "body", None)
    if isinstance(node, (*_COMPOUND, ast.ExceptHandler, ast.Match, *_SCOPES)) and body:
        header_end = max(first, body[0].lineno - 1) if body[0].lineno > first else first
        same_line_body = body[0].lineno == node.lineno
    else:
        header_end = node.end_lineno or first
        same_line_body = False
    starts[first] = starts.get(first, 0) + 1
    kind = _kind(node)
    source = lines[first - 1].strip() if first - 1 < len(lines) else ""
    askable = (in_function and not same_line_body and header_end == first
               and kind not in ("def", "silent") and not _has_yield(node))
    body_first = body[0].lineno if isinstance(body, list) and body and kind in ("for", "while", "if") else None
    smap.statements[first] = Statement(first, header_end, kind, scope, in_function, source,
                                       _assigned(node), askable, node.end_lineno or header_end,
                                       body_first, _assigns_literal(node), _reads(node))
    for raw in range(first, header_end + 1):
        smap.line_to_statement[raw] = first
    if in_function and kind != "silent":
        smap.functions.setdefault(scope, []).append(first)


def _kind(node: ast.AST) -> str:
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return "for"
    if isinstance(node, ast.While):
        return "while"
    if isinstance(node, ast.If):
        return "if"
    if isinstance(node, ast.Return):
        return "return"
    if isinstance(node, ast.ExceptHandler):
        return "except"
    if isinstance(node, ast.Try):
        return "try"
    if isinstance(node, _SCOPES):
        return "def"
    if isinstance(node, _NO_EVENT) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        return "silent"  # compiles to no line event
    return "simple"


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _has_yield(node: ast.AST) -> bool:
    """Yield/await suspend the frame: "what runs next" is then another frame's business."""
    if isinstance(node, (ast.For, ast.AsyncFor)):
        parts: list[ast.AST] = [node.iter]
    elif isinstance(node, (ast.If, ast.While)):
        parts = [node.test]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        parts = [item.context_expr for item in node.items]
    elif isinstance(node, (*_COMPOUND, ast.ExceptHandler, ast.Match, *_SCOPES)):
        parts = []
    else:
        parts = [node]
    return any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for p in parts for n in ast.walk(p))


def _assigned(node: ast.AST) -> tuple[str, ...]:
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    names: list[str] = []
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and sub.id not in names:
                names.append(sub.id)
    return tuple(names)


def _assigns_literal(node: ast.AST) -> bool:
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    if value is None:
        return False
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _reads(node: ast.AST) -> tuple[str, ...]:
    """Names loaded by the statement itself (a compound statement's header only)."""
    if isinstance(node, (ast.For, ast.AsyncFor)):
        parts: list[ast.AST] = [node.iter]
    elif isinstance(node, (ast.If, ast.While)):
        parts = [node.test]
    elif isinstance(node, (*_COMPOUND, ast.ExceptHandler, ast.Match, *_SCOPES)):
        parts = []
    else:
        parts = [node]
    names: list[str] = []
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id not in names:
                names.append(sub.id)
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id not in names:
        names.append(node.target.id)
    return tuple(names)
