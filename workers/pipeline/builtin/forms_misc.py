"""Forms for float, the builtin-function entries (enumerate, filter, range, reversed, zip),
and config-file entries that declare a signature (generic calls such as `math.gcd`)."""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.convert import convert
from workers.pipeline.builtin.extras import glue
from workers.pipeline.builtin.piece import Form, Piece, via_self
from workers.pipeline.constraints.catalog import Entry

DIVISORS = ("1.5", "2.0", "2.5", "3.0", "0.75", "4.0")


def float_form(method: str) -> Form | None:
    t = "float"
    if method == "bool()":
        return via_self(lambda g, r: f"bool({r})", "bool", t, truth=True)
    if method == "int()":
        return via_self(lambda g, r: f"int({r})", "int", t)
    if method in ("math.ceil()", "math.floor()"):
        def render(g: Ctx, r: str) -> str:
            g.imports.add("math")
            return f"{method[:-2]}({r})"
        return via_self(render, "int", t)
    if method == "round()":
        return via_self(lambda g, r: f"round({r}, {g.int_(0, 2)})", t, t)
    if method == "divmod()":
        return via_self(lambda g, r: f"divmod({r}, {g.choice(DIVISORS)})", "ftuple", t)
    if method == "as_integer_ratio":
        return _ratio
    if method == "conjugate":
        return via_self(lambda g, r: f"{p(r)}.conjugate()", t, t, idempotent=True)
    if method == "is_integer":
        return via_self(lambda g, r: f"{p(r)}.is_integer()", "bool", t)
    return None


def _ratio(g: Ctx, r: str, nest: int) -> Piece:
    """`x.as_integer_ratio()` is a pair: a nested use takes the ratio of one of its parts
    scaled to a float (`(x.as_integer_ratio()[1] / 4).as_integer_ratio()`)."""
    expr = f"{p(r)}.as_integer_ratio()"
    for _ in range(nest - 1):
        part = f"{expr}[{g.int_(0, 1)}]"
        scaled = g.choice((f"{part} / {g.choice(('2', '4', '8', '10'))}", f"{part} * 0.5",
                           f"{part} * {g.choice(('1.5', '2.5', '0.25'))}"))
        expr = f"({scaled}).as_integer_ratio()"
    return Piece(expr, "tuple")


def _iter_chain(wrap) -> Form:  # noqa: ANN001 - wrap(g, r, inner_iterator_expr) -> iterator
    def make(g: Ctx, r: str, nest: int) -> Piece:
        roll = g.rng.random()
        first = r if roll < 0.35 else f"{p(r)}[{g.int_(1, 2)}:]" if roll < 0.5 \
            else (glue(g, "list", r, {"reversed"}) or r)
        expr = wrap(g, r, first)
        for _ in range(nest - 1):
            if g.rng.random() < 0.5:  # keep part of the inner result: skip or drop an end
                expr = f"[*{expr}][{g.choice(('1:', ':-1', '::2', '2:', ':3', '1::2', ':-2', '-3:'))}]"
            expr = wrap(g, r, expr)
        star = g.allow_calls and g.rng.random() < 0.4
        return Piece(f"list({expr})" if star else f"[*{expr}]", "pairs")
    return make


def builtin_form(name: str) -> Form | None:
    """Receiver types: a list (or str) for the iterator builtins, an int for range."""
    if name == "enumerate":
        return _iter_chain(lambda g, r, it: f"enumerate({it}{g.choice(('', ', 1', ', 10'))})")
    if name == "filter":
        preds = ("None", "lambda v: v % 2", "lambda v: v > 3", "lambda v: v != 5",
                 "lambda v: v < 8")
        return _iter_chain(lambda g, r, it: f"filter({g.choice(preds)}, {it})")
    if name == "zip":
        return _iter_chain(lambda g, r, it: f"zip({it}, {g.choice((g.other('list'), g.lit('str')))})")
    if name == "reversed":
        return _iter_chain(lambda g, r, it: f"reversed({f'[*{it}]' if it.startswith('reversed') else it})")
    if name == "range":
        def make(g: Ctx, r: str, nest: int) -> Piece:
            lo = f"{p(r)} % {g.int_(3, 6)}"  # every range below is non-empty
            expr = g.choice((f"range({lo} + 1)", f"range({g.int_(0, 2)}, {lo} + {g.int_(2, 5)})",
                             f"range({g.int_(0, 2)}, {lo} + {g.int_(3, 6)}, {g.int_(1, 2)})"))
            for _ in range(nest - 1):
                start = g.choice(("", f"{g.int_(0, 1)}, "))
                expr = f"range({start}{expr}[-1] + {g.int_(2, 5)})"
            return Piece(f"[*{expr}]", "list")
        return make
    return None


def signature_form(entry: Entry) -> Form | None:
    """Generic call from a declared signature: `mod.f(a, b)` / `r.m(a)` / `r op a`.
    Nesting converts the inner result into the first argument of a matching type."""
    sig = entry.signature
    if sig is None:
        return None
    kind, name = entry.syntax.kind, entry.syntax.name
    args = list(sig.args)

    def render(g: Ctx, r: str, slot: str | None) -> str:
        vals = [small(g, a) for a in args]
        if slot is not None and vals:
            vals[0] = slot
        if kind == "call":
            g.imports.add(name.split(".")[0]) if "." in name else None
            return f"{name}({', '.join([r] + vals if entry.type in _TYPES else vals)})"
        if kind == "method":
            return f"{p(r)}.{name}({', '.join(vals)})"
        if kind == "binop":
            return f"{p(r)} {name} {p(vals[0]) if vals else g.lit(entry.type)}"
        raise ValueError(f"signature forms cover calls, methods and binary operators, not {kind}")

    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = render(g, r, None)
        for _ in range(nest - 1):
            if args:
                expr = render(g, r, safe(g, convert(g, expr, sig.returns, args[0]), args[0]))
            else:
                expr = render(g, p(convert(g, expr, sig.returns, receiver_type(entry))), None)
        return Piece(expr, sig.returns)
    return make


_TYPES = ("int", "float", "str", "list", "tuple", "set", "dict", "bytes")


def small(g: Ctx, type_name: str) -> str:
    """Positive, small values: most math-like callables are defined there."""
    if type_name == "int":
        return str(g.int_(1, 9))
    if type_name == "float":
        return repr(round(g.rng.uniform(0.5, 9.5), 2))
    return g.lit(type_name)


def safe(g: Ctx, expr: str, type_name: str) -> str:
    if type_name == "int":
        return f"{p(expr)} % {g.int_(5, 9)} + 1"
    if type_name == "float":
        return f"abs({expr}) % 7.5 + 0.5" if g.allow_calls else f"{p(expr)} % 7.5 + 0.5"
    return expr


def receiver_type(entry: Entry) -> str:
    if entry.type in _TYPES:
        return entry.type
    if entry.syntax.kind == "call" and entry.signature and entry.signature.args:
        return entry.signature.args[0]
    return "int"
