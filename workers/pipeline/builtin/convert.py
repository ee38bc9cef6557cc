"""Type conversions between generator value types, used to nest a use inside another.

A use of `str.count` returns an int; to nest it inside another `str.count` the int has to
become a str argument. Conversions are total (never raise), keep values small and read as
code a person writes: a count slices the text it counts in (`text[:n]`), a number becomes
text through an f-string, a text's parts are joined back or one is taken (never the repr
of a list or a tuple: `str(text.split()).split(',')`), a flag chooses between two values.
Never a bool in arithmetic (`(c) + 1`, `'s' * c`) or `x.m() or x`. Without `allow_calls` (levels that forbid other
methods) they use operators, subscripts, f-strings and displays only.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p

_EMPTY = {"str": "''", "bytes": "b''", "list": "[]", "tuple": "()", "dict": "{}",
          "list_str": "[]", "tuple_str": "()", "pairs": "[]", "itable": "{}", "pair": "()",
          "ftuple": "()"}


def to_bool(g: Ctx, x: str, t: str) -> str:
    """A condition on x that some values meet and others do not."""
    if t == "bool":
        return x
    if t == "int":
        return g.choice((f"{p(x)} > {g.int_(2, 9)}", f"{p(x)} % 2 == 0", f"{p(x)} % 3 == 0"))
    if t == "float":
        return g.choice((f"{p(x)} > {g.choice(('0.5', '1.0', '2.5', '10.0'))}", f"{p(x)} < 0"))
    if t == "none":
        return f"{p(x)} is None"
    if g.allow_calls and t not in ("pair", "ftuple"):
        return f"len({x}) > {g.int_(1, 4)}"
    if t == "set":
        return f"{p(x)} != set()" if g.allow_calls else f"{p(x)} != {{{g.int_(0, 9)}}}"
    return f"{p(x)} != {_EMPTY.get(t, '()')}"


def pick(g: Ctx, cond: str, a: str, b: str) -> str:
    return f"{p(a)} if {cond} else {p(b)}"


def to_int(g: Ctx, x: str, t: str) -> str:
    """A small non-negative int."""
    if t == "int":
        return x
    if t == "bool":
        return pick(g, x, str(g.int_(1, 4)), "0")
    if t in ("list", "tuple"):
        tail = f"[{g.int_(0, 9)}]" if t == "list" else f"({g.int_(0, 9)},)"
        return f"{p(f'{p(x)} + {tail}')}[0]"
    if t == "pair":
        return f"{p(x)}[1]"
    if t == "ftuple":
        return to_int(g, f"{p(x)}[{g.int_(0, 1)}]", "float")
    if t == "float":
        return f"int(abs({x}))" if g.allow_calls else f"{p(x)} // 1 % 10"
    if g.allow_calls and t in ("str", "list_str", "tuple_str", "set", "dict", "bytes", "pairs"):
        return f"len({x})"
    return pick(g, to_bool(g, x, t), str(g.int_(1, 4)), "0")


def to_str(g: Ctx, x: str, t: str, basis: str | None = None) -> str:
    """A str: a count cuts the text it was counted in; other values are formatted."""
    if t == "str":
        return x
    if t == "int" and basis in g.pool.get("str", ()) and g.rng.random() < 0.6:
        return f"{p(basis)}[{p(x)}:]" if g.rng.random() < 0.5 else f"{p(basis)}[:{p(x)}]"
    if t == "bool":
        return pick(g, x, repr(g.choice(("yes", "on", "ok", "+"))), repr(g.choice(("no", "off", "-"))))
    if t == "bytes" and g.allow_calls:
        return f"{p(x)}.decode()"
    if t == "tuple_str":  # a partition's parts: its head or its tail, not the tuple's repr
        return f"{p(x)}[{g.choice(('0', '-1'))}]"
    if t == "list_str":  # parts joined back, or the first (none: '') where no call may be added
        return f"{g.choice((repr(' '), repr(','), repr('-')))}.join({x})" if g.allow_calls else f"({x} + [''])[0]"
    return fstring(g, x)


def fstring(g: Ctx, x: str) -> str:
    """`str(x)`, or an f-string where no call may be added (quotes kept apart for 3.11)."""
    if g.allow_calls:
        return f"str({x})"
    if "\\" in x or ('"' in x and "'" in x):
        return f"'%s' % ({x},)"
    return f'f"{{{x}}}"' if '"' not in x else f"f'{{{x}}}'"


def to_float(g: Ctx, x: str, t: str) -> str:
    if t == "float":
        return x
    if t == "ftuple":
        return f"{p(x)}[{g.int_(0, 1)}]"
    n = x if t == "int" else to_int(g, x, t)
    return g.choice((f"{p(n)} + {g.choice(('0.5', '0.25', '1.5'))}",
                     f"{p(n)} / {g.choice(('2', '4', '8'))}", f"{p(n)} * 1.5"))


def convert(g: Ctx, x: str, src: str, dst: str, basis: str | None = None) -> str:
    """x (of type src) as a value of type dst; `basis` is the receiver the value came
    from (a count becomes a cut of it)."""
    if src == dst:
        return x
    if dst == "bool":
        return to_bool(g, x, src)
    if dst == "int":
        return to_int(g, x, src)
    if dst == "str":
        return to_str(g, x, src, basis)
    if dst == "float":
        return to_float(g, x, src)
    if src == "bool":
        return pick(g, x, g.lit(dst), g.lit(dst))
    n = to_int(g, x, src)
    if basis is not None and basis in g.pool.get(dst, ()):  # the value joins what it came from
        merged = {"list": f"{basis} + [{n}]", "tuple": f"{basis} + ({n},)",
                  "set": f"{basis} | {{{n}}}", "dict": f"{basis} | {{{g.key()}: {n}}}"}.get(dst)
        if merged:
            return merged
    if dst == "list":
        return f"[{n}, {g.int_(0, 9)}]"
    if dst == "tuple":
        return f"({n}, {g.int_(0, 9)})"
    if dst == "set":
        return f"{{{n}, {g.int_(0, 9)}}}"
    if dst == "dict":
        return f"{{{g.key()}: {n}}}"
    if dst == "bytes":
        return f"{fstring(g, x)}.encode()" if g.allow_calls else "b'ab'"
    if dst == "list_str":
        return f"[{to_str(g, x, src, basis)}]"
    if dst == "tuple_str":
        return f"({to_str(g, x, src, basis)},)"
    raise ValueError(f"no conversion {src} -> {dst}")
