"""Values a loop adds to its result on every turn without reading anything the loop changes.

`for ch in word: line += convert(word)` calls the helper with the same argument on every
turn; `while n > 0: ...; out.append(a == b == c)` compares the same three parameters once
per digit. Each line changes the output, so no deletion shows it, yet a person computes
such a value once, before the loop, or reads the element in it: the program teaches that a
loop repeats work for nothing. The builtin generator wrote these where a use of the whole
input (or of the outer loop's element) landed in an inner loop's slot.

A contribution is an augmented assignment to a name or an adding call on a name (`append`,
`add`, `extend`, `insert`, `update`, `appendleft`) in a loop's body, arms of its if
statements included (a nested loop is asked on its own). It is invariant when its value
reads no name the loop binds or changes (the loop's target, any name assigned in it, the
receiver of a method that changes it (`CHANGING`), a name handed to one of the program's
functions that changes its parameter). Left alone: a literal step (`count += 1`), a name the
loop's own test reads (`while pos < n: pos += step`) or that the loop reads elsewhere (a
running position), and a value that is a name (`out += sep`, `if ok: total += weight`):
what is asked is a value computed again on every turn. The
builtin self-check asks it of its own drafts (`loop_invariant_value`); the naturalness gate
does not: in code from elsewhere a call in the value may have effects of its own (the
standard library's `lo += sourceget()` reads the next character).
"""

from __future__ import annotations

import ast

ADDERS = frozenset({"append", "add", "extend", "insert", "update", "appendleft"})
# methods that change their receiver (of the built-in types the programs hold)
CHANGING = ADDERS | frozenset({"pop", "popitem", "popleft", "remove", "discard", "clear", "sort", "reverse",
                               "setdefault", "difference_update", "intersection_update",
                               "symmetric_difference_update", "extendleft", "rotate", "subtract"})


def names_in(node: ast.AST) -> set[str]:
    """Every name `node` mentions (read or written)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node


def _mutators(tree: ast.AST) -> set[str]:
    """The program's functions that change a parameter in place (`marks.pop()`, `stock['n']
    = 0`, `marks += [9]`): a loop passing them a name changes it."""
    found = set()
    for func in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        params = {a.arg for a in func.args.args}
        for node in ast.walk(func):
            roots = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CHANGING:
                roots.append(_root(node.func.value))
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                roots += [_root(t) for t in targets if isinstance(node, ast.AugAssign) or not isinstance(t, ast.Name)]
            if any(isinstance(r, ast.Name) and r.id in params for r in roots):
                found.add(func.name)
    return found


def _changed(loop: ast.For | ast.While, mutators: set[str]) -> set[str]:
    """Names the loop binds or may change: its target, names assigned anywhere in it, the
    receivers of the changing methods it calls and the names it hands a function that
    changes them."""
    names = names_in(loop.target) if isinstance(loop, ast.For) else set()
    for node in ast.walk(loop):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in mutators:
            names |= {a.id for a in node.args if isinstance(a, ast.Name)}
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names |= names_in(target)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension)):
            names |= names_in(node.target)
        elif isinstance(node, ast.NamedExpr):
            names.add(node.target.id)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                names |= names_in(target)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CHANGING:
            root = _root(node.func.value)
            if isinstance(root, ast.Name):
                names.add(root.id)
    return names


def _adder(stmt: ast.stmt) -> ast.Call | None:
    if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr in ADDERS
            and isinstance(stmt.value.func.value, ast.Name) and stmt.value.args):
        return stmt.value
    return None


def _contributions(body: list[ast.stmt]):  # noqa: ANN202 - yields (stmt, target, value)
    for stmt in body:
        call = _adder(stmt)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            yield stmt, stmt.target.id, stmt.value
        elif call is not None:
            yield stmt, call.func.value.id, call.args[-1]
        elif isinstance(stmt, ast.If):
            yield from _contributions(stmt.body)
            yield from _contributions(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield from _contributions(stmt.body)


def _read_elsewhere(loop: ast.For | ast.While, name: str, own: ast.stmt) -> bool:
    """Whether the loop reads `name` outside `own` and outside the receiver place of an
    adding call (`out.append(...)` writes `out`; `len(out) < 3` reads it)."""
    receivers = {id(c.func.value) for s in ast.walk(loop) if isinstance(s, ast.stmt) and (c := _adder(s))}
    inside = {id(n) for n in ast.walk(own)}
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               and id(n) not in inside and id(n) not in receivers for n in ast.walk(loop))


def invariant_values(code: str) -> list[str]:
    """The contributions of `code`'s loops whose value is the same on every turn."""
    found = []
    tree = ast.parse(code)
    mutators = _mutators(tree)
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        changed = _changed(loop, mutators)
        tested = names_in(loop.test) if isinstance(loop, ast.While) else set()
        for stmt, target, value in _contributions(loop.body):
            if isinstance(value, (ast.Constant, ast.Name)) or names_in(value) & changed or target in tested:
                continue  # (a literal or a name: a step, a separator, a weight; nothing computed again)
            if _read_elsewhere(loop, target, stmt):
                continue  # a running position the loop reads, not a result it only adds to
            found.append(ast.unparse(stmt))
    return found
