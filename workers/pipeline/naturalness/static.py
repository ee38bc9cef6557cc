"""Static naturalness rules, read from the AST: each finding is a named reason.

Reasons: `dead_store` (a value bound and never read, or a dict key given twice),
`unread_parameter` (a parameter the function never reads; a method's `self` / `cls` is exempt),
`unused_definition` (an import, function, class or module-level name that nothing in the program
reads: a helper the entry never calls, an `import math` with no `math.` after it, a function
defined inside another and never called), `empty_block` (an arm or loop body that is only
`pass`: `else: pass`, `if x > k: pass` before an `else` that does the work), `single_turn_loop`
(a loop that can only turn once: `for _ in range(1)`, `for ys in [xs]`, a `while` whose body
ends in a plain `break`), `obscured_code` (`exec`, `eval`, `compile`, `__import__`,
`globals()` / `locals()` / `vars()`, `getattr(x, 'name')` with the name written out, a dunder
method called (`x.__add__(0)`; `key=xs.__getitem__` is an idiom), an identifier outside ASCII
such as a Cyrillic `к`), `self_application` (`a.update(a)`,
`x - x`), `idempotent_chain` (`.lower().lower()`, `s.add(v)` twice in a row, a pad no
wider than the pad inside it: `s.zfill(12).zfill(5)`, or a normalizer applied to a value
made of its own results: `sorted(w.lower() for w in ws)[0].lower()`), `none_fallback` (`(x.m() or x)`),
`bool_arithmetic` (`'s' * (cond)`, `(cmp) + k`), `constant_condition` (no name in it, or
a size compared against a bound its sign decides: `abs(r) > -1`, `len(s) >= 0`; a slice
of a value looked for in it: `s[1:4] in s`),
`duplicate_condition` (also `x in (4, 4)`), `contradictory_condition`, `duplicate_arms` (two arms of one test
that do the same: `if a: x += 1` / `elif b: x += 1` is one test, `if a or b:`; a
conditional expression whose value is the same either way: `a if t else a`,
`a if a.copy() == b else b`), `identity_operation` (an operand given back unchanged: `x * 1`,
`n + 0`, `s + ''`, `v ** 1`, `total -= 0`, `(xs + [v]).pop()`, `x & -1`, `xs + []`,
`x * (3 // 3)`, `[x][0]`, `sum([x])`, `pow(x, 1)`, `s[0:]`, `xs[::1]`, `s[:len(s)]`,
`(a < b) == True`), `repeated_update` (`x *= 2`
twice in a row: one update by the combined amount), `discarded_values` (values computed
only to be counted: `len([w.strip() for w in words])`, `len(sorted(xs))`, `len(s.upper())`,
`len({k: v ...})`, `len((a, b, c))`; keys a `format_map` mapping gives that its template
never names), `predicate_fallback` (a predicate asked again of the
value it chose, with a constant to fall back on: `(w if w.isalpha() else 'red').isalpha()`
is `w.isalpha()` or a fixed answer; or with a fallback it answers alike: `bool(v if bool(v)
else v * 10)` is `bool(v)`).
Measures that are not reasons (constant-bounded loops, unused loop variables) are in
`loop_facts`.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import string
from dataclasses import dataclass

STATIC_REASONS = ("dead_store", "unread_parameter", "unused_definition", "empty_block", "single_turn_loop",
                  "obscured_code", "self_application", "idempotent_chain", "none_fallback",
                  "bool_arithmetic", "constant_condition", "duplicate_condition",
                  "contradictory_condition", "duplicate_arms", "identity_operation", "repeated_update",
                  "discarded_values", "predicate_fallback")
TRICKS = STATIC_REASONS[4:]  # (loops that turn once and obscured code count as tricks)
IDEMPOTENT = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title",
                        "capitalize", "copy", "sorted", "set", "abs", "int", "list", "tuple",
                        "swapcase", "reverse", "conjugate", "str", "float", "bool", "frozenset", "round"})
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


def _loads(nodes: list[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _stored(target: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store) and n.id != "_"]


def dead_stores(func: ast.FunctionDef, method: bool = False) -> list[Finding]:
    """A store no later statement can read: nothing after it in its block, in the blocks
    around it, or (inside a loop) anywhere in that loop reads the name; and the parameters
    the body never reads (`method`: the first is `self` / `cls`)."""
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
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and stmt.name not in set().union(*map(loads, after + loop)):
                found.append(Finding("unused_definition", stmt.lineno, stmt.name))
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
    return found + unread_parameters(func, method, set().union(*map(loads, func.body)))


def unread_parameters(func: ast.FunctionDef | ast.AsyncFunctionDef, method: bool, read: set[str]) -> list[Finding]:
    """Parameters the function never reads (`def f(words, cutoff)` that never looks at
    `cutoff`; `read`: the names its body reads): a value the caller passes for nothing. A
    method's `self` / `cls` is exempt."""
    a = func.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]
    if method and params and params[0] in (a.posonlyargs + a.args)[:1]:
        params = params[1:]
    return [Finding("unread_parameter", func.lineno, p.arg) for p in params
            if p.arg not in read and p.arg != "_"]


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
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "bool") \
            and len(node.args) == 1 and not node.keywords:
        return _is_flag(node.args[0])  # a truth value written as a number: `int(n != 1)`
    if isinstance(node, ast.BoolOp):  # (`name or 'anon'` is a value, `a > 1 or b < 2` a truth)
        return all(_is_flag(v) for v in node.values)
    if isinstance(node, ast.Compare) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    name = _call_name(node)
    return bool(name) and name.startswith(_PREDICATE_PREFIXES) and name != "isinstance"


def _compound_findings(node: ast.AST, kind: type, line: int) -> list[Finding]:
    """The findings of the newer rules that only compound nodes can have."""
    found = []
    if why := _gives_back_whole(node):
        found.append(Finding("identity_operation", line, f"{ast.unparse(node)[:60]} ({why})"))
    if kind in (ast.For, ast.AsyncFor, ast.While) and (why := _single_turn(node)):
        found.append(Finding("single_turn_loop", line, why))
    if kind is ast.BoolOp and (decided := _decided_operand(node)):
        found.append(Finding(decided[0], line, decided[1]))
    if kind is ast.comprehension:
        found += [Finding("constant_condition", line or getattr(node.target, "lineno", 0), ast.unparse(t)[:60])
                  for t in node.ifs if _constant(t)]
    if kind in (ast.FunctionDef, ast.AsyncFunctionDef) and _gives_argument_back(node):
        found.append(Finding("identity_operation", line, f"{node.name} gives its argument back"))
    if kind is ast.Call and (why := _order_dropped(node)):
        found.append(Finding("discarded_values", line, f"{ast.unparse(node)[:60]} ({why})"))
    if _none_in_display(node):
        found.append(Finding("none_fallback", line, ast.unparse(node)[:60]))
    return found


