"""Type conversions between generator value types, used to nest a use inside another.

A use of `str.count` returns an int; to nest it inside another `str.count` the int has to
become a str argument. The conversions here are total (never raise), keep values small, and
give non-empty containers. Without `allow_calls` (levels that forbid other methods) they use
operators, subscripts and displays only, so they add no call to the program.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p

_PADS = ("ab", "x", "ok", "z9", "Q", " a", "7", "hi", "-", "aa")


def to_bool(g: Ctx, x: str, t: str) -> str:
    if t == "bool":
        return x
    if t == "int":
        return g.choice((f"{p(x)} > {g.int_(0, 4)}", f"{p(x)} % 2 == {g.int_(0, 1)}",
                         f"{p(x)} != {g.int_(0, 3)}"))
    if t == "float":
        return f"{p(x)} > {g.choice(('0.5', '1.0', '2.5', '-1.0'))}"
    if t == "none":
        return f"{p(x)} is None"
    if g.allow_calls and g.rng.random() < 0.4 and t not in ("float", "int", "bool"):
        return f"len({x}) > {g.int_(0, 3)}"
    empty = {"str": "''", "bytes": "b''", "list": "[]", "tuple": "()", "set": "set()",
             "dict": "{}", "list_str": "[]", "tuple_str": "()", "pairs": "[]", "itable": "{}"}.get(t)
    if empty == "set()":
        return f"{p(x)} != {{{g.int_(0, 9)}}}"
    if empty is None:
        return f"{p(x)} == {p(x)}"
    return f"{p(x)} {g.choice(('==', '!='))} {empty}"


def to_int(g: Ctx, x: str, t: str) -> str:
    """A small non-negative int."""
    if t == "int":
        return x
    if t in ("list", "tuple"):
        pad = "[" if t == "list" else "("
        tail = f"{g.int_(0, 9)}]" if t == "list" else f"{g.int_(0, 9)},)"
        return f"{p(f'{p(x)} + {pad}{tail}')}[0] % {g.int_(3, 7)}"
    if t == "pair":
        return f"{p(x)}[1] % {g.int_(3, 7)}"
    if t == "ftuple":
        return to_int(g, f"{p(x)}[{g.int_(0, 1)}]", "float")
    if t == "float" and g.allow_calls and g.rng.random() < 0.5:
        return f"int(abs({x})) % {g.int_(3, 7)}"
    if t in ("str", "list_str", "tuple_str", "set", "dict", "bytes") and g.allow_calls \
            and g.rng.random() < 0.5:
        return f"len({x}) % {g.int_(3, 7)}"
    return to_bool_int(g, x, t)


def to_bool_int(g: Ctx, x: str, t: str) -> str:
    return f"{p(to_bool(g, x, t))} + {g.int_(1, 3)}"


def to_str(g: Ctx, x: str, t: str) -> str:
    """A non-empty str."""
    if t == "str":
        return x
    if t in ("list_str", "tuple_str"):
        pad = f"[{g.lit('str')}]" if t == "list_str" else f"({g.lit('str')},)"
        return f"{p(f'{p(x)} + {pad}')}[0] + {g.word() + 'z'!r}"
    if g.allow_calls and g.rng.random() < 0.35 and t in ("int", "float", "bool", "list"):
        return f"str({x})"
    if g.allow_calls and t == "bytes" and g.rng.random() < 0.5:
        return f"{p(x)}.decode() + 'b'"
    count = x if t == "bool" else (f"{p(x)} % {g.int_(2, 4)}" if t == "int" else to_bool(g, x, t))
    return f"{g.choice(_PADS)!r} * {p(count)} + {g.choice(_PADS)!r}"


def to_float(g: Ctx, x: str, t: str) -> str:
    if t == "float":
        return x
    if t == "ftuple":
        return f"{p(x)}[{g.int_(0, 1)}]"
    n = x if t in ("int", "bool") else to_int(g, x, t)
    return g.choice((f"{p(n)} + {g.choice(('0.5', '0.25', '1.5'))}",
                     f"{p(n)} / {g.choice(('2', '4', '8'))}", f"{p(n)} * 1.5"))


def convert(g: Ctx, x: str, src: str, dst: str, fallback: str | None = None) -> str:
    """x (of type src) as a value of type dst. `fallback` (a variable of type dst) is what
    a None-valued mutator call turns into: `(x.append(1) or x)`."""
    if src == dst:
        return x
    if src == "none" and fallback is not None:
        return f"{x} or {fallback}"
    if dst == "bool":
        return to_bool(g, x, src)
    if dst == "int":
        return to_int(g, x, src)
    if dst == "str":
        return to_str(g, x, src)
    if dst == "float":
        return to_float(g, x, src)
    n = to_int(g, x, src)
    if dst == "list":
        return f"[{n}, {g.int_(0, 9)}]"
    if dst == "tuple":
        return f"({n}, {g.int_(0, 9)})"
    if dst == "set":
        return f"{{{n}, {g.int_(0, 9)}}}"
    if dst == "dict":
        return f"{{{g.key()}: {n}}}"
    if dst == "bytes":
        return f"b'ab' * {p(to_bool(g, x, src))} + b'c'"
    if dst == "list_str":
        return f"[{to_str(g, x, src)}]"
    if dst == "tuple_str":
        return f"({to_str(g, x, src)},)"
    raise ValueError(f"no conversion {src} -> {dst}")
