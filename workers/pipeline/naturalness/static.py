"""Static naturalness rules, read from the AST: each finding is a named reason.

Reasons: `dead_store` (a value bound and never read), `self_application` (`a.update(a)`,
`x - x`), `idempotent_chain` (`.lower().lower()`), `none_fallback` (`(x.m() or x)`),
`bool_arithmetic` (`'s' * (cond)`, `(cmp) + k`), `constant_condition`,
`duplicate_condition`, `contradictory_condition`. Measures that are not reasons
(constant-bounded loops, unused loop variables) are in `loop_facts`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

STATIC_REASONS = ("dead_store", "self_application", "idempotent_chain", "none_fallback",
                  "bool_arithmetic", "constant_condition", "duplicate_condition",
                  "contradictory_condition")
TRICKS = STATIC_REASONS[1:]
IDEMPOTENT = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title",
                        "capitalize", "copy", "sorted", "set", "abs", "int", "list", "tuple",
                        "swapcase", "reverse", "conjugate"})
NONE_METHODS = frozenset({"append", "extend", "insert", "remove", "sort", "reverse", "clear",
                          "add", "discard", "update", "difference_update",
                          "intersection_update", "symmetric_difference_update"})
_SELF_OPS = (ast.Sub, ast.BitXor, ast.BitAnd, ast.BitOr, ast.Div, ast.FloorDiv, ast.Mod)
_PREDICATE_PREFIXES = ("is", "startswith", "endswith")


@dataclass(frozen=True)
class Finding:
    reason: str
    line: int
    detail: str


def _functions(tree: ast.AST) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _loads(nodes: list[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _stored(target: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store) and n.id != "_"]


def dead_stores(func: ast.FunctionDef) -> list[Finding]:
    """A store no later statement can read: nothing after it in its block, in the blocks
    around it, or (inside a loop) anywhere in that loop reads the name."""
    found: list[Finding] = []
    memo: dict[int, set[str]] = {}  # the names each statement reads, walked once

    def loads(node: ast.AST) -> set[str]:
        key = id(node)
        if key not in memo:
            memo[key] = _loads([node])
        return memo[key]

    def walk(block: list[ast.stmt], later: list[ast.AST], loop: list[ast.AST]) -> None:
        for i, stmt in enumerate(block):
            after = list(block[i + 1:]) + later
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                readable = set().union(*map(loads, after + loop))
                for t in targets:
                    if isinstance(t, (ast.Subscript, ast.Attribute)):
                        continue
                    for name in _stored(t):
                        if name not in readable or _overwritten(name, block[i + 1:], loads):
                            found.append(Finding("dead_store", stmt.lineno, name))
            if isinstance(stmt, (ast.For, ast.While)):
                inner_loop = loop + [stmt]
                walk(stmt.body, after, inner_loop)
                walk(stmt.orelse, after, loop)
            elif isinstance(stmt, ast.If):
                walk(stmt.body, after, loop)
                walk(stmt.orelse, after, loop)
            elif isinstance(stmt, (ast.With, ast.Try)):
                for body in (stmt.body, getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])):
                    walk(body, after, loop)

    walk(func.body, [], [])
    return found


def _overwritten(name: str, rest: list[ast.stmt], loads) -> bool:  # noqa: ANN001
    """The next statement of the block that mentions `name` assigns it without reading it."""
    for stmt in rest:
        if name in loads(stmt):
            return False
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                for t in stmt.targets):
            return True
    return False


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
        if isinstance(node.func, ast.Name):
            return node.func.id
    return None


def _is_flag(node: ast.AST) -> bool:
    if isinstance(node, (ast.Compare, ast.BoolOp)) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    name = _call_name(node)
    return bool(name) and name.startswith(_PREDICATE_PREFIXES) and name != "isinstance"


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def tricks(tree: ast.AST) -> list[Finding]:
    found: list[Finding] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            recv = node.func.value
            if any(_same(recv, a) for a in node.args) and isinstance(recv, ast.Name):
                found.append(Finding("self_application", line, ast.unparse(node)[:60]))
            if node.func.attr in IDEMPOTENT and _call_name(recv) == node.func.attr \
                    and not node.args and not recv.args:  # type: ignore[attr-defined]
                found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in IDEMPOTENT and len(node.args) == 1 \
                and _call_name(node.args[0]) == node.func.id:
            found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) \
                and isinstance(node.value, ast.Subscript) and isinstance(node.value.slice, ast.Slice) \
                and _same(node.slice, node.value.slice) and node.slice.lower is None \
                and node.slice.upper is None:
            found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) \
                and _call_name(node.values[0]) in NONE_METHODS:
            found.append(Finding("none_fallback", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.BinOp) and (_is_flag(node.left) or _is_flag(node.right)) \
                and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            found.append(Finding("bool_arithmetic", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.BinOp) and isinstance(node.op, _SELF_OPS) \
                and _same(node.left, node.right) and not isinstance(node.left, ast.Constant):
            found.append(Finding("self_application", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.AugAssign) and isinstance(node.op, _SELF_OPS) \
                and _same(node.target, node.value):
            found.append(Finding("self_application", line, ast.unparse(node)[:60]))
    found += conditions(tree)
    return found


def _constant(test: ast.expr) -> bool:
    if not any(isinstance(n, ast.Name) for n in ast.walk(test)):
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _same(test.left, test.comparators[0]):
        return True
    return False


def _negation(a: ast.expr, b: ast.expr) -> bool:
    """b is `not a`, or the same comparison with the opposite operator."""
    if isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.Not) and _same(b.operand, a):
        return True
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.Not) and _same(a.operand, b):
        return True
    opposite = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
                ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In}
    if isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and len(a.ops) == len(b.ops) == 1:
        return (opposite.get(type(a.ops[0])) is type(b.ops[0]) and _same(a.left, b.left)
                and _same(a.comparators[0], b.comparators[0]))
    return False


def conditions(tree: ast.AST) -> list[Finding]:
    """Constant tests; a test repeated in its own chain or inside an arm it guards; an
    elif that is the negation of an earlier test (the rest of the chain cannot run)."""
    found: list[Finding] = []

    def visit(stmts: list[ast.stmt], guards: list[ast.expr]) -> None:
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                chain, node = [], stmt
                while True:
                    chain.append(node)
                    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                        node = node.orelse[0]
                        continue
                    break
                tests: list[ast.expr] = []
                for link in chain:
                    t = link.test
                    if _constant(t):
                        found.append(Finding("constant_condition", link.lineno, ast.unparse(t)))
                    if any(_same(t, g) for g in tests + guards):
                        found.append(Finding("duplicate_condition", link.lineno, ast.unparse(t)))
                    if any(_negation(g, t) for g in tests):
                        found.append(Finding("contradictory_condition", link.lineno, ast.unparse(t)))
                    visit(link.body, guards + [t])
                    tests.append(t)
                visit(chain[-1].orelse, guards)
            elif isinstance(stmt, ast.While):
                if _constant(stmt.test) and not (isinstance(stmt.test, ast.Constant)
                                                 and stmt.test.value is True):
                    found.append(Finding("constant_condition", stmt.lineno, ast.unparse(stmt.test)))
                visit(stmt.body, guards)
            elif isinstance(stmt, (ast.For, ast.With, ast.Try, ast.FunctionDef)):
                for body in (stmt.body, getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])):
                    visit(body, guards)

    visit(tree.body if isinstance(tree, ast.Module) else [], [])
    return found


def static_findings(code: str) -> list[Finding]:
    tree = ast.parse(code)
    found: list[Finding] = []
    for func in _functions(tree):
        found += dead_stores(func)
    return found + tricks(tree)


@dataclass(frozen=True)
class LoopFacts:
    loops: int
    constant_bounded: int
    unused_loop_vars: int


def _const_expr(node: ast.expr | None) -> bool:
    return node is None or not any(isinstance(n, ast.Name) for n in ast.walk(node))


def loop_facts(code: str) -> LoopFacts:
    """Loops whose trip count is fixed by a literal (`x[:3]`, `range(4)`, `c < 3` on a
    counter started at a literal), and for-loop variables the body never reads."""
    tree = ast.parse(code)
    const_names = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign)
                   and isinstance(n.value, ast.Constant) for t in n.targets if isinstance(t, ast.Name)}
    loops = constant = unused = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.For):
            loops += 1
            it = node.iter
            if isinstance(it, (ast.List, ast.Tuple, ast.Set, ast.Constant)) \
                    or (_call_name(it) == "range" and all(_const_expr(a) for a in it.args)) \
                    or (isinstance(it, ast.Subscript) and isinstance(it.slice, ast.Slice)
                        and it.slice.upper is not None and _const_expr(it.slice.upper)
                        and _const_expr(it.slice.lower)):
                constant += 1
            names = _stored(node.target) or ["_"]
            if not set(names) & _loads(node.body + node.orelse):
                unused += 1
        elif isinstance(node, ast.While):
            loops += 1
            t = node.test
            if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.left, ast.Name) \
                    and t.left.id in const_names and _const_expr(t.comparators[0]):
                constant += 1
    return LoopFacts(loops, constant, unused)