_NAMED = frozenset({ast.Name, ast.arg, ast.Attribute, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Call})
_COMPOUND = frozenset({ast.UnaryOp, ast.Call, ast.Lambda, ast.For, ast.AsyncFor, ast.While, ast.BoolOp,
                       ast.comprehension, ast.FunctionDef, ast.AsyncFunctionDef, ast.Subscript})

_HIDDEN_CALLS = frozenset({"exec", "eval", "compile", "__import__", "globals", "locals", "vars"})
_NAMED_ATTRIBUTE = frozenset({"getattr", "setattr", "delattr", "hasattr"})


def _obscured(node: ast.AST) -> str:
    """Why `node` hides what the program does from a reader (and from these rules), or ''."""
    kind = type(node)
    name = node.id if kind is ast.Name else node.arg if kind is ast.arg else node.attr if kind is ast.Attribute \
        else node.name if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) else None
    if name is not None:
        return "" if name.isascii() else f"a name outside ASCII: {name!r}"
    if kind is not ast.Call:
        return ""
    if isinstance(node.func, ast.Name):
        if node.func.id in _HIDDEN_CALLS:
            return f"{node.func.id}()"
        if node.func.id in _NAMED_ATTRIBUTE and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            return f"{node.func.id}(..., {node.args[1].value!r}): the attribute written out as text"
    if isinstance(node.func, ast.Attribute) and node.func.attr.startswith("__") \
            and node.func.attr.endswith("__"):  # (`key=xs.__getitem__`, a reference, is an idiom)
        return f"a dunder method called: .{node.func.attr}()"
    if _through_class(node):
        return f"a method called through its class: {ast.unparse(node.func)}(...)"
    return ""


_BUILTIN_TYPES = {t.__name__: t for t in (str, bytes, list, tuple, dict, set, frozenset, int, float, complex)}
_METHOD_KIND = type(str.upper)  # an instance method (not `dict.fromkeys`, `str.maketrans`, `int.from_bytes`)


def _through_class(node: ast.Call) -> bool:
    """`str.upper(w)`, `list.append(xs, 4)`: an instance method called through its class on a
    value (`w.upper()`); `str.format('{}', x)` and `str.join(',', parts)` (a literal first)
    and references (`key=str.lower`, not calls) are left."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id in _BUILTIN_TYPES and node.args and not isinstance(node.args[0], ast.Constant)):
        return False
    return type(inspect.getattr_static(_BUILTIN_TYPES[func.value.id], func.attr, None)) is _METHOD_KIND


def _single_turn(loop: ast.For | ast.AsyncFor | ast.While) -> str:
    """Why `loop` turns at most once, or ''."""
    if isinstance(loop, ast.While):
        last = loop.body[-1] if loop.body else None
        if isinstance(last, ast.Break) and not any(isinstance(n, ast.Continue) for n in ast.walk(loop)):
            return "a while whose body always ends in break"
        return ""
    it = loop.iter
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)) and len(it.elts) == 1 and not isinstance(it.elts[0], ast.Starred):
        return f"a for over the one item of {ast.unparse(it)[:40]}"
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords \
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in it.args) and it.args:
        bounds = [a.value for a in it.args]
        if len(bounds) <= 3 and (len(bounds) < 3 or bounds[2] != 0) and len(range(*bounds)) == 1:
            return f"a for over {ast.unparse(it)}"
    return ""


def _decided_operand(node: ast.BoolOp) -> tuple[str, str] | None:
    """(reason, detail) for an operand of `and` / `or` that the operands before it decide
    (`x > 3 and x > 2`, `x < k or x < k`, `s or not s`) or that is constant (`i == i`)."""
    facts: list[_Fact] = []
    for k, value in enumerate(node.values):
        if k < len(node.values) - 1 and _constant(value):  # (the last is the value: `name or 'anon'`)
            return "constant_condition", f"{ast.unparse(value)[:60]} (one answer on every input)"
        if facts and _decided(value, facts) is not None:
            return "duplicate_condition", f"{ast.unparse(value)[:60]} (decided by the operands before it)"
        facts.append(_Fact(value, isinstance(node.op, ast.And)))  # (reached only when those held / failed)
    return None


def _gives_argument_back(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A helper whose whole body returns one of its parameters unchanged."""
    params = {a.arg for a in func.args.args}
    return len(func.body) == 1 and isinstance(func.body[0], ast.Return) \
        and isinstance(func.body[0].value, ast.Name) and func.body[0].value.id in params


_ORDERLESS = frozenset({"sum", "max", "min", "set", "frozenset", "any", "all", "len"})


def _order_dropped(node: ast.Call) -> str:
    """`sum(sorted(xs))`, `max(reversed(xs))`, `len(xs[::-1])`: an ordering whose order the
    consumer throws away."""
    if not (isinstance(node.func, ast.Name) and node.func.id in _ORDERLESS and len(node.args) == 1) \
            or node.keywords:  # (`max(reversed(ws), key=len)`: the order breaks ties)
        return ""
    arg = node.args[0]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in _ORDERINGS:
        return f"{node.func.id} does not read the order {arg.func.id} made"
    if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice) and arg.slice.lower is None \
            and arg.slice.upper is None and isinstance(arg.slice.step, ast.UnaryOp) \
            and _const_value(arg.slice.step) == -1:
        return f"{node.func.id} does not read the order [::-1] made"
    return ""


