"""What a form returns, and the generic nesting patterns most forms are built from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.convert import convert


@dataclass
class Piece:
    """One use of the target: `pre` statements (e.g. making a later `remove` safe), then
    `expr`, an expression of type `rtype`, or a statement when `stmt` is set."""

    expr: str
    rtype: str
    pre: list[str] = field(default_factory=list)
    stmt: bool = False


# make(g, receiver_var, nest_levels) -> Piece
Form = Callable[[Ctx, str, int], Piece]
Render = Callable[[Ctx, str, str], str]


def _other_like(g: Ctx, t: str, r: str) -> str:
    """A second value of the receiver's type to choose against (not the receiver itself)."""
    known = [v for v in g.pool.get(t, []) if v != r]
    return g.choice(known) if known and g.rng.random() < 0.7 else g.lit(t)


# what a predicate falls back to where no other value of the receiver's type is known: a
# part of the receiver (`(code if code.isalpha() else code[1:]).isalpha()`, alphabetic or
# so once its first character is dropped), never a literal, whose answer is fixed
# (`(code if code.isalpha() else 'red').isalpha()` is always True)
_PARTS = {"str": ("{r}[1:]", "{r}[:-1]", "{r}[1:-1]"), "float": ("{r} * 2", "{r} * 10", "{r} - 0.5", "{r} + 0.5")}


def _fallback(g: Ctx, t: str, r: str, truth: bool = False) -> str:
    """The other value a predicate's nested use chooses: a known one, else a part of `r`.
    `truth`: the predicate is a number's truth (`bool(v)`), which a scaled `v` shares
    (`bool(v if bool(v) else v * 10)` is `bool(v)`), so the part is shifted instead."""
    known = [v for v in g.pool.get(t, []) if v != r]
    if known and g.rng.random() < 0.7:
        return g.choice(known)
    if t not in _PARTS:
        return g.lit(t)
    parts = [q for q in _PARTS[t] if not (truth and "*" in q)]
    return g.choice(parts).format(r=p(r))


def _levels(nest: int, choosing: bool) -> int:
    """Uses a form nests: a use that nests by choosing a value with an inner use (`(a if
    a.isalpha() else b).isalpha()`) does it once, since a choice inside a choice inside a
    choice (`(a if (a if a[:] < b else b)[:] < c else c)[:]`) is nothing a person writes."""
    return min(nest, 2) if choosing else nest


def via_slot(render: Render, rtype: str, slot: str, default: Callable[[Ctx, str], str]) -> Form:
    """Nest through an argument. A result of the slot's own type nests by chaining (`r + a
    + b`, `d.get(k, d.get(j, 0))`); a bool picks the argument (`(a if a in r else b) in r`);
    anything else is converted to the slot type. A variable is not passed twice in a chain
    (`s | t | t`, `.removesuffix(w).removesuffix(w)`): a literal takes the second turn."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        passed: set[str] = set()

        def arg() -> str:
            a = default(g, r)
            if a.isidentifier() and a in passed:
                try:
                    a = g.lit(slot)
                except ValueError:
                    pass
            passed.add(a)
            return a

        expr = render(g, r, arg())
        for _ in range(_levels(nest, rtype == "bool") - 1):
            if rtype == "bool":
                a, b = default(g, r), default(g, r)
                if b == a:  # `r.m(a if t else a)` is `r.m(a)`
                    try:
                        b = g.lit(slot)
                    except ValueError:
                        pass
                expr = render(g, r, f"{p(a)} if {expr} else {p(b)}")
            elif rtype == slot and slot != "int" and p(expr) in (
                    chained := render(g, p(expr), arg())):
                expr = chained
            else:
                expr = render(g, r, convert(g, expr, rtype, slot, basis=r))
        return Piece(expr, rtype)
    return make


def via_self(render: Callable[[Ctx, str], str], rtype: str, recv: str,
             idempotent: bool = False, plain_other: bool = False, truth: bool = False) -> Form:
    """Nest through the receiver. Idempotent methods and predicates nest by choosing the
    receiver with an inner use (`(a if a.lower() <= b.lower() else b).lower()`), never by
    repeating themselves; other results are chained or converted to the receiver type.
    `plain_other`: the value compared against is not put through the method (a copy
    compares as the original: `(a if a.copy() <= b else b).copy()`; a mapping is chosen by a
    key it holds, `(a if 'k' in a.copy() else b).copy()`, as `a if a == b else b` is b).
    `truth`: the predicate is a number's truth (`bool(v)`), see `_fallback`."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = render(g, r)
        for _ in range(_levels(nest, rtype == "bool" or (idempotent and rtype == recv)) - 1):
            if rtype == "bool":
                expr = render(g, f"{r} if {expr} else {_fallback(g, recv, r, truth)}")
            elif idempotent and rtype == recv and recv == "dict":
                # (`a if a.copy() == b else b` is b either way): a key the copy holds or not
                b = _other_like(g, recv, r)
                expr = render(g, f"{r} if {g.key()} in {expr} else {b}")
            elif idempotent and rtype == recv:
                b = _other_like(g, recv, r)
                op = g.choice(("<=", ">=", "<", ">"))  # (a set's are subset tests)
                other = render(g, b) if b.isidentifier() and not plain_other else b
                expr = render(g, f"{r} if {expr} {op} {other} else {b}")
            else:
                expr = render(g, p(convert(g, expr, rtype, recv, basis=r)))
        return Piece(expr, rtype)
    return make


def mutator(render: Callable[[Ctx, str], str], recv: str,
            pre: Callable[[Ctx, str, int], list[str]] | None = None, settles: bool = False) -> Form:
    """A method returning None cannot feed another use (only `(r.m(a) or r).m(b)` could),
    so nesting is repetition, as for the statement forms; `pre` makes it safe. A method
    whose second use alone undoes or repeats the first (`settles`: reverse, sort, clear)
    always has a change between its uses."""
    grow = {"list": ("{r} += [{v}]", "{r} += [{v}, {w}]", "{r}[:0] = [{v}]", "{r} *= 2"),
            "set": ("{r} |= {{{v}}}", "{r} -= {{{v}}}", "{r} |= {{{v}, {w}}}"),
            "dict": ("{r}[{k}] = {v}", "{r}[{k}] = {r}.get({k}, {v})")}.get(recv)

    def make(g: Ctx, r: str, nest: int) -> Piece:
        lines = []
        for i in range(nest):
            if grow and (i and settles or g.rng.random() < (0.6 if i else 0.3)):  # a change between uses
                text = g.choice(grow if g.allow_calls else [x for x in grow if "(" not in x])
                v = g.other("int") if "{v}" in text else ""  # no parameter the line does not read
                lines.append(text.format(r=r, v=v, w=g.int_(0, 9), k=g.key()))
            lines.append(render(g, r))
        return Piece(lines[-1], "none", (pre(g, r, nest) if pre else []) + lines[:-1], stmt=True)
    return make


def statement(render: Callable[[Ctx, str], str]) -> Form:
    """Statement forms (`r |= a`, `d[k] = v`) cannot nest: nesting is repetition."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        lines = [render(g, r) for _ in range(nest)]
        return Piece(lines[-1], "none", lines[:-1], stmt=True)
    return make
