"""Forms for list, tuple, set and dict methods.

Methods with preconditions are made safe by construction, never by try/except: `remove`
and `pop` get a preceding `r += [...]` / `r |= {...}` that puts the element there,
`index` searches `r + [a]`, `popitem` a dict that was just given a key.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.piece import Form, Piece, mutator, via_self, via_slot

SET_TO_SET = ("difference", "intersection", "symmetric_difference", "union")
SET_UPDATES = ("difference_update", "intersection_update", "symmetric_difference_update",
               "update")


def _two_ints(g: Ctx) -> tuple[int, int]:
    a, b = g.rng.sample(range(10), 2)
    return a, b


def _remove(t: str) -> Form:
    def make(g: Ctx, r: str, nest: int) -> Piece:
        values = g.rng.sample(range(10), nest)
        grow = f"{r} += {values!r}" if t == "list" else f"{r} |= {{{', '.join(map(str, values))}}}"
        lines = [f"{r}.remove({v})" for v in values]
        return Piece(lines[-1], "none", [grow] + lines[:-1], stmt=True)
    return make


def _pop(t: str) -> Form:
    def make(g: Ctx, r: str, nest: int) -> Piece:
        v = g.int_(0, 9)
        grow = f"{r} += [{v}]" if t == "list" else f"{r} |= {{{v}}}"
        arg = g.choice(("", "", "0", "-1")) if t == "list" else ""
        expr = f"{r}.pop({arg})"
        for _ in range(nest - 1):
            expr = (f"({r} + [{expr}]).pop({g.choice(('', '0'))})" if t == "list"
                    else f"({r} | {{{expr}}}).pop()")
        return Piece(expr, "int", [grow])
    return make


def list_form(method: str) -> Form | None:
    t = "list"
    if method == "append":
        return mutator(lambda g, r: f"{p(r)}.append({g.other('int')})", t)
    if method == "extend":
        return mutator(lambda g, r: f"{p(r)}.extend({g.choice((g.other('list'), g.lit('tuple')))})", t)
    if method == "insert":
        return mutator(lambda g, r: f"{p(r)}.insert({g.int_(-2, 4)}, {g.other('int')})", t)
    if method == "clear":
        return mutator(lambda g, r: f"{p(r)}.clear()", t, settles=True)
    if method == "reverse":
        return mutator(lambda g, r: f"{p(r)}.reverse()", t, settles=True)
    if method == "sort":
        return mutator(lambda g, r: f"{p(r)}.sort({g.choice(('', 'reverse=True'))})", t, settles=True)
    if method in ("remove",):
        return _remove(t)
    if method == "pop":
        return _pop(t)
    if method == "reversed()":
        return via_self(lambda g, r: f"[*reversed({r})]", t, t)
    return seq_form(method, t)


def seq_form(method: str, t: str) -> Form | None:
    """Methods list and tuple share."""
    if method == "copy":
        return via_self(lambda g, r: f"{p(r)}.copy()", t, t, idempotent=True)
    if method == "count":
        return via_slot(lambda g, r, a: f"{p(r)}.count({a})", "int", "int",
                        lambda g, r: g.other("int"))
    if method == "index":
        one = "[{}]" if t == "list" else "({},)"
        return via_slot(lambda g, r, a: f"({r} + {one.format(a)}).index({a})", "int", "int",
                        lambda g, r: g.other("int"))
    return None


def tuple_form(method: str) -> Form | None:
    return None if method == "copy" else seq_form(method, "tuple")


def set_form(method: str) -> Form | None:
    t = "set"
    if method in SET_TO_SET:
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({a})", t, t, lambda g, r: g.other(t))
    if method in SET_UPDATES:
        return mutator(lambda g, r: f"{p(r)}.{method}({g.other(t)})", t)
    if method in ("isdisjoint", "issubset", "issuperset"):
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({a})", "bool", t,
                        lambda g, r: g.other(t))
    if method in ("add", "discard"):
        return mutator(lambda g, r: f"{p(r)}.{method}({g.other('int')})", t)
    if method == "clear":
        return mutator(lambda g, r: f"{p(r)}.clear()", t, settles=True)
    if method == "copy":
        return via_self(lambda g, r: f"{p(r)}.copy()", t, t, idempotent=True)
    if method == "remove":
        return _remove(t)
    if method == "pop":
        return _pop(t)
    return None


def _popitem(g: Ctx, r: str, nest: int) -> Piece:
    expr = f"{r}.popitem()"
    for _ in range(nest - 1):
        expr = f"({r} | {{{g.key()}: {expr}[1]}}).popitem()"
    return Piece(expr, "pair", [f"{r}[{g.key()}] = {g.int_(0, 9)}"])


def dict_form(method: str) -> Form | None:
    t = "dict"
    if method == "clear":
        return mutator(lambda g, r: f"{p(r)}.clear()", t, settles=True)
    if method == "update":
        return mutator(lambda g, r: f"{p(r)}.update({g.other(t)})", t)
    if method == "copy":
        return via_self(lambda g, r: f"{p(r)}.copy()", t, t, idempotent=True)
    if method == "fromkeys":
        return via_self(lambda g, r: f"{g.choice(('dict', p(r)))}.fromkeys({r}, {g.int_(0, 9)})",
                        t, t)
    if method in ("get", "pop", "setdefault"):
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({g.key()}, {a})", "int", "int",
                        lambda g, r: g.other("int"))
    if method == "items":
        return via_self(lambda g, r: f"[*{p(r)}.items()]", "pairs", t)
    if method == "keys":
        return via_self(lambda g, r: f"[*{p(r)}.keys()]", "list_str", t)
    if method == "values":
        return via_self(lambda g, r: f"[*{p(r)}.values()]", "list", t)
    if method == "popitem":
        return _popitem
    return None