def _none_in_display(node: ast.AST) -> bool:
    """`[xs.sort(), xs][1]`, `(xs.append(v), xs)[-1]`, `not xs.sort() and xs`: a call that
    returns None made an expression so that its effect rides along."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.List, ast.Tuple)):
        return any(_call_name(e) in NONE_METHODS for e in node.value.elts)
    if isinstance(node, ast.BoolOp) and isinstance(node.values[0], ast.UnaryOp) \
            and isinstance(node.values[0].op, ast.Not):
        return _call_name(node.values[0].operand) in NONE_METHODS
    return False


def _const_value(node: ast.expr) -> object:
    """The value of a sub-expression that reads no name (`2 - 1`, `len('')`, `0 * y`), or None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _const_value(node.operand)
        return -v if type(v) in (int, float) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, (str, bytes)):
        return len(node.args[0].value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args and not node.keywords \
            and node.func.id in _EMPTY_CALLS:
        return _EMPTY_CALLS[node.func.id]  # `int()`, `str()`, `list()`
    if isinstance(node, (ast.List, ast.Tuple)) and not node.elts:
        return [] if isinstance(node, ast.List) else ()
    if isinstance(node, ast.BinOp):
        left, right = _const_value(node.left), _const_value(node.right)
        if isinstance(node.op, ast.Mult) and (left == 0 and type(left) is int or right == 0 and type(right) is int):
            return 0  # (zero times anything)
        if type(left) in (int, float) and type(right) in (int, float):
            return _folded(node.op, left, right)
    return None


_EMPTY_CALLS = {"int": 0, "float": 0.0, "str": "", "bool": False, "list": [], "tuple": ()}


def _folded(op: ast.operator, a: int | float, b: int | float) -> object:
    """`a op b` for small literal operands (`3 // 3`, `2 ** 0`, `1 << 0`), or None."""
    whole = type(a) is int and type(b) is int
    try:
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.FloorDiv):
            return a // b
        if isinstance(op, ast.Mod):
            return a % b
        if isinstance(op, ast.Pow) and abs(b) <= 64 and abs(a) <= 2 ** 16:
            return a ** b
        if whole and isinstance(op, ast.BitAnd):
            return a & b
        if whole and isinstance(op, ast.BitOr):
            return a | b
        if whole and isinstance(op, ast.BitXor):
            return a ^ b
        if whole and isinstance(op, (ast.LShift, ast.RShift)) and 0 <= b <= 64:
            return a << b if isinstance(op, ast.LShift) else a >> b
    except (ZeroDivisionError, OverflowError):
        return None
    return None


_CASES = frozenset({"lower", "upper", "casefold", "title", "capitalize", "swapcase"})


def _unwrapped_sequence(node: ast.expr) -> ast.expr:
    """`node` without `list(...)` / `tuple(...)` around it (`sorted(list(sorted(xs)))`)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SEQUENCES \
            and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    return node


def _case_overridden(node: ast.AST) -> bool:
    """`s.upper().lower()`, `s.title().casefold()`: a case change the one after it overrides."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
        and node.func.attr in ("lower", "upper", "casefold") and isinstance(inner := node.func.value, ast.Call) \
        and isinstance(inner.func, ast.Attribute) and inner.func.attr in _CASES and not inner.args \
        and inner.func.attr != node.func.attr  # (the same twice is the idempotent chain above)


# a normalizer's value made only of its own results is already normal: `.lower()` of the
# smallest of lowered words; for the case changes, of lowered words joined by a caseless
# separator too (a `.title()` needs one that is not empty: 'ab' 'cd' joined is one word)
_RENORMALIZED = frozenset({"lower", "upper", "casefold", "title", "capitalize", "swapcase",
                           "strip", "lstrip", "rstrip"})
_CHARWISE = frozenset({"lower", "upper", "casefold", "swapcase"})


def _normalized_again(node: ast.Call) -> str:
    """`sorted(w.lower() for w in ws)[0].lower()`, `'-'.join(p.upper() for p in ps).upper()`,
    `(a.strip() if c else b.strip()).strip()`: a method applied to a value made only of its
    own results (with the same arguments) changes nothing, or for `swapcase` undoes them,
    or for `capitalize` of a joined text overrides them. Direct chains are the rule above."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in _RENORMALIZED or node.keywords:
        return ""
    recv = func.value
    if isinstance(recv, ast.Call) and _call_name(recv) == func.attr:
        return ""  # (`s.lower().lower()`: the direct chain, found above)
    made = _made_of(recv, func.attr, node.args)
    if not made:
        return ""
    if func.attr == "swapcase":
        return "a case swap undoing the one inside"
    if made == "joined" and func.attr == "capitalize":
        return "capitalizing the whole overrides each part's"
    return f"what it applies to already had .{func.attr}()"


def _made_of(node: ast.expr, method: str, args: list[ast.expr]) -> str:
    """Whether `node`'s value is one of `.method(*args)`'s results ("item"), or text joined
    from them ("joined"); "" when not."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method \
            and not node.keywords and _same(node.args, args):
        return "item"
    if isinstance(node, ast.IfExp):
        body, orelse = _made_of(node.body, method, args), _made_of(node.orelse, method, args)
        return "item" if body == orelse == "item" else ""
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
        return "item" if _items_made_of(node.value, method, args) else ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max", "next") \
            and len(node.args) == 1 and not node.keywords:
        return "item" if _items_made_of(node.args[0], method, args) else ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
            and isinstance(sep := node.func.value, ast.Constant) and isinstance(sep.value, str) \
            and len(node.args) == 1 and not node.keywords and method in _CHARWISE | {"title", "capitalize"} \
            and not any(c.isalpha() for c in sep.value) and (sep.value or method in _CHARWISE) \
            and _items_made_of(node.args[0], method, args):
        return "joined"
    return ""


def _items_made_of(node: ast.expr, method: str, args: list[ast.expr]) -> bool:
    """Whether every item of the sequence `node` is one of `.method(*args)`'s results:
    a comprehension of them, perhaps sorted, reversed or made a list."""
    node = _unwrapped_sequence(node)
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("sorted", "reversed") \
            and len(node.args) == 1:
        node = _unwrapped_sequence(node.args[0])
    return isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp)) \
        and _made_of(node.elt, method, args) == "item"


def _gives_back_whole(node: ast.AST) -> str:
    """An operation that gives its operand back whole: `-(-x)`, `not not x`, `+x`, `min(x, x)`,
    `s.replace(a, a)`, a function that returns its own argument (`lambda v: v`)."""
    if type(node) not in (ast.UnaryOp, ast.Call, ast.Lambda):
        return ""
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.UAdd):
            return "a plus sign changes nothing"
        if isinstance(node.operand, ast.UnaryOp) and type(node.operand.op) is type(node.op) \
                and isinstance(node.op, (ast.USub, ast.Not, ast.Invert)):
            return "negated twice"
    if isinstance(node, ast.Call) and _call_name(node) in ("min", "max") and isinstance(node.func, ast.Name) \
            and len(node.args) == 2 and not node.keywords and _same(node.args[0], node.args[1]):
        return "the same value twice"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
            and len(node.args) == 2 and _same(node.args[0], node.args[1]):
        return "replaced by itself"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reversed" \
            and len(node.args) == 1 and _call_name(_unwrapped_sequence(node.args[0])) == "reversed":
        return "reversed twice"
    if isinstance(node, ast.Lambda) and len(node.args.args) == 1 and isinstance(node.body, ast.Name) \
            and node.body.id == node.args.args[0].arg:
        return "a function that gives its argument back"
    return ""


