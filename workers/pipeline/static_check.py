"""Static constraint check: what structure does a program actually have?

The measured structure is recorded next to the requested one; whether a mismatch rejects or
relabels the program is the batch policy's call, not this module's. Everything is read from
the AST: a `for` inside `format` is not a loop, and `x.find` is not `x.rfind`.

Definitions (the generator builds to them; the prompt asks for them):
- target use: an occurrence of the entry's syntax (method call, operator, subscript, slice,
  builtin call; each matching operator of a chained comparison counts once);
- nested calls: one target use inside another (as receiver, argument or operand); for the
  statement forms (`|=`, `d[k] = v`), which cannot nest, and **(changed)** for the methods
  that return None (`append`, `sort`, `update` ...), whose only nesting is the trick
  `(x.m(a) or x).m(b)`, at least two uses;
- other methods: any call that is not the target, `print`, or a function defined here;
- call chain: the entry function calls another function defined in the program;
- control-flow depth: the deepest nesting of if / for / while statements in any function,
  where the elif of an if-elif chain is the same level, and the blueprint is the kinds on
  that deepest path (outermost first).
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import asdict, dataclass

from workers.pipeline.constraints.syntax import BINOPS, COMPARES, SLICES, Syntax, classify
from workers.pipeline.records import Constraint


class StaticCheckError(ValueError):
    """Code that does not parse, or an entry point it does not define."""


@dataclass(frozen=True)
class Measured:
    target_uses: int
    nested_depth: int
    nested_calls: bool
    other_methods: bool
    other_calls: tuple[str, ...]
    call_chain: bool
    helpers: tuple[str, ...]
    control_flow_depth: int
    blueprints: tuple[tuple[str, ...], ...]
    mismatches: tuple[str, ...]

    @property
    def matches(self) -> bool:
        return not self.mismatches

    @property
    def blueprint(self) -> tuple[str, ...]:
        return self.blueprints[0] if self.blueprints else ()

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["other_calls"] = list(self.other_calls)
        data["helpers"] = list(self.helpers)
        data["blueprints"] = [list(b) for b in self.blueprints]
        data["mismatches"] = list(self.mismatches)
        data["blueprint"] = list(self.blueprint)
        data["matches"] = self.matches
        return data


RETURNS_NONE = frozenset({
    "append", "extend", "insert", "remove", "sort", "reverse", "clear", "add", "discard",
    "update", "difference_update", "intersection_update", "symmetric_difference_update"})


def returns_none(syntax: Syntax) -> bool:
    """Methods of the builtin containers that change the receiver and return None."""
    return syntax.kind == "method" and syntax.name in RETURNS_NONE


def syntax_for(constraint: Constraint) -> Syntax:
    is_type = isinstance(getattr(builtins, constraint.type, None), type)
    return classify(constraint.type, constraint.method, module=not is_type
                    and constraint.method.isidentifier())


def dotted_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def target_weight(node: ast.AST, syntax: Syntax) -> int:
    """How many target uses this node is (0 when it is none)."""
    kind, name = syntax.kind, syntax.name
    if kind == "binop":
        return int(isinstance(node, ast.BinOp) and isinstance(node.op, BINOPS[name]))
    if kind == "compare":
        return sum(isinstance(op, COMPARES[name]) for op in node.ops) \
            if isinstance(node, ast.Compare) else 0
    if kind == "augassign":
        return int(isinstance(node, ast.AugAssign) and isinstance(node.op, BINOPS[name]))
    if isinstance(node, ast.Subscript):
        is_slice = isinstance(node.slice, ast.Slice)
        if kind == "index":
            return int(not is_slice and isinstance(node.ctx, ast.Load))
        if kind == "store":
            return int(not is_slice and isinstance(node.ctx, ast.Store))
        if kind == "slice" and is_slice:
            s = node.slice
            lower, upper = SLICES[name]
            return int(s.step is None and (s.lower is not None) == lower  # type: ignore[attr-defined]
                       and (s.upper is not None) == upper)  # type: ignore[attr-defined]
        return 0
    if isinstance(node, ast.Call):
        if kind == "call":
            return int(dotted_name(node.func) == name)
        if kind == "method":
            return int(isinstance(node.func, ast.Attribute) and node.func.attr == name)
    return 0


def _nesting(node: ast.AST, syntax: Syntax) -> tuple[int, int]:
    """(uses, deepest chain of uses) under node."""
    weight = target_weight(node, syntax)
    uses, deepest = weight, 0
    for child in ast.iter_child_nodes(node):
        child_uses, child_depth = _nesting(child, syntax)
        uses += child_uses
        deepest = max(deepest, child_depth)
    return uses, deepest + weight


def _control_paths(stmts: list[ast.stmt]) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = []
    for stmt in stmts:
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            kind = "while" if isinstance(stmt, ast.While) else "for"
            paths.extend((kind,) + p for p in _control_paths(stmt.body + stmt.orelse) or [()])
        elif isinstance(stmt, ast.If):
            branches, node, chained = [], stmt, False
            while True:
                branches.append(node.body)
                if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                    node, chained = node.orelse[0], True
                    continue
                branches.append(node.orelse)
                break
            kind = "if-elif" if chained else "if"
            inner = [p for body in branches for p in _control_paths(body)]
            paths.extend((kind,) + p for p in inner or [()])
        elif isinstance(stmt, (ast.With, ast.AsyncWith, ast.Try)):
            bodies = [stmt.body] + [getattr(stmt, a, []) for a in ("orelse", "finalbody")]
            bodies += [h.body for h in getattr(stmt, "handlers", [])]
            paths.extend(p for body in bodies for p in _control_paths(body))
    return paths


def measure_structure(code: str, entry_point: str, constraint: Constraint) -> Measured:
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise StaticCheckError(f"code does not parse: {exc.msg} (line {exc.lineno})") from exc
    return measure_tree(tree, list(ast.walk(tree)), entry_point, constraint)


def measure_tree(tree: ast.Module, nodes: list[ast.AST], entry_point: str,
                 constraint: Constraint) -> Measured:
    """`measure_structure` of a parsed program whose nodes in `ast.walk` order are `nodes`
    (a caller running other rules on the same tree parses and walks it once)."""
    functions = [n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = {f.name for f in functions}
    entry = next((f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f.name == entry_point), None)
    if entry is None:
        raise StaticCheckError(f"entry point {entry_point!r} is not defined at module level")
    syntax = syntax_for(constraint)
    uses, depth = _nesting(tree, syntax)
    nested = uses >= 2 if syntax.is_statement or returns_none(syntax) else depth >= 2
    modules = _imported(nodes)
    others = sorted({label for n in nodes if isinstance(n, ast.Call)
                     and not target_weight(n, syntax)
                     and (label := _call_label(n, modules)) not in names | {"print"}})
    helpers = sorted({n.func.id for n in ast.walk(entry) if isinstance(n, ast.Call)
                      and isinstance(n.func, ast.Name) and n.func.id in names
                      and n.func.id != entry_point})
    paths = [p for f in functions for p in _control_paths(f.body)]
    cf_depth = max((len(p) for p in paths), default=0)
    deepest = tuple(dict.fromkeys(p for p in paths if len(p) == cf_depth and cf_depth))
    knobs = constraint.knobs
    mismatches = []
    if uses == 0:
        mismatches.append("target_missing")
    if nested != knobs.nested_calls:
        mismatches.append("nested_calls")
    if bool(others) != knobs.other_methods:
        mismatches.append("other_methods")
    if bool(helpers) != knobs.call_chain:
        mismatches.append("call_chain")
    if cf_depth != knobs.control_flow_depth:
        mismatches.append("control_flow_depth")
    elif knobs.blueprint and tuple(knobs.blueprint) not in deepest:
        mismatches.append("blueprint")
    return Measured(uses, depth, nested, bool(others), tuple(others), bool(helpers),
                    tuple(helpers), cf_depth, deepest, tuple(mismatches))


_QUALIFIERS = frozenset(n for n in dir(builtins) if isinstance(getattr(builtins, n), type))


def _call_label(node: ast.Call, modules: frozenset[str] = frozenset()) -> str:
    """`len`, `math.ceil`, `str.format` for qualified names; the bare method name for a
    method called on a value (`s.upper()` -> `upper`)."""
    func = node.func
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name) and func.value.id in modules | _QUALIFIERS:
            return f"{func.value.id}.{func.attr}"
        return func.attr
    return dotted_name(func) or "<expr>"


def _imported(nodes: list[ast.AST]) -> frozenset[str]:
    return frozenset((a.asname or a.name).split(".")[0] for n in nodes
                     if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names)
