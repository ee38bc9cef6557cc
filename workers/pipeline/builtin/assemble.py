"""Lay out one program: functions, steps, the control-flow chain and the return.

A function body is a few steps, each binding a new variable: target uses (one of them
nested when the knobs ask for it), glue that derives new receivers, an "other method" step
when allowed, then the blueprint's chain of if / for / while / if-elif with a target use at
every level. Loops are bounded by construction (sliced iterables, counters that always
advance), growing values are re-sliced inside loops, and variables first bound inside a
block are forgotten when it closes, so no path reads an unbound name.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.convert import to_bool
from workers.pipeline.builtin.extras import glue, other_step
from workers.pipeline.builtin.piece import Form, Piece

GROWS = ("str", "list", "tuple")
_ITER = {"str": "str", "list": "int", "tuple": "int", "set": "int", "dict": "str"}


class FunctionBuilder:
    def __init__(self, g: Ctx, form: Form, subject: str, r: str, banned: set[str],
                 nested: bool) -> None:
        self.g, self.form, self.t, self.banned, self.nested = g, form, subject, banned, nested
        self.lines: list[str] = []
        self.indent = 1
        self.receivers = [r]
        self.results: list[str] = []
        self.keep: list[str] = []  # always returned (e.g. the helper's result)
        self.out: str | None = None
        self.out_used = False

    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def nest_level(self) -> int:
        return self.g.choice((2, 2, 3)) if self.nested else 1

    # --- steps ------------------------------------------------------------------------
    def use(self, nest: int, in_loop: bool = False) -> None:
        g = self.g
        rv = g.choice(self.receivers)
        piece: Piece = self.form(g, rv, nest)
        for pre in piece.pre:
            self.line(pre)
        if piece.stmt:
            self.line(piece.expr)
            if in_loop and self.t in GROWS:
                self.line(f"{rv} = {rv}[:{g.int_(4, 9)}]")
            if rv not in self.results:
                self.results.append(rv)
        elif piece.rtype == self.t and (in_loop or g.rng.random() < 0.3):
            cut = f"[:{g.int_(6, 14)}]" if in_loop and self.t in GROWS else ""
            self.line(f"{rv} = {p(piece.expr) if cut else piece.expr}{cut}")
            if rv not in self.results:
                self.results.append(rv)
        elif in_loop and self.out is not None:
            self.line(f"{self.out} += [{piece.expr}]")
            self.out_used = True
        else:
            name = g.fresh()
            self.line(f"{name} = {piece.expr}")
            g.remember(name, piece.rtype)
            self.results.append(name)
            if piece.rtype == self.t:
                self.receivers.append(name)

    def glue_step(self) -> None:
        expr = glue(self.g, self.t, self.g.choice(self.receivers), self.banned)
        if expr is not None:
            name = self.g.fresh()
            self.line(f"{name} = {expr}")
            self.g.remember(name, self.t)
            self.receivers.append(name)

    def other(self) -> bool:
        g = self.g
        typed = [(t, v) for t, vs in g.pool.items() for v in vs]
        for t, v in [(self.t, g.choice(self.receivers))] + g.rng.sample(typed, len(typed)):
            step = other_step(g, t, v, self.banned)
            if step is not None:
                name = g.fresh()
                self.line(f"{name} = {step[0]}")
                g.remember(name, step[1])
                self.results.append(name)
                return True
        return False

    # --- control flow -----------------------------------------------------------------
    def condition(self) -> str:
        g = self.g
        probe = self.form(g, g.choice(self.receivers), 1)
        if probe.rtype == "bool" and not probe.pre and g.rng.random() < 0.6:
            return probe.expr
        typed = [(t, v) for t, vs in g.pool.items() for v in vs if t != "none"]
        t, v = g.choice(typed)
        return to_bool(g, v, t)

    def iterable(self) -> tuple[str, str]:
        g, rv = self.g, self.g.choice(self.receivers)
        k = g.int_(2, 3)
        if self.t in ("str", "list", "tuple"):
            return f"{rv}[:{k}]", _ITER[self.t]
        if self.t in ("set", "dict"):
            if g.allow_calls and g.rng.random() < 0.5:
                return f"sorted({rv})[:{k}]", _ITER[self.t]
            return f"[*{rv}][:{k}]", _ITER[self.t]
        if g.allow_calls and g.rng.random() < 0.6:
            return f"range({k})", "int"
        return repr(tuple(g.ints(2, 3))), "int"

    def block(self, kinds: tuple[str, ...]) -> None:
        """One level of the chain; the rest of the chain goes inside it."""
        g, kind, rest = self.g, kinds[0], kinds[1:]
        saved = {t: list(v) for t, v in g.pool.items()}
        if kind == "for":
            it, elem = self.iterable()
            var = g.fresh()
            self.line(f"for {var} in {it}:")
            self.indent += 1
            g.remember(var, elem)
            self.level_body(rest)
            self.indent -= 1
        elif kind == "while":
            c = g.fresh()
            self.line(f"{c} = 0")
            extra = f" and {self.condition()}" if g.rng.random() < 0.3 else ""
            self.line(f"while {c} < {g.int_(2, 3)}{extra}:")
            self.indent += 1
            g.remember(c, "int")
            self.level_body(rest)
            self.line(f"{c} += 1")
            self.indent -= 1
        else:
            branches = 2 + (g.rng.random() < 0.5) if kind == "if-elif" else 1 + (g.rng.random() < 0.4)
            deep = g.int_(0, branches - 1) if kind == "if-elif" else 0
            for b in range(branches):
                head = "if" if b == 0 else ("elif" if kind == "if-elif" and b < 2 else "else")
                self.line(f"{head} {self.condition()}:" if head != "else" else "else:")
                self.indent += 1
                if b == deep:
                    self.level_body(rest)
                else:
                    self.use(1, in_loop=True)
                self.indent -= 1
        g.pool = saved

    def level_body(self, rest: tuple[str, ...]) -> None:
        before = self.g.rng.random() < 0.6
        if before or not rest:
            self.use(self.g.choice((1, 2)) if self.nested else 1, in_loop=True)
        if rest:
            self.block(rest)
            if not before:
                self.use(1, in_loop=True)

    def chain(self, blueprint: tuple[str, ...]) -> None:
        if not blueprint:
            return
        self.out = self.g.fresh()
        mark = len(self.lines)
        self.line(f"{self.out} = []")
        self.block(blueprint)
        if self.out_used:
            self.results.append(self.out)
        else:
            del self.lines[mark]

    def returns(self) -> str:
        g = self.g
        picks = list(dict.fromkeys(self.keep + self.results[-1:] + g.rng.sample(
            self.results, min(len(self.results), g.int_(0, 2)))))
        if g.rng.random() < 0.7:
            i = g.int_(0, len(picks) - 1)
            t = next((t for t, names in g.pool.items() if picks[i] in names), self.t)
            shaped = glue(g, t, picks[i], self.banned) if picks[i] in self.receivers \
                or t != self.t else None
            if shaped is not None:
                picks[i] = shaped
        return picks[0] if len(picks) == 1 else "(" + ", ".join(picks) + ")"