def _same(a: object, b: object) -> bool:
    """Structural equality, as `ast.dump(a) == ast.dump(b)` (fields, not positions), but
    stopping at the first difference instead of writing both trees out: the gate and the
    generator compare many pairs that differ at once (every statement with the next one)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ast.AST):
        return all(_same(getattr(a, f, None), getattr(b, f, None)) for f in a._fields)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


def tricks(tree: ast.AST, nodes: list[ast.AST]) -> list[Finding]:
    """Trick idioms in `tree`, whose nodes in `ast.walk` order are `nodes`."""
    found: list[Finding] = []
    tests = {id(n.test) for n in nodes if isinstance(n, (ast.If, ast.While, ast.IfExp))}  # (read by `conditions`)
    for node in nodes:
        line = getattr(node, "lineno", 0)
        if id(node) not in tests and _one_answer(node):  # a value: `n += s[:1] in s`
            found.append(Finding("constant_condition", line, ast.unparse(node)[:60] + " (one answer on every input)"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            recv = node.func.value
            if any(_same(recv, a) for a in node.args) and isinstance(recv, ast.Name):
                found.append(Finding("self_application", line, ast.unparse(node)[:60]))
            if node.func.attr in IDEMPOTENT and _call_name(recv) == node.func.attr \
                    and not node.args and not recv.args:  # type: ignore[attr-defined]
                found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in IDEMPOTENT and len(node.args) == 1 \
                and _call_name(inner := _unwrapped_sequence(node.args[0])) == node.func.id \
                and (node.func.id != "round" or len(inner.args) == 1):  # (round(round(x, 2)) rounds twice)
            found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if _case_overridden(node):
            found.append(Finding("idempotent_chain", line, f"{ast.unparse(node)[:60]} (a case change the next overrides)"))
        if isinstance(node, ast.Call) and (why := _normalized_again(node)):
            found.append(Finding("idempotent_chain", line, f"{ast.unparse(node)[:60]} ({why})"))
        kind = type(node)
        if kind in _NAMED and (why := _obscured(node)):
            found.append(Finding("obscured_code", line, why))
        if kind in _COMPOUND:  # (names, constants and contexts, most nodes, need none of these)
            found += _compound_findings(node, kind, line)
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and (why := _single_turn(node)):
            found.append(Finding("single_turn_loop", line, why))
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
        if isinstance(node, ast.IfExp):
            found += _conditional_expression(node)
        if isinstance(node, ast.Compare) and _repeated_member(node):
            found.append(Finding("duplicate_condition", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Call) and _predicate_fallback(node):
            found.append(Finding("predicate_fallback", line, ast.unparse(node)[:60]))
        if isinstance(node, (ast.BinOp, ast.AugAssign)) and _gives_back(node):
            found.append(Finding("identity_operation", line, ast.unparse(node)[:60]))
        if kind in (ast.Subscript, ast.Call, ast.Compare) and (why := _identity_access(node)):
            found.append(Finding("identity_operation", line, f"{ast.unparse(node)[:60]} ({why})"))
        if isinstance(node, ast.Call) and _pads_within(node):
            found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Call) and _popped_straight_back(node):
            found.append(Finding("identity_operation", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Call) and _call_name(node) == "filter" and len(node.args) == 2 \
                and _call_name(node.args[1]) == "filter" and isinstance(node.args[1].func, ast.Name) \
                and len(node.args[1].args) == 2 and _same(node.args[0], node.args[1].args[0]):
            found.append(Finding("idempotent_chain", line, ast.unparse(node)[:60]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                and len(node.args) == 1 and (why := discarded(node.args[0])):
            found.append(Finding("discarded_values", line, f"{ast.unparse(node)[:60]} ({why})"))
        if isinstance(node, ast.Call) and (unnamed := _unnamed_keys(node)):
            found.append(Finding("discarded_values", line, f"{ast.unparse(node)[:60]} (keys the template never"
                                 f" names: {', '.join(map(repr, unnamed))})"))
    found += repeated_effects(nodes)
    found += conditions(tree)
    return found


def _repeated_member(node: ast.Compare) -> bool:
    """`x in (4, 4)`, `w not in ['a', 'b', 'a']`: a membership test in a written collection
    that names one value twice (`x == 4 or x == 4`)."""
    for op, right in zip(node.ops, node.comparators):
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            values = [repr(e.value) for e in right.elts if isinstance(e, ast.Constant)]
            if len(values) != len(set(values)):
                return True
    return False


# methods of str whose result has the length of their receiver (casefold may lengthen a
# 'ß', which no program's data holds: a case change before `len` is still not what it counts)
_SAME_LENGTH = frozenset({"upper", "lower", "title", "capitalize", "swapcase", "casefold"})
_ORDERINGS = frozenset({"sorted", "reversed"})
_SEQUENCES = frozenset({"list", "tuple"})


def discarded(node: ast.expr) -> str:
    """Why `len(node)` throws away the values `node` computes ('' when it does not): the
    count of a list of mapped items (`len([w.strip() for w in ws])`, `len(list(map(f, xs)))`)
    is the count of the items, of a sorted or reversed copy the count of the original, of a
    case change the length of the text, and a dict comprehension's values are never read
    (a set comprehension counts the distinct keys). A slice of any of them (`[...][:3]`), or
    a list of them (`list({...}.values())`),
    still only counts. A filter that keeps the items themselves (`[x for x in xs if x > 0]`,
    `[(i, x) for i, x in ...]`) and a set of mapped items (`{w.lower() for w in ws}`, whose
    distinct values count) count something the values decide."""
    def called(n: ast.AST, names: frozenset[str]) -> bool:  # a call of a builtin among names
        return isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names

    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        node = node.value
    if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return "a display's size is fixed by the text"
    if called(node, _SEQUENCES) and len(node.args) == 1 and not node.keywords:
        inner = node.args[0]
        if isinstance(inner, (ast.GeneratorExp, ast.Call)):
            node = inner
        if called(inner, frozenset({"map"})):
            return "mapped values only counted"
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        targets = {n.id for gen in node.generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
        items = node.elt.elts if isinstance(node.elt, ast.Tuple) else [node.elt]
        if not all(isinstance(e, ast.Name) and e.id in targets for e in items):
            return "mapped values only counted"
    if isinstance(node, ast.DictComp):
        return "a dict comprehension's values are never read"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
        if node.func.attr in ("keys", "values", "items") and isinstance(node.func.value, ast.DictComp):
            return "a dict comprehension's values are never read"
    if called(node, _ORDERINGS):
        return f"{node.func.id} order only counted"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SAME_LENGTH \
            and not node.args:
        return f".{node.func.attr}() keeps the length"
    return ""


_SETTLED_OPS = (ast.BitOr, ast.BitAnd, ast.BitXor)  # x |= a twice is x |= a once; x ^= a twice undoes it
_SETTLED_METHODS = frozenset({"add", "update", "discard", "clear", "sort", "reverse", "difference_update",
                              "intersection_update", "symmetric_difference_update"})


# the operand that gives the other back: x + 0, x * 1, x ** 1 (// 1 floors a float, / 1 makes
# an int a float: neither is here)
_IDENTITIES = {ast.Add: (0, "", [], ()), ast.Sub: (0,), ast.Mult: (1,), ast.Pow: (1,), ast.BitOr: (0,),
               ast.BitXor: (0,), ast.LShift: (0,), ast.RShift: (0,), ast.BitAnd: (-1,)}
_COMMUTING = (ast.Add, ast.Mult, ast.BitOr, ast.BitXor)


def _identity(node: ast.expr, op: ast.operator) -> bool:
    value = _const_value(node)  # (`x * (2 - 1)`, `x + len('')`, `x + 0 * y`, `s * True`, `x * 2 ** 0`)
    # (not a float: `n + 0.0` and `1.0 * n` make an int a float)
    return type(value) in (int, str, bool, list, tuple) and value in _IDENTITIES.get(type(op), ())


def _identity_access(node: ast.AST) -> str:
    """Why `node` gives a value back by a longer road, or '': the one item of a display
    (`[x][0]`, `sum([x])`), a whole slice spelled out (`s[0:]`, `xs[::1]`, `s[:len(s)]`;
    `xs[:]`, a copy, is an idiom), `pow(x, 1)`, a comparison compared with True."""
    if isinstance(node, ast.Subscript):
        shown, index = node.value, node.slice
        if isinstance(shown, (ast.List, ast.Tuple)) and len(shown.elts) == 1 \
                and not isinstance(shown.elts[0], ast.Starred) and _const_value(index) in (0, -1) \
                and type(_const_value(index)) is int:
            return "the one item of a display"
        if isinstance(index, ast.Slice):
            lower, upper, step = index.lower, index.upper, index.step
            whole_upper = upper is None or (isinstance(upper, ast.Call) and _call_name(upper) == "len"
                                            and isinstance(upper.func, ast.Name) and len(upper.args) == 1
                                            and _same(upper.args[0], shown))
            if (lower is None or _const_value(lower) == 0) and whole_upper \
                    and (step is None or _const_value(step) == 1) \
                    and (lower, upper, step) != (None, None, None):
                return "a whole slice spelled out"
        return ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id == "pow" and len(node.args) == 2 and _const_value(node.args[1]) == 1:
            return "a power of one"
        if node.func.id == "sum" and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple)) \
                and len(node.args[0].elts) == 1 and not isinstance(node.args[0].elts[0], ast.Starred):
            return "the sum of one item"
        return ""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 \
            and isinstance(node.left, (ast.Compare, ast.UnaryOp)) \
            and (not isinstance(node.left, ast.UnaryOp) or isinstance(node.left.op, ast.Not)):
        right, op = node.comparators[0], node.ops[0]
        if isinstance(right, ast.Constant) and right.value is (isinstance(op, (ast.Eq, ast.Is))) \
                and isinstance(op, (ast.Eq, ast.Is, ast.NotEq, ast.IsNot)):
            return "a comparison compared with " + repr(right.value)
    return ""


def _gives_back(node: ast.BinOp | ast.AugAssign) -> bool:
    """`x * 1`, `0 + n`, `s + ''`, `total -= 0`: the operation gives its other operand back."""
    right = node.right if isinstance(node, ast.BinOp) else node.value
    if isinstance(node, ast.BinOp) and _const_value(node.left) is not None and _const_value(right) is not None:
        return False  # arithmetic on literals alone (`FLAG = 1 << 0`) gives nothing back
    if _identity(right, node.op):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, _COMMUTING) and _identity(node.left, node.op)


_PADS = frozenset({"zfill", "ljust", "rjust", "center"})
_FORMAT_WIDTH = re.compile(r"(?:.?[<>^=])?[+\- ]?0?(\d+)")


def _pad(node: ast.AST) -> tuple[int, ast.expr] | None:
    """(the width, the padded value) of a pad to a literal width: `s.ljust(8)`,
    `s.zfill(5)`, `format(s, '*^9')`."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func, first = node.func, node.args[0]
    if isinstance(func, ast.Attribute) and func.attr in _PADS and isinstance(first, ast.Constant) \
            and type(first.value) is int:
        return first.value, func.value
    if isinstance(func, ast.Name) and func.id == "format" and len(node.args) == 2 \
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
            and (m := _FORMAT_WIDTH.fullmatch(node.args[1].value)):
        return int(m.group(1)), first
    return None


