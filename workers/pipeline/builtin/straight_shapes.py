"""Prep lines and endings of the generic depth-0 bodies (C1/C2), per value type.

A prep line readies the input the way the task needs (drop the first item and keep it to
report, keep the inner values, orient a sequence by its ends, keep the entries of a dict
above a bound, take the magnitude of a number); it keeps the input's type, so the target's
form reads the new value. Comprehensions, unpacking, slices and conditional expressions
need no call (C1); `len`, `sorted`, `.items()`, `abs`, `.strip()` only where calls are
allowed (C2). A body ends by returning its result, a tuple of named results, or a
comparison of two results.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.straight_kit import pick_name

_ELEM = ("v", "x", "item", "value")


def _elem(g: Ctx) -> str:
    return g.choice([n for n in _ELEM if n not in g.used] or ["elem"])


def _bound(g: Ctx) -> str:
    known = g.pool.get("int", [])
    return g.choice(known) if known and g.rng.random() < 0.4 else str(g.int_(2, 9))


def prep(g: Ctx, t: str, r: str, calls: bool) -> tuple[str, str, str | None] | None:
    """(line, new value of type t, a pivot the line unpacked) or None for types without one."""
    kind = g.rng.random()
    v = _elem(g)
    if t in ("list", "str", "tuple"):
        if t == "list" and kind < 0.2:
            pivot = pick_name(g, "first", "head", "lead")
            rest = pick_name(g, "rest", "others", "remaining")
            return f"{pivot}, *{rest} = {r}", rest, pivot
        if t == "list" and kind < 0.35:
            new = pick_name(g, "odd_ones", "kept", "evens", "small")
            test = g.choice((f"{v} % 2", f"{v} % 2 == 0", f"{v} < {_bound(g)}", f"{v} > {_bound(g)}"))
            return f"{new} = [{v} for {v} in {r} if {test}]", new, None
        if kind < 0.45:
            new = pick_name(g, "oriented", "ordered", "aligned")
            op = g.choice(("<=", ">", "<", ">="))
            i, j = g.choice(((0, -1), (0, 1), (-1, 0), (1, -1)))
            return f"{new} = {r} if {r}[{i}] {op} {r}[{j}] else {r}[::-1]", new, None
        if calls and kind < 0.7:
            new = pick_name(g, "half", "front", "first_half")
            return f"{new} = {r}[:len({r}) // 2 + 1]", new, None
        if calls and t == "str" and kind < 0.85:
            new = pick_name(g, "cleaned", "stripped", "plain")
            return f"{new} = {r}.{g.choice(('strip', 'lower', 'casefold'))}()", new, None
        if kind < 0.8:
            new = pick_name(g, "inner", "middle", "core", "trimmed")
            i, j = g.choice(((1, -1), (1, -2), (2, -1), (1, None), (None, -1), (2, None)))
            return f"{new} = {r}[{'' if i is None else i}:{'' if j is None else j}]", new, None
        if t == "str":
            pivot = pick_name(g, "initial", "lead", "first_char")
            rest = pick_name(g, "rest", "body", "remainder")
            return f"{pivot}, {rest} = {r}[:1], {r}[1:]", rest, pivot
        new = pick_name(g, "alternate", "every_other", "sampled")
        return f"{new} = {r}[::2]", new, None
    if t == "set":
        new = pick_name(g, "digits", "reduced", "odd_ones", "kept")
        if kind < 0.5:
            return f"{new} = {{{v} % 10 for {v} in {r}}}", new, None
        test = g.choice((f"{v} % 2", f"{v} > {_bound(g)}", f"{v} % 3 != 0"))
        return f"{new} = {{{v} for {v} in {r} if {test}}}", new, None
    if t == "dict":
        key = g.choice(("k", "key", "name"))
        new = pick_name(g, "kept", "active", "stocked", "nonzero")
        if calls and kind < 0.5:
            val = g.choice(("n", "count", "qty"))
            test = g.choice((f"{val} > {_bound(g)}", f"{val}", f"{val} % 2 == 0"))
            return f"{new} = {{{key}: {val} for {key}, {val} in {r}.items() if {test}}}", new, None
        test = g.choice((f"{r}[{key}] > {_bound(g)}", f"{r}[{key}]", f"{r}[{key}] % 2 == 0"))
        return f"{new} = {{{key}: {r}[{key}] for {key} in {r} if {test}}}", new, None
    if t in ("float", "int"):
        cut = (repr(round(g.rng.uniform(0.5, 15.0), 1)) if g.rng.random() < 0.6
               else g.choice(("0.5", "1.0", "2.5", "5.0", "10.0"))) if t == "float" else str(g.int_(2, 12))
        if calls and kind < 0.3:
            new = pick_name(g, "magnitude", "size", "distance")
            return f"{new} = abs({r})", new, None
        if calls and kind < 0.45:
            new = pick_name(g, "capped", "bounded", "clamped")
            return f"{new} = {g.choice(('min', 'max'))}({r}, {cut})", new, None
        if kind < 0.35:  # the distance from a reference value
            new = pick_name(g, "gap", "spread", "offset")
            return f"{new} = {r} - {cut} if {r} > {cut} else {cut} - {r}", new, None
        if kind < 0.7:
            new = pick_name(g, "capped", "bounded", "clamped")
            return f"{new} = {r} if {r} < {cut} else {cut}", new, None
        new = pick_name(g, "shifted", "reduced", "excess")
        return f"{new} = {r} - {cut} if {r} > {cut} else {r}", new, None
    return None


def combine(g: Ctx, t: str, a: str, b: str) -> str | None:
    """Two results of type t returned together: a tuple, or a comparison where t orders."""
    roll = g.rng.random()
    if roll < 0.5:
        return f"{a}, {b}"
    if t in ("int", "float", "str", "list", "tuple") and roll < 0.75:
        return f"{a} {g.choice(('<', '>', '<=', '>=', '=='))} {b}"
    if t in ("int", "float") and roll < 0.9:
        return f"{a} - {b}" if roll < 0.82 else f"({a} + {b}) / 2"
    return None
