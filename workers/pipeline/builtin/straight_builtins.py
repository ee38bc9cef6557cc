"""Depth-0 bodies (C1/C2) for the iterator builtins: enumerate, filter, reversed, zip, range.

Each is one nested use a person writes for a task: number the positions of the values that
pass a test, filter what another filter kept, take the last k items in order, walk
triples of two zipped lists and a third, count down from the last value of a range.
Without calls (C1) the iterators are unpacked into displays (`[*it]`, `{*it}`) or walked
by comprehensions; with calls (C2) they also feed `list`, `dict`, `sum`, `next`, `sorted`
and `str.join`. The shapes and every test, transform, bound and return are drawn from the
program's rng; `build` returns None for draws it has no shape for (the generic forms take
those).
"""

from __future__ import annotations

import ast

from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.straight_kit import Kit, pick_name, star

BUILTINS = ("enumerate", "filter", "reversed", "zip", "range")
_RESULT_NAMES = {
    "enumerate": ("numbered", "ranked", "positions", "labeled", "indexed", "places"),
    "filter": ("kept", "matches", "picked", "selected", "passing", "chosen"),
    "reversed": ("latest", "last_items", "recent", "trimmed", "tail_part"),
    "zip": ("pairs", "triples", "rows", "windows", "combined", "lined_up"),
    "range": ("steps", "countdown", "sequence", "marks", "stops", "ticks"),
}


def _enumerate(k: Kit) -> tuple[str, str]:
    g, xs, calls = k.g, k.data, k.calls
    start = g.choice(("", ", 1", ", 1", f", {g.int_(2, 10)}"))
    i, v = g.choice((("i", "v"), ("pos", "x"), ("idx", "value"), ("i", "x")))
    shape = g.rng.randrange(9 if calls else 6)
    if shape == 0:  # rank the positions of the values that pass the test
        return f"[*enumerate([{i} for {i}, {v} in enumerate({xs}) if {k.test(v)}]{start})]", "list"
    if shape == 1:
        n = g.choice(("n", "rank", "count"))
        return (f"[({n}, {i}, {v}) for {n}, ({i}, {v}) in enumerate(enumerate({xs}{start})) "
                f"if {k.test(v)}]"), "list"
    if shape == 2:
        step = g.choice((f"{v} - {i}", f"{v} + {i}", f"{v} * {i}", f"{v} - {i} * 2"))
        return f"[*enumerate([{step} for {i}, {v} in enumerate({xs})]{start})]", "list"
    if shape == 3:  # every other value, numbered again
        j = g.choice(("j", "k", "at"))
        parity = g.choice(("0", "1"))
        return (f"{{{i}: {v} for {i}, {v} in enumerate([{v} for {j}, {v} in enumerate({xs}) "
                f"if {j} % 2 == {parity}]{start})}}"), "dict"
    if shape == 4:  # values above their own position, weighted by the new one
        j = g.choice(("j", "k", "at"))
        return (f"[{i} * {v} for {i}, {v} in enumerate([{v} for {j}, {v} in enumerate({xs}) "
                f"if {v} > {j}]{start})]"), "list"
    if shape == 5:
        return star(g, f"enumerate(enumerate({xs}{start}), {g.int_(1, 5)})", calls), "list"
    if shape == 6:
        return f"dict(enumerate([{v} for {i}, {v} in enumerate({xs}) if {k.test(v)}]{start}))", "dict"
    if shape == 7:
        j = g.choice(("j", "k", "at"))
        return (f"sum({i} * {v} for {i}, {v} in enumerate([{v} for {j}, {v} in enumerate({xs}) "
                f"if {k.test(v)}]{start}))"), "int"
    return (f"max(enumerate([{v} - {i} for {i}, {v} in enumerate({xs})]{start}), "
            f"key=lambda pair: pair[1])"), "pair"