def _pads_within(node: ast.Call) -> bool:
    """A pad of a padded text no wider than the pad inside it (`s.zfill(12).zfill(5)`,
    `s.ljust(5).ljust(5, '#')`): the text is already that wide, the outer pad changes nothing."""
    outer = _pad(node)
    inner = _pad(outer[1]) if outer else None
    return inner is not None and outer[0] <= inner[0]


def _popped_straight_back(node: ast.Call) -> bool:
    """`(xs + [v]).pop()` is `v`: a value put at the end of a new list only to be taken
    straight back off it (the list is thrown away)."""
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "pop" and not node.keywords
            and (not node.args or ast.unparse(node.args[0]) == "-1")
            and isinstance(func.value, ast.BinOp) and isinstance(func.value.op, ast.Add)
            and isinstance(func.value.right, ast.List) and len(func.value.right.elts) == 1
            and not isinstance(func.value.right.elts[0], ast.Starred))


def repeated_effects(nodes: list[ast.AST]) -> list[Finding]:
    """The same change written twice in a row where the second changes nothing or undoes
    the first (`s.add(v)` / `s.add(v)`, `x ^= a` / `x ^= a`, `xs.reverse()` twice): the
    statement form of an idempotent chain; and a constant update written twice (`x *= 2` /
    `x *= 2`), one update by the combined amount."""
    found: list[Finding] = []
    for node in nodes:
        blocks = [getattr(node, f, None) for f in ("body", "orelse", "finalbody")]
        for stmts in (b for b in blocks if isinstance(b, list)):
            for a, b in zip(stmts, stmts[1:]):
                if not _same(a, b):
                    continue
                settled = isinstance(a, ast.AugAssign) and isinstance(a.op, _SETTLED_OPS)
                settled |= isinstance(a, ast.Expr) and isinstance(a.value, ast.Call) \
                    and isinstance(a.value.func, ast.Attribute) and a.value.func.attr in _SETTLED_METHODS
                if settled:
                    found.append(Finding("idempotent_chain", b.lineno, f"{ast.unparse(b)[:50]} twice in a row"))
                elif isinstance(a, ast.AugAssign) and isinstance(a.value, ast.Constant):
                    found.append(Finding("repeated_update", b.lineno, f"{ast.unparse(b)[:50]} twice in a row"))
    return found


