"""What a form returns, and the generic nesting patterns most forms are built from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.convert import convert
from workers.pipeline.builtin.extras import glue


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


def via_slot(render: Render, rtype: str, slot: str, default: Callable[[Ctx, str], str]) -> Form:
    """Nest through an argument: render(g, r, convert(inner -> slot type))."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = render(g, r, default(g, r))
        for _ in range(nest - 1):
            expr = render(g, r, convert(g, expr, rtype, slot))
        return Piece(expr, rtype)
    return make


def via_self(render: Callable[[Ctx, str], str], rtype: str, recv: str) -> Form:
    """Nest through the receiver: render(g, convert(inner -> receiver type))."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = render(g, r)
        for _ in range(nest - 1):
            expr = render(g, p(convert(g, expr, rtype, recv)))
        return Piece(expr, rtype)
    return make


def mutator(render: Callable[[Ctx, str], str], recv: str,
            pre: Callable[[Ctx, str, int], list[str]] | None = None) -> Form:
    """A method returning None: nest as `(r.m(a) or r).m(b)`; `pre` makes it safe."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = render(g, r)
        for _ in range(nest - 1):
            fallback = r if g.rng.random() < 0.6 else (glue(g, recv, r, set()) or r)
            expr = render(g, p(convert(g, expr, "none", recv, fallback=fallback)))
        return Piece(expr, "none", pre(g, r, nest) if pre else [], stmt=True)
    return make


def statement(render: Callable[[Ctx, str], str]) -> Form:
    """Statement forms (`r |= a`, `d[k] = v`) cannot nest: nesting is repetition."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        lines = [render(g, r) for _ in range(nest)]
        return Piece(lines[-1], "none", lines[:-1], stmt=True)
    return make