def _filter(k: Kit) -> tuple[str, str]:
    g, xs, calls = k.g, k.data, k.calls
    a, b = k.lam(), k.lam()
    inner = f"filter(lambda {b}: {k.test(b)}, {xs})" if k.prepped == "nonzero" \
        or g.rng.random() < 0.7 else f"filter(None, {xs})"
    outer = f"lambda {a}: {k.test(a)}"
    shape = g.rng.randrange(10 if calls else 5)
    if shape == 0:
        return star(g, f"filter({outer}, {inner})", calls), "list"
    if shape == 1:
        v = k.elem()
        return f"[{k.transform(v)} for {v} in filter({outer}, {inner})]", "list"
    if shape == 2:
        return star(g, f"filter({outer}, {inner})", calls, "set"), "set"
    if shape == 3:  # transformed values that are not zero
        v = k.elem()
        change = g.choice((f"{v} % {g.int_(2, 5)}", f"{v} - {k.bound()}", f"{v} // {g.int_(2, 9)}"))
        return f"[*filter(None, [{change} for {v} in filter({outer}, {xs})])]", "list"
    if shape == 4:
        return star(g, f"filter(lambda {a}: {a} in {k.other()}, {inner})", calls), "list"
    if shape == 5:
        return f"next(filter({outer}, {inner}), {g.choice(('-1', '0', 'None'))})", "int?"
    if shape == 6:
        return f"sum(filter({outer}, {inner}))", "int"
    if shape == 7:
        return f"sorted(filter({outer}, {inner}){g.choice(('', ', reverse=True'))})", "list"
    if shape == 8:
        return f"max(filter({outer}, {inner}), default={g.choice(('0', '-1', 'None'))})", "int?"
    text = k.text()
    c = g.choice(("c", "ch", "letter"))
    keep = g.choice(("str.isalpha", "str.isalnum", "str.isdigit", "str.islower", "str.isupper"))
    skip = g.choice((f"lambda {c}: {c} != ' '", f"lambda {c}: {c} not in 'aeiou'",
                     f"lambda {c}: {c} not in ',.-'"))
    return f"''.join(filter({keep}, filter({skip}, {text})))", "str"


def _reversed(k: Kit) -> tuple[str, str]:
    g, xs, calls = k.g, k.data, k.calls
    back = f"[*reversed({xs})]" if not calls or g.rng.random() < 0.5 else f"list(reversed({xs}))"
    cut = g.choice(("[:{n}]", "[{n}:]", "[::{m}]", "[:{n}]", "[1:{n}]", "[1::{m}]", "[{n}::{m}]",
                    "[{n}:]", "[{n}:-1]", "[{i}:{j}]", "[:-{n}]", "[{i}:-{n}]"))
    size = k.limit() if g.rng.random() < 0.15 and "{n}]" in cut else str(g.int_(1, 4))
    cut = cut.replace("{i}", str(g.int_(1, 2))).replace("{j}", str(g.int_(3, 5)))
    if cut == "[1:{n}]" and not size.isdigit():
        cut = "[:{n}]"
    cut = cut.replace("{m}", str(g.int_(2, 3))).format(n=size)
    part = f"{back}{cut}"
    shape = g.rng.randrange(9 if calls else 5)
    v = k.elem()
    if shape in (0, 1) and g.rng.random() < 0.4:  # the last few (or all but them), in order
        return star(g, f"reversed({part})", calls), "list"
    if shape in (0, 1, 2):
        return f"[{k.transform(v)} for {v} in reversed({part})]", "list"
    if shape == 3:
        return f"[{v} for {v} in reversed({part}) if {k.test(v)}]", "list"
    if shape == 4:  # the last few values that pass the test, in their order
        return f"[*reversed([{v} for {v} in reversed({xs}) if {k.test(v)}][:{g.int_(2, 4)}])]", "list"
    if shape == 5:  # weighted by place from the end (a sum of the reversed items alone ignores the order)
        return f"sum(pos * {v} for pos, {v} in enumerate(reversed({part}), 1))", "int"
    if shape == 6:
        return f"list(enumerate(reversed({part}){g.choice(('', ', 1'))}))", "list"
    if shape == 7:
        text = k.text()
        return f"''.join(reversed([*reversed({text})]{cut}))", "str"
    a, b = g.choice((("a", "b"), ("new", "old"), ("x", "y")))
    return f"[{a} - {b} for {a}, {b} in zip({xs}, reversed({part}))]", "list"


def _partner(k: Kit) -> str:
    """A sequence to zip with the data: another list, or the data shifted or turned round."""
    g, xs = k.g, k.data
    roll = g.rng.random()
    if roll < 0.45:
        return k.other()
    if roll < 0.6:
        return f"{k.other()}[{g.int_(1, 2)}:]"
    if roll < 0.85:
        return f"{xs}[{g.int_(1, 3)}:]"
    return f"{xs}[::-1]"