def _plain(node: ast.expr) -> str:
    """The expression with `.copy()` taken off (a copy has the value and type it copies;
    `list(x)` or `set(x)` may not)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "copy" and not node.args and not node.keywords:
        node = node.func.value
    return ast.dump(node)


def _conditional_expression(node: ast.IfExp) -> list[Finding]:
    """`a if t else a` (both arms the same), `a if a == b else b` (b either way), and a
    constant test: each is its else arm or one arm alone, written as a choice."""
    text = ast.unparse(node)[:60]
    if _same(node.body, node.orelse):
        return [Finding("duplicate_arms", node.lineno, f"{text} (both arms the same)")]
    t = node.test
    if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], (ast.Eq, ast.NotEq)):
        sides = {_plain(t.left), _plain(t.comparators[0])}
        if sides == {_plain(node.body), _plain(node.orelse)}:
            return [Finding("duplicate_arms", node.lineno, f"{text} (the same value either way)")]
    if _constant(t):
        return [Finding("constant_condition", node.lineno, ast.unparse(t))]
    return []


def _predicate_fallback(node: ast.Call) -> bool:
    """`(a if a.m(x) else C).m(x)` for a predicate m and a constant C: the answer is a.m(x)
    when it holds, else C.m(x), which no input changes. Also a fallback the predicate
    answers as it answers `a` (`bool(v if bool(v) else v * 10)`, `(p if p.is_integer() else
    -p).is_integer()`): the choice changes nothing, the answer is a.m(x)."""
    func = node.func
    if isinstance(func, ast.Name) and func.id == "bool" and len(node.args) == 1 \
            and isinstance(node.args[0], ast.IfExp) and not node.keywords:
        choice, predicate = node.args[0], "bool"
        asked: ast.expr = ast.Call(ast.Name("bool", ast.Load()), [choice.body], [])
    elif isinstance(func, ast.Attribute) and func.attr.startswith(_PREDICATE_PREFIXES) \
            and isinstance(func.value, ast.IfExp):
        choice, predicate = func.value, func.attr
        asked = ast.Call(ast.Attribute(choice.body, func.attr, ast.Load()), node.args, node.keywords)
    else:
        return False
    if not _same(choice.test, asked):
        return False
    return (not any(isinstance(n, ast.Name) for n in ast.walk(choice.orelse))
            or _answers_alike(choice.orelse, choice.body, predicate))


def _answers_alike(fallback: ast.expr, value: ast.expr, predicate: str) -> bool:
    """`fallback` is `value` under a change the predicate cannot see: a sign or an absolute
    value for `bool` and `is_integer`, a nonzero factor or divisor for `bool`."""
    if predicate not in ("bool", "is_integer"):
        return False
    if isinstance(fallback, ast.UnaryOp) and isinstance(fallback.op, (ast.USub, ast.UAdd)):
        return _same(fallback.operand, value)
    if isinstance(fallback, ast.Call) and isinstance(fallback.func, ast.Name) \
            and fallback.func.id == "abs" and len(fallback.args) == 1:
        return _same(fallback.args[0], value)
    if predicate == "bool" and isinstance(fallback, ast.BinOp) and isinstance(fallback.op, (ast.Mult, ast.Div)):
        pairs = [(fallback.left, fallback.right)]
        if isinstance(fallback.op, ast.Mult):
            pairs.append((fallback.right, fallback.left))
        return any(_same(v, value) and isinstance(k, ast.Constant) and isinstance(k.value, (int, float))
                   and not isinstance(k.value, bool) and k.value != 0 for v, k in pairs)
    return False


def _constant(test: ast.expr) -> bool:
    if not any(isinstance(n, ast.Name) for n in ast.walk(test)):
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _same(test.left, test.comparators[0]):
        return True
    return _one_answer(test)


def _one_answer(node: ast.expr) -> bool:
    """A comparison or a call whose form decides its answer on every input, test or value."""
    return _against_sign(node) or _slice_of_itself(node) or _own_affix(node)


def _slice_of_itself(test: ast.expr) -> bool:
    """`s[1:4] in s`: a text holds every slice of itself (and a list or tuple holds a slice
    of itself only as an item it never has), so the answer is the same on every input."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn))
            and isinstance(test.left, ast.Subscript) and isinstance(test.left.slice, ast.Slice)
            and _same(test.left.value, test.comparators[0]))


def _fields(template: str) -> set[str] | None:
    """The names a format template reads (`'{a[0]}: {b:>{w}}'` reads a, b and w), None when it
    does not parse or numbers its fields."""
    names: set[str] = set()
    try:
        for _, field, spec, _ in string.Formatter().parse(template):
            if field is not None:
                head = re.match(r"[^.\[]*", field).group()  # type: ignore[union-attr]
                if not head or head.isdigit():
                    return None
                names.add(head)
            if spec and "{" in spec:
                inner = _fields(spec)
                if inner is None:
                    return None
                names |= inner
    except ValueError:
        return None
    return names


