"""Forms for list, tuple, set and dict methods.

Methods with preconditions are made safe by construction, never by try/except: `remove`
takes an item the receiver holds (its max, min or an end; a C1 set is first given
literals), a list's `pop` in straight code takes an index the list's own items give (a
draw that empties it raises in the self-check and is redrawn), elsewhere and in a set it
follows `r += [...]` / `r |= {...}`,
`index` searches `r + [a]`, `popitem` a dict that was just given a key.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import KEYS, Ctx, p
from workers.pipeline.builtin.piece import Form, Piece, mutator, via_self, via_slot

HELD_REMOVALS = 0.6  # remove draws that take items the receiver holds (else literals given first)
SET_TO_SET = ("difference", "intersection", "symmetric_difference", "union")
SET_UPDATES = ("difference_update", "intersection_update", "symmetric_difference_update",
               "update")


def _two_ints(g: Ctx) -> tuple[int, int]:
    a, b = g.rng.sample(range(10), 2)
    return a, b


def _given(t: str, r: str, values: list[int]) -> str:
    """The line that puts `values` into the list or set `r` before a use takes them out."""
    return f"{r} += {values!r}" if t == "list" else f"{r} |= {{{', '.join(map(str, values))}}}"


def _remove(t: str) -> Form:
    """Removes items the receiver holds, as people do: the highest and the lowest
    (`scores.remove(max(scores))`), a list's ends where no call may be written
    (`xs.remove(xs[0])`). A set at C1 has no item it can name without a call, so it is
    given literals and has them removed (before, every receiver was). An item held is
    there only while the receiver is not empty (a helper called in a loop may empty it):
    the other draws add literals and remove them, so the self-check has a draw that runs."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        held = [f"max({r})", f"min({r})"] if g.allow_calls else []
        held += [f"{r}[0]", f"{r}[-1]", f"{r}[1]"] if t == "list" else []
        if len(held) >= nest and g.rng.random() < HELD_REMOVALS:
            lines = [f"{r}.remove({v})" for v in g.rng.sample(held, nest)]
            return Piece(lines[-1], "none", lines[:-1], stmt=True)
        values = g.rng.sample(range(10), nest)
        lines = [f"{r}.remove({v})" for v in values]
        return Piece(lines[-1], "none", [_given(t, r, values)] + lines[:-1], stmt=True)
    return make


