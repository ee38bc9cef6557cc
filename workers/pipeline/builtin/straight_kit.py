"""Shared parts of the depth-0 programs (C1/C2): the data a body reads, tests on one
element, element transforms and the shapes a result is returned in.

A depth-0 body is a few statements a person writes around one nested use of the target:
at most one prep line that serves the task (unpack the first item to compare against, keep
the inner values, take half the data by a computed bound), the use, and a return that says
what the function gives back (the result, a tuple of named results, a count beside it, an
f-string). Every piece is drawn from the program's rng; tests depend on the data so both
outcomes occur; without `calls` (C1) nothing here calls anything.
"""

from __future__ import annotations

from workers.pipeline.builtin.context import Ctx

_LAMBDA_VARS = ("v", "x", "item", "value")
_ELEM_VARS = ("x", "value", "score", "num", "item", "v", "mark")


def pick_name(g: Ctx, *preferred: str) -> str:
    """A readable local name for what the statement computes (one not taken yet)."""
    free = [n for n in preferred if n not in g.used]
    if not free:
        return g.fresh()
    name = g.choice(free)
    g.used.add(name)
    return name


class Kit:
    """The data of one depth-0 body: the main parameter and the extras the shapes ask for
    (created on first use, so a program only has the parameters it reads)."""

    def __init__(self, g: Ctx, data: str, calls: bool) -> None:
        self.g, self.data, self.calls = g, data, calls
        self._limit: str | None = None
        self._other: str | None = None
        self._text: str | None = None
        self.pivot: str | None = None  # an int from the data (a prep line's unpacked item)
        self.prepped = ""  # what the prep line did to the data

    # --- the extras ------------------------------------------------------------------
    def limit(self) -> str:
        if self._limit is None:
            self._limit = self.g.param("int")
        return self._limit

    def other(self) -> str:
        if self._other is None:
            self._other = self.g.param("list")
        return self._other

    def text(self) -> str:
        if self._text is None:
            self._text = self.g.param("str")
        return self._text

    def bound(self) -> str:
        """A threshold an element is compared with: the pivot, the limit, or a number."""
        g = self.g
        roll = g.rng.random()
        if self.pivot is not None and roll < 0.4:
            return self.pivot
        if roll < 0.6:
            return self.limit()
        return str(g.int_(2, 12))

    def elem(self, *avoid: str) -> str:
        names = [n for n in _ELEM_VARS if n not in avoid and n not in self.g.used]
        return self.g.choice(names or ["elem"])

    def lam(self) -> str:
        return self.g.choice([n for n in _LAMBDA_VARS if n not in self.g.used] or ["elem"])

    # --- pieces ----------------------------------------------------------------------
    def test(self, v: str) -> str:
        """A test on element v that some values of the data pass and others fail."""
        g = self.g

        def residue() -> str:
            m = g.int_(2, 5)
            return f"{v} % {m} == {g.int_(0, m - 1)}"
        tests = (  # drawn first, then only the chosen one draws its literals
            lambda: f"{v} % {g.int_(2, 5)}", residue, residue,
            lambda: f"{v} > {self.bound()}", lambda: f"{v} < {self.bound()}",
            lambda: f"{v} {g.choice(('in', 'not in'))} {self.other()}",
            lambda: f"{v} {g.choice(('>', '>=', '<'))} {g.int_(2, 12)}",
            lambda: f"{g.int_(1, 4)} <= {v} <= {self.limit()}",
            lambda: f"{v} // {g.int_(2, 10)} {g.choice(('>', '<', '=='))} {g.int_(1, 3)}",
            lambda: f"{v} != {self.bound()}",
        )
        return tests[g.rng.randrange(len(tests))]()

    def transform(self, v: str) -> str:
        """What a comprehension makes of element v."""
        g = self.g
        made = (lambda: f"{v} * {g.int_(2, 3)}", lambda: f"{v} - {self.bound()}", lambda: f"{v} % 10",
                lambda: f"{v} // 2", lambda: f"{v} * {v}", lambda: f"-{v}", lambda: f"({v}, {v} % 2)",
                lambda: f"{v} + {self.bound()}")
        return made[g.rng.randrange(len(made))]()

    def prep(self) -> str | None:
        """At most one line that readies the data (its new name replaces self.data), or None."""
        g, xs = self.g, self.data
        kind = g.rng.randrange(9 if self.calls else 6)
        if kind == 0:
            self.pivot = pick_name(g, "first", "head", "start", "lead")
            rest = pick_name(g, "rest", "others", "remaining", "tail")
            self.data = rest
            return f"{self.pivot}, *{rest} = {xs}"
        if kind == 1:
            self.pivot = pick_name(g, "last", "final", "newest")
            rest = pick_name(g, "earlier", "before", "older")
            self.data = rest
            return f"*{rest}, {self.pivot} = {xs}"
        if kind == 2:
            self.data = pick_name(g, "inner", "middle", "core")
            i, j = g.choice(((1, -1), (1, -2), (2, -1), (1, ""), ("", -1), (2, "")))
            return f"{self.data} = {xs}[{i}:{j}]"
        if kind == 3:
            v = self.elem()
            if g.rng.random() < 0.4:
                self.prepped = "nonzero"
                self.data = pick_name(g, "nonzero", "present", "filled")
                return f"{self.data} = [{v} for {v} in {xs} if {v}]"
            self.data = pick_name(g, "wanted", "kept", "usable")
            return f"{self.data} = [{v} for {v} in {xs} if {self.test(v)}]"
        if kind == 4:
            v = self.elem()
            cap = self.bound()
            self.data = pick_name(g, "capped", "clipped", "bounded")
            return f"{self.data} = [{v} if {v} < {cap} else {cap} for {v} in {xs}]"
        if kind == 5:
            self.data = pick_name(g, "evens", "alternate", "every_other")
            return f"{self.data} = {xs}[{g.choice(('', '1', '2'))}::{g.int_(2, 3)}]"
        if kind == 6:
            self.data = pick_name(g, "half", "front", "first_half")
            return f"{self.data} = {xs}[:len({xs}) // 2 + 1]"
        if kind == 7:
            self.data = pick_name(g, "ordered", "ranked", "sorted_values")
            return f"{self.data} = sorted({xs})"
        self.pivot = pick_name(g, "top", "peak", "highest")
        return f"{self.pivot} = max({xs})"

    def returns(self, result: str, rtype: str) -> tuple[list[str], str]:
        """The return of a body whose last value is `result` (a list of `rtype` items, or
        an int): extra lines and the returned expression."""
        g = self.g
        roll = g.rng.random()
        if rtype == "int":
            if self.calls and roll < 0.3:
                return [], f"str({result})"
            return [], result
        if self.pivot is not None and roll < 0.35:
            return [], g.choice((f"{self.pivot}, {result}", f"{result}, {self.pivot}"))
        if self.calls:
            if roll < 0.55:
                return [], g.choice((f"len({result}), {result}", f"{result}, len({result})"))
            if roll < 0.65 and rtype == "list":
                return [], f"{result}[:{g.int_(2, 4)}]"
        elif roll < 0.5 and rtype == "list":
            return [], g.choice((f"{result}[:{g.int_(2, 5)}]", f"{result}[1:]", f"{result}[-{g.int_(2, 4)}:]",
                                 f"{result}[{g.int_(1, 2)}:]", f"{result}[{g.int_(1, 2)}:-{g.int_(1, 2)}]"))
        if self.pivot is not None and roll < 0.6:
            sep = g.choice((": ", " -> ", "/", " | ", "="))
            return [], f"f\"{{{self.pivot}}}{sep}{{{result}}}\""
        return [], result


def star(g: Ctx, it: str, calls: bool, kind: str = "list") -> str:
    """An iterator made a list (or set / tuple): `[*it]` where no call may be added."""
    if kind == "set":
        return f"{{*{it}}}" if not calls or g.rng.random() < 0.5 else f"set({it})"
    if kind == "tuple":
        return f"(*{it},)" if not calls else f"tuple({it})"
    return f"list({it})" if calls and g.rng.random() < 0.5 else f"[*{it}]"