def _unnamed_keys(node: ast.Call) -> list[str]:
    """Keys of a mapping written out for `'...'.format_map({...})` (or `.format(**{...})`)
    that the template never names: values computed only to be thrown away."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)):
        return []
    if func.attr == "format_map" and len(node.args) == 1 and not node.keywords:
        mapping = node.args[0]
    elif func.attr == "format" and not node.args and len(node.keywords) == 1 and node.keywords[0].arg is None:
        mapping = node.keywords[0].value
    else:
        return []
    if not (isinstance(mapping, ast.Dict) and mapping.keys
            and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in mapping.keys)):
        return []
    fields = _fields(func.value.value)
    if fields is None:
        return []
    return [k.value for k in mapping.keys if k.value not in fields]  # type: ignore[union-attr]


def _own_affix(node: ast.expr) -> bool:
    """`s.startswith(s[:3])`, `s.endswith(s[-2:])`: a text starts with its own head and ends
    with its own tail, whatever it holds."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("startswith", "endswith") and len(node.args) == 1 and not node.keywords):
        return False
    arg = node.args[0]
    if not (isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice) and arg.slice.step is None
            and _same(arg.value, node.func.value)):
        return False
    lower, upper = arg.slice.lower, arg.slice.upper
    at_start = lower is None or (isinstance(lower, ast.Constant) and lower.value == 0)
    return at_start if node.func.attr == "startswith" else upper is None


# the operator a comparison takes with its sides swapped (`3 < x` is `x > 3`)
_MIRROR = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}
_NEVER_NEGATIVE = ("abs", "len")
# op -> whether `value op bound` is decided for a value never below zero by a bound at zero
# too (`len(s) >= 0` holds, `abs(x) < 0` never does) or only by a bound below it (`abs(x) > -1`)
_DECIDED_AT_ZERO = {ast.Gt: False, ast.GtE: True, ast.Lt: True, ast.LtE: False, ast.Eq: False, ast.NotEq: False}


def _against_sign(test: ast.expr) -> bool:
    """A comparison of a value that is never below zero (`abs(...)`, `len(...)`) with a
    number that the sign alone decides it against (`abs(x) > -1`, `len(s) >= 0`, `abs(d) < 0`)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    left, op, right = test.left, type(test.ops[0]), test.comparators[0]
    if _number(left) is not None and op in _MIRROR:
        left, right, op = right, left, _MIRROR[op]
    bound = _number(right)
    if bound is None or op not in _DECIDED_AT_ZERO or not (
            isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id in _NEVER_NEGATIVE
            and len(left.args) == 1 and not left.keywords):
        return False
    return bound < 0 or (bound == 0 and _DECIDED_AT_ZERO[op])


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


@dataclass(frozen=True)
class _Fact:
    test: ast.expr
    holds: bool  # the test is true (an arm it guards) or false (a later arm, the else)


_FLIP = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}


def _bound(test: ast.expr) -> tuple[str, type, float] | None:
    """`expr op bound` as (key, op, number): a number bound as itself, any other bound as 0
    with its text in the key (so `x > limit` and `limit > x` are compared, `x > 3` and
    `x > limit` are not); a number on the left is turned round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _FLIP):
        return None
    left, op, right = test.left, type(test.ops[0]), test.comparators[0]
    if _number(left) is not None:
        left, right, op = right, left, _MIRROR[op]
    if _number(left) is not None:
        return None
    value = _number(right)
    if value is None:
        a, b = ast.dump(left), ast.dump(right)
        if a > b:  # one order for a pair of values
            a, b, op = b, a, _MIRROR[op]
        return f"{a} ? {b}", op, 0.0
    return ast.dump(left), op, value


def _number(node: ast.expr) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    return None


def _decided(test: ast.expr, facts: list[_Fact]) -> bool | None:
    """True / False when the enclosing facts decide `test`, else None: the same test (or its
    negation) known true or false, or a bound on the same expression implied by known bounds
    on it (under `x > 27`, `x > 25` is always true and `x < 20` always false)."""
    for fact in facts:
        if _same(fact.test, test):
            return fact.holds
        if _negation(fact.test, test):
            return not fact.holds
    bound = _bound(test)
    if bound is None:
        return None
    key, op, value = bound
    lo, lo_open, hi, hi_open = float("-inf"), True, float("inf"), True
    for fact in facts:
        known = _bound(fact.test)
        if known is None or known[0] != key:
            continue
        fop = known[1] if fact.holds else _FLIP[known[1]]
        c = known[2]
        if fop in (ast.Gt, ast.GtE, ast.Eq) and (c > lo or (c == lo and fop is ast.Gt)):
            lo, lo_open = c, fop is ast.Gt
        if fop in (ast.Lt, ast.LtE, ast.Eq) and (c < hi or (c == hi and fop is ast.Lt)):
            hi, hi_open = c, fop is ast.Lt
    above = lo > value or (lo == value and lo_open)  # every possible value is > value
    at_least = lo >= value
    below = hi < value or (hi == value and hi_open)
    at_most = hi <= value
    verdict = {ast.Gt: (above, at_most), ast.GtE: (at_least, below), ast.Lt: (below, at_least),
               ast.LtE: (at_most, above), ast.Eq: (lo == hi == value, below or above),
               ast.NotEq: (below or above, lo == hi == value)}[op]
    if verdict[0]:
        return True
    if verdict[1]:
        return False
    return None