def _zip(k: Kit) -> tuple[str, str]:
    g, xs, calls = k.g, k.data, k.calls
    a, b, c = g.choice((("a", "b", "c"), ("x", "y", "z"), ("left", "right", "extra")))
    shape = g.rng.randrange(11 if calls else 7)
    roll = g.rng.random()
    third = "" if shape not in (0, 4, 10) else k.text() if roll < 0.4 else _partner(k)
    relation = g.choice((f"{c} > {a}", f"{c} < {a}", f"{c} != {a}", f"{a} + {c} > {b}",
                         f"{c} % 2 == 0", f"{a} < {b} < {c}"))
    if shape == 0:
        return f"[({a}, {b}, {c}) for ({a}, {b}), {c} in zip(zip({xs}, {_partner(k)}), {third})]", "list"
    if shape == 1:  # each run of three neighbours: its sum, spread or middle's rise
        value = g.choice((f"{a} + {b} + {c}", f"({a} + {b} + {c}) // 3", f"{c} - {a}",
                          f"{b} * 2 - {a} - {c}", f"({a}, {c})"))
        test = g.choice(("", "", f" if {a} < {b}", f" if {b} > {c}", f" if {a} != {c}"))
        return f"[{value} for ({a}, {b}), {c} in zip(zip({xs}, {xs}[1:]), {xs}[2:]){test}]", "list"
    if shape == 2:
        value = g.choice((f"({a}, {b})", f"{a} + {b}", f"{a} * {b}", f"{a} - {b}", f"[{a}, {b}]"))
        return f"{{{c}: {value} for {c}, ({a}, {b}) in zip({k.text()}, zip({xs}, {_partner(k)}))}}", "dict"
    if shape == 3:
        value = g.choice((f"{a} * {b}", f"{a} + {b}", f"{b} - {a}", f"({a}, {b})"))
        return f"[{value} for {a}, ({b}, {c}) in zip({xs}, zip({_partner(k)}, {xs}[1:])) if {relation}]", "list"
    if shape == 4:
        return star(g, f"zip({xs}, zip({_partner(k)}, {third}))", calls), "list"
    if shape == 5:
        return star(g, f"zip(*zip({xs}, {_partner(k)}))", calls), "list"
    if shape == 6:
        op = g.choice(("-", "+", "*"))
        return f"[*zip({xs}, [{a} {op} {b} for {a}, {b} in zip({xs}, {_partner(k)})])]", "list"
    if shape == 7:
        return f"dict(zip({k.text()}, zip({xs}, {_partner(k)})))", "dict"
    if shape == 8:
        return f"[max({a}, {b}) - {c} for ({a}, {b}), {c} in zip(zip({xs}, {_partner(k)}), {xs}[1:])]", "list"
    if shape == 9:
        return (f"sum({a} * {b} for ({a}, {b}), {c} in zip(zip({xs}, {_partner(k)}), {xs}[1:]) "
                f"if {relation})"), "int"
    return f"sorted(zip({xs}, zip({_partner(k)}, {third})){g.choice(('', ', reverse=True'))})", "list"