def _pop(t: str) -> Form:
    """In straight code a list's pop nests as a draw where the item taken says which item
    comes next (`deck.pop(deck.pop(0) % len(deck))`; `% 2` where no call may be written);
    before, the inner value went into a temporary list only to be popped straight back out
    (`(xs + [xs.pop()]).pop()`, the gate's identity_operation). Where the use may run many
    times (in a loop, or a helper called in one) the list is first given as many items as
    the draw takes (`deck += [4, 7]`), so a use in a loop does not empty it, and the draw
    starts at the front (`deck.pop(deck.pop(0) % len(deck))`), never at the item just given
    (`deck += [4]; deck.pop()` is 4 on every input). A set pops
    from itself joined with the inner value, after a literal is added (a set's pop takes
    any item, so it has one)."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        if t == "list":
            given = []  # where the use may repeat: as many items as the draw takes (one more
            if not g.straight:  # where `% 2` picks), the draw starting at the front
                given = [_given(t, r, [g.int_(0, 9) for _ in range(nest + (not g.allow_calls))])]
            expr = f"{r}.pop({g.choice(('', '0', '-1')) if g.straight else '0'})"
            for _ in range(nest - 1):
                expr = f"{r}.pop({expr} % {f'len({r})' if g.allow_calls else 2})"
            return Piece(expr, "int", given)
        grow = _given(t, r, [g.int_(0, 9)])
        expr = f"{r}.pop()"
        for _ in range(nest - 1):
            expr = f"({r} | {{{expr}}}).pop()"
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
        return via_self(lambda g, r: f"{p(r)}.copy()", t, t, idempotent=True, plain_other=True)
    if method == "count":
        return via_slot(lambda g, r, a: f"{p(r)}.count({a})", "int", "int",
                        lambda g, r: g.other("int"))
    if method == "index":
        return _index(t)
    return None


def _index(t: str) -> Form:
    """`(r + [a]).index(a)` finds a (or its appended copy); a nested use looks up a value
    the first one points at in the same padded sequence, bound once before the use."""
    one = "[{}]" if t == "list" else "({},)"

    def make(g: Ctx, r: str, nest: int) -> Piece:
        a = g.other("int")
        if nest == 1:
            return Piece(f"({r} + {one.format(a)}).index({a})", "int")
        padded = g.fresh()
        expr = f"{padded}.index({a})"
        for _ in range(nest - 1):
            step = g.choice((f"{expr} // 2", f"{expr} - 1", f"{expr} // {g.int_(3, 4)}"))
            expr = f"{padded}.index({padded}[{step}])"
        return Piece(expr, "int", [f"{padded} = {r} + {one.format(a)}"])
    return make


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
        return via_self(lambda g, r: f"{p(r)}.copy()", t, t, idempotent=True, plain_other=True)
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
        return via_self(lambda g, r: f"{p(r)}.copy()", t, t, idempotent=True, plain_other=True)
    if method == "fromkeys":
        return via_self(lambda g, r: f"{g.choice(('dict', p(r)))}.fromkeys({r}, {g.int_(0, 9)})",
                        t, t)
    if method in ("get", "pop", "setdefault"):
        return _lookup(method)
    if method in ("items", "keys", "values"):
        return _view(method)
    if method == "popitem":
        return _popitem
    return None


def _lookup(method: str) -> Form:
    """A lookup whose default is another lookup (`d.get('id', d.get('key', 0))`), each
    under a key of its own: under the same key the outer call is the inner one again
    (`d.setdefault('key', d.setdefault('key', 9))`)."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = g.other("int")
        for key in g.rng.sample(KEYS, nest):
            expr = f"{p(r)}.{method}({key!r}, {expr})"
        return Piece(expr, "int")
    return make


def _view(method: str) -> Form:
    """A dict view, listed; nested, the view of a dict built from the same view: the
    entries above a bound, the keys whose counts pass a test, one value per last digit."""
    rtype = {"items": "pairs", "keys": "list_str", "values": "list"}[method]

    def make(g: Ctx, r: str, nest: int) -> Piece:
        listed = g.choice(("[*{}]", "list({})")) if g.allow_calls else "[*{}]"
        if nest == 1:
            return Piece(listed.format(f"{p(r)}.{method}()"), rtype)
        k, v = g.choice((("k", "v"), ("key", "count"), ("name", "n")))
        bound = g.int_(1, 6)
        if method == "items":
            test = g.choice((f"{v} > {bound}", f"{v} % 2 == {g.int_(0, 1)}", f"{v} != {bound}"))
            inner = f"{{{k}: {v} for {k}, {v} in {r}.items() if {test}}}"
        elif method == "keys":
            test = g.choice((f"{r}[{k}] > {bound}", f"{r}[{k}] % 2 == {g.int_(0, 1)}", f"{k} < 'm'"))
            inner = f"{{{k}: {r}[{k}] for {k} in {r}.keys() if {test}}}"
        else:
            inner = f"{{{v} % {g.int_(3, 10)}: {v} for {v} in {r}.values()}}"
        expr = f"{inner}.{method}()"
        for _ in range(nest - 2):
            expr = f"{{{k}: 0 for {k} in {expr}}}.keys()" if method == "keys" else \
                f"{{{k}: {v} for {k}, {v} in {expr} if {v} > {g.int_(0, 3)}}}.items()" \
                if method == "items" else f"{{{v} // 2: {v} for {v} in {expr}}}.values()"
        return Piece(listed.format(expr), rtype)
    return make