@functools.lru_cache(maxsize=4096)
def _test_of(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def decided(test: str, facts: list[tuple[str, bool]]) -> bool | None:
    """Whether tests known true or false (`facts`) decide `test` (texts of expressions):
    what `conditions` would report; for generators choosing a test that can go both ways."""
    return _decided(_test_of(test), [_Fact(_test_of(t), holds) for t, holds in facts])


_PURE_CALLS = frozenset({"len", "sum", "min", "max", "sorted", "abs", "int", "str", "float", "bool", "round",
                         "any", "all", "list", "tuple", "set", "frozenset", "dict", "range", "enumerate",
                         "zip", "reversed", "isinstance", "print", "repr", "ord", "chr", "divmod", "pow",
                         "map", "filter", "type", "hash"})


def _touched(stmts: list[ast.stmt]) -> tuple[set[str], bool]:
    """Names a block may change - assigned, deleted, loop targets, receivers of a method
    call or of an item assignment, arguments of a call that is not a known pure builtin -
    and whether it calls such a function at all (which may change what any subscript or
    attribute holds, through a closure or a global)."""
    names: set[str] = set()
    opaque = False
    for node in (n for stmt in stmts for n in ast.walk(stmt)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                names |= {n.id for n in ast.walk(node.func.value) if isinstance(n, ast.Name)}
            if not (isinstance(node.func, ast.Name) and node.func.id in _PURE_CALLS):
                opaque = opaque or isinstance(node.func, ast.Name)
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    names |= {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            names |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    return names, opaque


def _still(facts: list[_Fact], stmts: list[ast.stmt]) -> list[_Fact]:
    if not facts:  # nothing known here: no need to walk the block for what it changes
        return facts
    touched, opaque = _touched(stmts)

    def holds(fact: _Fact) -> bool:
        nodes = list(ast.walk(fact.test))
        if opaque and any(isinstance(n, (ast.Subscript, ast.Attribute)) for n in nodes):
            return False
        return not any(isinstance(n, ast.Name) and n.id in touched for n in nodes)
    return [f for f in facts if holds(f)]


_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _choices(node: ast.AST) -> list[ast.IfExp]:
    """The conditional expressions in a statement, outside lambdas and comprehensions (whose
    own names may shadow the ones the facts around them are about)."""
    out = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            continue
        if isinstance(child, ast.IfExp):
            out.append(child)
        out += _choices(child)
    return out


def conditions(tree: ast.AST) -> list[Finding]:
    """Constant tests, and tests the tests around them decide: the same test (or its
    negation) known true or false where it stands (inside an arm it guards, in an elif or
    else after it), or a bound implied by the bounds on the same value (`if x > 25:` inside
    `if x > 27:`). Decided true with no arm after it, the test is a duplicate; decided false,
    or true with arms after it that then never run, contradictory. Facts about a name are
    dropped in a block that may change it."""
    found: list[Finding] = []

    def visit(stmts: list[ast.stmt], facts: list[_Fact]) -> None:
        facts = _still(facts, stmts)
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                chain, node = [], stmt
                while True:
                    chain.append(node)
                    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                        node = node.orelse[0]
                        continue
                    break
                arms = [link.body for link in chain] + ([chain[-1].orelse] if chain[-1].orelse else [])
                if any(_same(a, b) for i, a in enumerate(arms) for b in arms[i + 1:]):
                    found.append(Finding("duplicate_arms", stmt.lineno, ast.unparse(stmt.test)
                                         + " (two of its arms do the same)"))
                known = list(facts)
                for k, link in enumerate(chain):
                    t = link.test
                    more_arms = k < len(chain) - 1 or bool(link.orelse)
                    if _constant(t):
                        found.append(Finding("constant_condition", link.lineno, ast.unparse(t)))
                    else:
                        decided = _decided(t, known)
                        if decided is True and not more_arms:  # redundant
                            found.append(Finding("duplicate_condition", link.lineno,
                                                 f"{ast.unparse(t)} (always true here)"))
                        elif decided is not None:  # an arm that cannot run
                            found.append(Finding("contradictory_condition", link.lineno, ast.unparse(t)
                                                 + (" (always true here: the arms after it never run)"
                                                    if decided else " (never true here)")))
                    visit(link.body, known + [_Fact(t, True)])
                    known.append(_Fact(t, False))
                visit(chain[-1].orelse, known)
            elif isinstance(stmt, ast.While):
                if _constant(stmt.test) and not (isinstance(stmt.test, ast.Constant)
                                                 and stmt.test.value is True):
                    found.append(Finding("constant_condition", stmt.lineno, ast.unparse(stmt.test)))
                visit(stmt.body, facts)  # facts is already clear of what the loop changes
            elif isinstance(stmt, (ast.For, ast.With, ast.Try, ast.FunctionDef)):
                # a with block runs its manager's code (a lock, say: another thread may change any
                # value); loop and as targets were dropped with the block this statement stands in
                inner = [] if isinstance(stmt, (ast.FunctionDef, ast.With)) else facts
                for body in (stmt.body, getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])):
                    visit(body, inner)
            elif facts and not isinstance(stmt, (ast.ClassDef, ast.AsyncFunctionDef, ast.AsyncFor,
                                                 ast.AsyncWith, ast.Match)):
                for choice in _choices(stmt):  # `(a if t else b)` under a test that decides t
                    decided = _decided(choice.test, facts)
                    if decided is not None:
                        found.append(Finding("contradictory_condition", choice.lineno, ast.unparse(choice.test)
                                             + f" (always {'true' if decided else 'false'} here: one arm never runs)"))

    visit(tree.body if isinstance(tree, ast.Module) else [], [])
    return found


def repeated_keys(nodes: list[ast.AST]) -> list[Finding]:
    """A dict display that binds one constant key twice: the first value is never read."""
    found: list[Finding] = []
    for node in nodes:
        if isinstance(node, ast.Dict):
            seen: set[object] = set()
            for key in node.keys:
                if isinstance(key, ast.Constant):
                    if key.value in seen:  # as the dict itself compares keys (1 and True are one key)
                        found.append(Finding("dead_store", node.lineno, f"key {key.value!r} given twice"))
                    seen.add(key.value)
    return found


def unused_definitions(tree: ast.Module, nodes: list[ast.AST], entry_point: str | None) -> list[Finding]:
    """Module-level names nothing in the program reads: an import, a function or class
    other than the entry point, a constant. Without `entry_point` the entry is the last
    module-level function (every teacher writes its helpers first)."""
    if entry_point is None:
        entry_point = next((s.name for s in reversed(tree.body)
                            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    read = {n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
    found: list[Finding] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names = [a.asname or a.name.split(".")[0] for a in stmt.names if a.name != "*"]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [stmt.name] if stmt.name != entry_point else []
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            names = [n for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]) for n in _stored(t)]
        else:
            continue
        found += [Finding("unused_definition", stmt.lineno, n) for n in names
                  if n not in read and not n.startswith("__")]
    return found


def empty_blocks(nodes: list[ast.AST]) -> list[Finding]:
    """Arms and loop bodies that do nothing (`pass` or `...` alone): the test or loop around
    them reads as work that is not there. A handler that ignores an error is not one."""
    def empty(block: list[ast.stmt]) -> bool:
        return bool(block) and all(isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                               and s.value.value is Ellipsis) for s in block)
    found = []
    for node in nodes:
        if isinstance(node, (ast.If, ast.For, ast.While, ast.AsyncFor)):
            found += [Finding("empty_block", block[0].lineno, "pass") for block in (node.body, node.orelse) if empty(block)]
    return found


def static_findings(code: str, entry_point: str | None = None) -> list[Finding]:
    tree = ast.parse(code)
    return tree_findings(tree, list(ast.walk(tree)), entry_point)


def tree_findings(tree: ast.Module, nodes: list[ast.AST], entry_point: str | None = None) -> list[Finding]:
    """`static_findings` of a parsed program whose nodes in `ast.walk` order are `nodes`
    (walked once for every rule below)."""
    found: list[Finding] = []
    methods = {id(f) for n in nodes if isinstance(n, ast.ClassDef) for f in n.body}
    for func in (n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        found += dead_stores(func, id(func) in methods)
    return (found + unused_definitions(tree, nodes, entry_point) + empty_blocks(nodes) + repeated_keys(nodes)
            + tricks(tree, nodes))


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