def _range(k: Kit) -> tuple[str, str]:
    g, n, calls = k.g, k.data, k.calls
    size = f"{n} % {g.int_(3, 12)} + {g.int_(2, 5)}"
    if calls and g.rng.random() < 0.3:
        size = g.choice((f"abs({n}) % {g.int_(5, 12)} + 2", f"len(str({n})) + {g.int_(2, 5)}"))
    lo = g.int_(0, 1)  # below every size, so no range here is empty
    i = g.choice(("i", "v", "k", "step_no"))

    def step() -> str:
        roll = g.rng.random()
        return "2" if roll < 0.3 else "3" if roll < 0.55 else f"{k.limit()} % 3 + 1"

    def back() -> str:
        s = step()
        return f"-{s}" if s.isdigit() else f"-({s})"

    shape = g.rng.randrange(10 if calls else 6)
    if shape == 0:  # from lo through the last stepped value
        return star(g, f"range({lo}, range({lo}, {size}, {step()})[-1] + 1)", calls), "list"
    if shape == 1:  # count down from the last value below the size
        return star(g, f"range(range({size})[-1], {g.choice(('-1', '0', '-1'))}, {back()})", calls), "list"
    if shape == 2:
        value = g.choice((f"{i} * {i}", f"{i} * {g.int_(2, 5)}", f"{i} * {i} - {i}", f"2 ** {i}"))
        return f"[{value} for {i} in range(range(1, {size})[-1] + {g.int_(0, 2)})]", "list"
    if shape == 3:
        m = g.int_(2, 4)
        return f"[{i} for {i} in range(range(0, ({size}) * {m}, {m})[-1]) if {i} % {step()} == 0]", "list"
    if shape == 4:
        value = g.choice((f"{i} * {i}", f"{i} * {g.int_(2, 5)}", f"{i} % {g.int_(2, 4)}", f"-{i}",
                          f"{i} // 2"))
        return f"{{{i}: {value} for {i} in range(range({size})[-1] + {g.int_(1, 3)})}}", "dict"
    if shape == 5:
        return star(g, f"range(0, range({size}, ({size}) * 4, 3)[-1], {step()})", calls), "list"
    if shape == 6:  # a triangular number
        return f"sum(range(range({size})[-1] + 1))", "int"
    if shape == 7:
        sep = g.choice(("'-'", "', '", "' '", "''"))
        return f"{sep}.join(str({i}) for {i} in range(range(1, {size})[-1], 0, {back()}))", "str"
    if shape == 8:
        return f"list(range(max(range({lo}, {size}, {step()})), -1, -1))", "list"
    return f"sorted(range({lo}, range({lo}, {size}, {step()})[-1] + 1), reverse=True)", "list"


_CORES = {"enumerate": _enumerate, "filter": _filter, "reversed": _reversed, "zip": _zip,
          "range": _range}


def _other_calls(lines: list[str], target: str) -> bool:
    tree = ast.parse("\n".join(line.strip() for line in lines))
    return any(isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id == target)
               for n in ast.walk(tree))


def _reads_all(lines: list[str], params: list[str]) -> bool:
    """Every parameter and every name a line binds is read by a later line."""
    tree = ast.parse("\n".join(line.strip() for line in lines))
    body = tree.body
    for i, stmt in enumerate(body):
        later = {n.id for s in body[i + 1:] for n in ast.walk(s) if isinstance(n, ast.Name)}
        if isinstance(stmt, ast.Assign):
            bound = {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if not bound <= later:
                return False
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return set(params) <= loaded


def build(g: Ctx, target: str, data: str, calls: bool, tries: int = 4) -> list[str] | None:
    """The body lines (indented) of a depth-0 program for one of the builtins, or None."""
    if target not in _CORES:
        return None
    for _ in range(tries):
        params, used = list(g.params), set(g.used)
        pool = {t: list(v) for t, v in g.pool.items()}
        lines = _draw(g, target, data, calls)
        if lines is not None and _reads_all(lines, [q.name for q in g.params]):
            return [f"    {line}" for line in lines]
        g.params, g.used, g.pool = params, used, pool
    return None


def _draw(g: Ctx, target: str, data: str, calls: bool) -> list[str] | None:
    core = _CORES[target]
    k = Kit(g, data, calls)
    lines: list[str] = []
    if target != "range" and g.rng.random() < 0.7:
        prep = k.prep()
        if prep is not None:
            lines.append(prep)
    expr, rtype = core(k)
    name = pick_name(g, *_RESULT_NAMES[target])
    extra, shaped = k.returns(name, "int" if rtype in ("int", "int?", "str", "pair") else rtype)
    if rtype in ("list",) and calls and not _other_calls(lines + [expr, shaped], target):
        shaped = g.choice((f"len({name}), {name}", f"{name}, len({name})", f"sorted({name})"))
    if rtype in ("dict", "set") and calls and not _other_calls(lines + [expr], target):
        shaped = g.choice((f"len({name}), {name}", f"sorted({name})"))
    if shaped == name and g.rng.random() < 0.7:
        lines.append(f"return {expr}")
    else:
        lines += [f"{name} = {expr}", *extra, f"return {shaped}"]
    if calls and not _other_calls(lines, target):
        return None
    return lines
