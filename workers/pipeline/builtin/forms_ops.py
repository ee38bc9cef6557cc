"""Operator, subscript, slice and len() forms shared by str, list, tuple, set, dict, float."""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.piece import Form, Piece, statement, via_self, via_slot

ELEMENT = {"str": "str", "list": "int", "tuple": "int", "set": "int", "dict": "str"}
ITEM = {"str": "str", "list": "int", "tuple": "int"}  # what r[i] gives


def pad(g: Ctx, t: str) -> tuple[str, int]:
    """A non-empty literal to append before indexing, so any small index is valid."""
    if t == "str":
        w = g.word(3, 5)
        return repr(w), len(w)
    items = [g.int_(0, 9) for _ in range(g.int_(3, 5))]
    text = repr(items) if t == "list" else repr(tuple(items))
    return text, len(items)


def element(g: Ctx, t: str, r: str) -> str:
    """A likely-interesting element/substring/key for membership tests."""
    if t == "str" and g.rng.random() < 0.4:
        i = g.int_(0, 3)
        return f"{r}[{i}:{i + g.int_(1, 3)}]"
    if t == "dict":
        return g.key()
    return g.other(ELEMENT[t])


def binop(op: str, t: str) -> Form:
    if op in ("+", "|", "&", "-", "^") and t != "float" or (t == "float" and op in "+-"):
        return via_slot(lambda g, r, a: f"{r} {op} {p(a)}", t, t, lambda g, r: g.other(t))
    if op == "*":
        # sliced first, so chains of repetition stay small
        return via_self(lambda g, r: f"{p(r)}[:{g.int_(2, 5)}] * {g.int_(1, 3)}", t, t)
    if op == "%":  # float
        return via_self(lambda g, r: f"{p(r)} % {g.choice(('1.5', '2.0', '2.5', '3.0', '7.0'))}",
                        t, t)
    raise KeyError(op)


def index(t: str) -> Form:
    if t == "dict":
        # the input's value for the key, a default where it lacks it (the merge puts the
        # input last, so its own value wins: `(d | {k: 0})[k]` would always be 0)
        return via_slot(lambda g, r, a: f"({{{a}: {g.int_(0, 9)}}} | {r})[{a}]", "int", "str",
                        lambda g, r: g.key())

    def render(g: Ctx, r: str, a: str) -> str:
        text, n = pad(g, t)
        idx = a if a.lstrip("-").isdigit() and -n <= int(a) < n else f"{p(a)} % {n}"
        return f"({r} + {text})[{idx}]"
    return via_slot(render, ITEM[t], "int", lambda g, r: str(g.int_(-2, 2)))


def slice_(form: str, t: str) -> Form:
    """Bounds a person writes: drop the first or last items, keep a few from the front;
    nested cuts peel the value further (`word[1:-1][1:-1]`), never cut past its end."""
    def render(g: Ctx, r: str) -> str:
        i = g.int_(0, 2)
        bounds = {"[:]": ":", "[i:j]": f"{i}:{g.choice((-1, -2, i + 3, i + 4))}",
                  "[i:]": f"{g.int_(1, 2)}:", "[:j]": f":{g.choice((-1, -2, 3, 4))}"}[form]
        return f"{p(r)}[{bounds}]"
    return via_self(render, t, t, idempotent=form == "[:]")


def compare(op: str, t: str) -> Form:
    if op in ("in", "not in"):
        return via_slot(lambda g, r, a: f"{p(a)} {op} {r}", "bool", ELEMENT[t],
                        lambda g, r: element(g, t, r))

    def make(g: Ctx, r: str, nest: int) -> Piece:
        """A chained comparison nests: `low <= x <= high` (each operator is one use). At
        most one operand is a literal: two side by side compare constants (`{3, 2} >= {8}`
        is False for every input, and so is the whole chain). Sets and mappings compare with
        values of the program where there are any: a drawn set is almost never inside a
        literal one (`a >= {3, 1, 8, 4} >= b`), while the inputs relate the parameters. An
        equality chain takes a literal only where the program has no other value: a drawn
        input is almost never the literal (`a == b == 'pi,ti' == c` is False on every input),
        while the inputs' neighbours copy one argument into another."""
        operands = [r]
        for _ in range(nest):
            g.avoid, kept = g.avoid | set(operands), g.avoid  # never `a >= a` inside the chain
            nxt = g.other(t)
            if not nxt.isidentifier() and (op in ("==", "!=") or t in ("set", "dict")
                                           or any(not o.isidentifier() for o in operands)):
                nxt = g.variable(t) or nxt
            g.avoid = kept
            nxt = nxt if nxt != operands[-1] else g.lit(t)
            operands.append(nxt)
        return Piece(f" {op} ".join(p(o) if k else o for k, o in enumerate(operands)), "bool")
    return make



def length(t: str) -> Form:
    return via_self(lambda g, r: f"len({r})", "int", t)


def augassign(op: str, t: str) -> Form:
    if op == "*":
        return statement(lambda g, r: f"{r} *= {g.int_(2, 3)}")  # never the no-op `*= 1`
    return statement(lambda g, r: f"{r} {op}= {g.other(t)}")


def store() -> Form:
    def render(g: Ctx, r: str) -> str:
        return f"{r}[{g.key()}] = {g.other('int')}"
    return statement(render)


def syntax_form(kind: str, name: str, t: str) -> Form | None:
    """The shared form for an operator-like entry of type t, or None."""
    if kind == "binop":
        return binop(name, t)
    if kind == "compare":
        return compare(name, t)
    if kind == "augassign":
        return augassign(name, t)
    if kind == "index":
        return index(t)
    if kind == "slice":
        return slice_(name, t)
    if kind == "store":
        return store()
    if kind == "call" and name == "len":
        return length(t)
    return None


def piece_of(expr: str, rtype: str) -> Piece:
    return Piece(expr, rtype)
