"""Lay out one function as a person would: walk the data, decide on it, build one result.

A body starts from the parameters, and every value it binds flows into the one value it
returns: an accumulator (a running total, parts joined at the end, a list of findings, or a
working copy the target mutates) that each level of the control-flow chain feeds. Loops run
over the data (the items, the words, the characters of a word, the digits of a number, an
index walk or a work list), conditions test the current element (so both arms run for some
element), and the target use sits in the deepest block, nested as the level asks. Variables
first bound inside a block are forgotten when it closes, so no path reads an unbound name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.piece import Form, Piece
from workers.pipeline.naturalness.static import decided

ELEMENT = {"str": "str", "list": "int", "tuple": "int", "set": "int", "flist": "float",
           "list_str": "str", "tuple_str": "str"}
WORKABLE = ("list", "set", "dict")  # receivers of the statement forms
Cond = tuple[str, "Callable[[Any, Any], bool]"]
_CONDITIONS: dict[str, tuple[Cond, ...]] = {  # on the current element x (limit: a parameter)
    "int": (("{x} % 2 == 0", lambda v, k: v % 2 == 0), ("{x} > {limit}", lambda v, k: v > k),
            ("{x} % 3 == 0", lambda v, k: v % 3 == 0), ("{x} < {limit}", lambda v, k: v < k),
            ("{x} >= 10", lambda v, k: v >= 10), ("{x} > 4", lambda v, k: v > 4)),
    "float": (("{x} > {limit}", lambda v, k: v > k), ("{x} < 0", lambda v, k: v < 0),
              ("{x} >= 10.0", lambda v, k: v >= 10.0), ("{x} <= {limit}", lambda v, k: v <= k)),
    "char": (("{x}.isalpha()", lambda v, k: v.isalpha()), ("{x}.isdigit()", lambda v, k: v.isdigit()),
             ("{x} in 'aeiou'", lambda v, k: v in "aeiou"), ("{x}.isupper()", lambda v, k: v.isupper()),
             ("{x} in 'rstln'", lambda v, k: v in "rstln"), ("{x} == ' '", lambda v, k: v == " "),
             ("{x} in ',.-'", lambda v, k: v in ",.-"), ("{x} < 'm'", lambda v, k: v < "m")),
    "word": (("len({x}) > 4", lambda v, k: len(v) > 4), ("{x}.isalpha()", lambda v, k: v.isalpha()),
             ("{x}[0] in 'aeiou'", lambda v, k: v[0] in "aeiou"),
             ("len({x}) % 2 == 0", lambda v, k: len(v) % 2 == 0),
             ("{x}.islower()", lambda v, k: v.islower()), ("len({x}) < 4", lambda v, k: len(v) < 4)),
}
_WHOLE: dict[str, tuple[Cond, ...]] = {  # on a whole parameter: some inputs meet it, others not
    "seq": (("len({x}) > {n}", lambda v, k, n: len(v) > n), ("len({x}) < {n}", lambda v, k, n: len(v) < n),
            ("sum({x}) % 2 == 0", lambda v, k, n: sum(v) % 2 == 0),
            ("len({x}) % 2 == 0", lambda v, k, n: len(v) % 2 == 0),
            ("{x}[-1:] < {x}[:1]", lambda v, k, n: v[-1:] < v[:1])),
    "set": (("len({x}) > {n}", lambda v, k, n: len(v) > n), ("sum({x}) % 2 == 0", lambda v, k, n: sum(v) % 2 == 0),
            ("len({x}) < {n}", lambda v, k, n: len(v) < n)),
    "dict": (("len({x}) > {n}", lambda v, k, n: len(v) > n),
             ("sum({x}.values()) % 2 == 0", lambda v, k, n: sum(v.values()) % 2 == 0),
             ("len({x}) < {n}", lambda v, k, n: len(v) < n)),
    "str": (("len({x}) > {n}", lambda v, k, n: len(v) > n), ("len({x}) % 2 == 0", lambda v, k, n: len(v) % 2 == 0),
            ("{x} < 'm'", lambda v, k, n: v < "m"), ("len({x}) < {n}", lambda v, k, n: len(v) < n),
            ("{x}[:1] in 'aeiou'", lambda v, k, n: v[:1] in "aeiou")),
    "num": (("{x} > {limit}", lambda v, k, n: v > k), ("{x} % 2 == 0", lambda v, k, n: v % 2 == 0),
            ("{x} < {limit}", lambda v, k, n: v < k)),
}


@dataclass
class Var:
    name: str
    type: str
    kind: str = "value"  # value | char | word | index | work (a copy the target may change)
    sample: list = field(default_factory=list)  # its values on the teacher's own input


class Flow:
    """Emits one function body. `acc_kind` is fixed by the target's result type."""

    def __init__(self, g: Ctx, form: Form, subject: str, param: Var, stmt_form: bool,
                 target_type: str) -> None:
        self.g, self.form, self.t = g, form, subject
        self.lines: list[str] = []
        self.indent = 1
        self.param = param
        self.scope: list[Var] = [param]
        self.walked: set[str] = set()
        self.stmt_form = stmt_form
        self.target_type = target_type
        self.acc: str | None = None
        # collections are counted, not collected, so results and traces stay small
        self.acc_kind = ("work" if stmt_form else "number" if target_type in ("int", "float")
                         else "parts" if target_type == "str" else "list"
                         if target_type in ("bool", "tuple", "pair", "ftuple", "none") else "number")
        self.helper: tuple[str, list[str]] | None = None  # (name, param types) at C6
        self.limit: str | None = None
        self.walked_words: set[str] = set()
        self.guards: list[str] = []  # the tests of the if-arms being written
        self.facts: list[tuple[str, bool]] = []  # tests known true or false where the next test goes
        self.limit_value = 0
        self.nested = True

    # --- emitting ---------------------------------------------------------------------
    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def uses(self, name: str, since: int) -> bool:
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        return any(pattern.search(text) for text in self.lines[since:])

    # --- values -----------------------------------------------------------------------
    def receiver(self) -> str:
        """A value of the subject type: the newest element of that type, the working copy,
        or the parameter."""
        for var in reversed(self.scope):
            if var.type == self.t and var.kind != "index":
                return var.name
        if self.param.type == "flist":
            return f"max({self.param.name}, default=0.0)"
        return self.param.name

    def newest_element(self) -> Var | None:
        return next((v for v in reversed(self.scope) if v.kind in ("char", "word", "value")
                     and v is not self.param and v.name != self.acc), None)

    def threshold(self) -> str:
        if self.limit is None:
            self.limit = self.g.param("int")
            self.limit_value = int(self.g.params[-1].literal)
        return self.limit

    def target_piece(self, nest: int) -> Piece:
        g = self.g
        for var in self.scope:  # forms pick known values of a type from the pool
            if var.name not in g.pool.get(var.type, []):
                g.remember(var.name, var.type)
        r = self.receiver()
        g.avoid = {r}
        try:
            return self.form(g, r, nest)
        finally:
            g.avoid = set()

    # --- accumulator ------------------------------------------------------------------
    def start_acc(self, needs_copy: bool = False) -> None:
        g = self.g
        if needs_copy and self.acc_kind != "work" and self.t in WORKABLE:
            work = g.fresh()  # the target changes its receiver: never the data being walked
            self.line(f"{work} = {self.t}({self.param.name})")
            self.scope.append(Var(work, self.t, "work"))
        if self.acc_kind == "work":
            self.acc = g.fresh()
            copy = {"list": "list", "set": "set", "dict": "dict"}[self.t]
            self.line(f"{self.acc} = {copy}({self.param.name})")
            self.scope.append(Var(self.acc, self.t, "work"))
            return
        self.acc = g.fresh()
        init = {"number": "0.0" if self.target_type == "float" else "0", "parts": "[]",
                "list": "[]"}[self.acc_kind]
        self.line(f"{self.acc} = {init}")

    def feed(self, expr: str, rtype: str) -> None:
        """Add a value to the accumulator, as its kind takes it."""
        acc, kind = self.acc, self.acc_kind
        if kind == "number":
            if rtype in ("int", "float"):
                self.line(f"{acc} += {expr}")
            elif rtype == "bool":
                self.line(f"{acc} += 1 if {expr} else 0")
            else:
                self.line(f"{acc} += len({expr})")
        elif kind == "parts":
            self.line(f"{acc}.append({expr if rtype == 'str' else f'str({expr})'})")
        elif kind == "list":
            self.line(f"{acc}.append({expr})")
        else:  # a working copy: elements go in with the type's own insertion
            if rtype != "int" and self.t != "dict":
                expr = f"len({expr})" if rtype not in ("float", "bool") else f"int({expr})"
            if self.t == "list":
                self.line(f"{acc}.append({expr})")
            elif self.t == "set":
                self.line(f"{acc}.add({expr})")
            else:
                key = expr if rtype == "str" else f"str({expr})"
                self.line(f"{acc}[{key}] = {acc}.get({key}, 0) + 1")

    def feed_element(self, var: Var, alternative: bool = False) -> None:
        """A plain use of the current element: the block's own contribution."""
        x = var.name
        if self.acc_kind == "number":
            if var.type in ("int", "float"):
                self.line(f"{self.acc} {'-' if alternative else '+'}= {x}")
            else:
                self.line(f"{self.acc} {'-' if alternative else '+'}= len({x})")
        elif self.acc_kind == "parts":
            if var.type == "str":
                self.feed(f"{x}.upper()" if alternative else x, "str")
            else:
                self.feed(f"{x} * 2" if alternative else x, var.type)
        elif self.acc_kind == "work":
            self.feed(x, var.type)
        else:
            self.feed(f"-{x}" if alternative and var.type in ("int", "float") else x, var.type)

    def target_feed(self, nest: int) -> None:
        if self.helper is not None:
            self.call_helper()
            return
        piece = self.target_piece(nest)
        for pre in piece.pre:
            self.line(pre)
        if piece.stmt:
            self.line(piece.expr)
        else:
            self.feed(piece.expr, piece.rtype)

    def call_helper(self) -> None:
        name, types = self.helper  # type: ignore[misc]
        args = [self.receiver()]
        for t in types[1:]:
            known = [v.name for v in reversed(self.scope) if v.type == t and v.name not in args]
            args.append(known[0] if known else self.g.lit(t))
        call = f"{name}({', '.join(args)})"
        if self.stmt_form:
            self.line(f"{self.acc} = {call}")
        else:
            self.feed(call, self.target_type)

    def finish(self, with_call: bool = False) -> str:
        """The returned value; `with_call` when the body made no other call yet."""
        acc = self.acc or self.param.name
        if self.acc_kind == "parts":
            joined = f"{self.g.choice(('', ' ', '-', ', ', '|'))!r}.join({acc})"
            return f"{joined}.strip()" if with_call else joined
        if self.acc_kind == "number" and with_call:
            return f"abs({acc})"
        if self.acc_kind == "number" and self.target_type == "float":
            return f"round({acc}, 2)"
        if with_call:
            return f"sorted({acc})" if self.t != "dict" else f"dict(sorted({acc}.items()))"
        return acc

    # --- control flow -----------------------------------------------------------------
    def condition(self, taken: list[str], before: tuple = ()) -> tuple[str, bool | None, Any]:
        """A test on the current element (one that splits the sample values the earlier
        arms `before` leave, where one does) or on the whole input; with its truth on the
        teacher's input when known, and its test function."""
        g = self.g
        var = self.newest_element()
        if self.target_type == "bool" and self.helper is None and g.rng.random() < 0.5:
            piece = self.target_piece(1)
            if not piece.pre and not piece.stmt and piece.expr not in taken:
                return piece.expr, None, None
        if var is None:
            return self.whole_condition(taken)
        kind = "char" if var.kind == "char" else "word" if var.type == "str" else var.type
        options = list(_CONDITIONS.get(kind, _CONDITIONS["int"]))
        g.rng.shuffle(options)
        left = [v for v in var.sample
                if not any(_safe(t, v, self.limit_value) for t in before if t is not None)]
        fallback = None
        for template, test in options:
            limit = self.threshold() if "{limit}" in template else ""
            text = template.format(x=var.name, limit=limit)
            if text in taken or decided(text, self.facts) is not None:
                continue
            fallback = fallback or (text, None, test)
            truths = {_safe(test, v, self.limit_value) for v in left}
            if truths >= {True, False}:
                return text, None, test
        return fallback or self.whole_condition(taken)

    def whole_condition(self, taken: list[str]) -> tuple[str, bool | None, Any]:
        g, x, t = self.g, self.param.name, self.param.type
        group = ("num" if t in ("int", "float") else "str" if t == "str" else
                 t if t in ("set", "dict") else "seq")
        options = [o for o in _WHOLE[group] if t != "flist" or "{limit} in" not in o[0]]
        g.rng.shuffle(options)
        value = self.param.sample[0] if self.param.sample else None
        size = len(value) if hasattr(value, "__len__") else 3
        for template, test in options:
            n = max(1, size + g.choice((-1, 0, 1)))
            limit = self.threshold() if "{limit}" in template else ""
            text = template.format(x=x, n=n, limit=limit)
            if text not in taken and decided(text, self.facts) is None:
                return text, _safe(test, value, self.limit_value, n), None
        fallback = f"{x} > {g.int_(10, 30)}" if group == "num" else f"len({x}) > {g.int_(6, 9)}"
        return fallback, None, None  # decided by the tests around it, the draw fails the static rules

    def iterate(self) -> tuple[str, list[Var], list[str]]:
        """(for-header iterable, element vars, lines that open the body)."""
        g = self.g
        inner = self.newest_element()
        if inner is not None and inner.kind == "word":
            ch = g.fresh("elem:str")
            return inner.name, [Var(ch, "str", "char", _flat(inner.sample))], []
        if inner is not None and inner.type == "int" and inner.kind == "value" \
                and self.param.name in self.walked:
            d = g.fresh("elem:str")
            return f"str({inner.name})", [Var(d, "str", "char", _flat(map(str, inner.sample)))], []
        src = self.param
        value = src.sample[0] if src.sample else None
        window = self.window(src)
        if window is not None and src.type != "str":  # the data again: a few items near here
            elem = ELEMENT[src.type]
            x = g.fresh(f"elem:{elem}")
            return window, [Var(x, elem, "value", list(value or [])[:3])], []
        self.walked.add(src.name)
        if src.type == "str":
            if src.name not in self.walked_words and g.rng.random() < 0.5:
                self.walked_words.add(src.name)
                w = g.fresh("elem:str")
                return f"{src.name}.split()", [Var(w, "str", "word", _safe_list(str.split, value))], []
            ch = g.fresh("elem:str")
            return src.name, [Var(ch, "str", "char", list(value or ""))], []
        if src.type in ("list", "tuple", "flist"):
            elem = ELEMENT[src.type]
            x = g.fresh(f"elem:{elem}")
            items = list(value or [])
            if g.rng.random() < 0.3:
                i = g.fresh("elem:index")
                return (f"range(len({src.name}))",
                        [Var(i, "int", "index", list(range(len(items)))), Var(x, elem, "value", items)],
                        [f"{x} = {src.name}[{i}]"])
            return src.name, [Var(x, elem, "value", items)], []
        if src.type == "set":
            x = g.fresh("elem:int")
            return f"sorted({src.name})", [Var(x, "int", "value", sorted(value or []))], []
        if src.type == "dict":
            k, v = g.fresh("elem:str"), g.fresh("elem:int")
            d = dict(value or {})
            walk = f"list({src.name}.items())[:3]" if src.name in self.walked else f"{src.name}.items()"
            self.walked.add(src.name)
            return walk, [Var(k, "str", "word", list(d)), Var(v, "int", "value", list(d.values()))], []
        n = src.name  # a number: walk up to it
        i = g.fresh("elem:index")
        cap = 3 if n in self.walked else 10
        top = int(value) % cap + 1 if src.type == "float" and value is not None else min(value or 0, cap)
        self.walked.add(n)
        return f"range(int({n}) % {cap} + 1)" if src.type == "float" else f"range(min({n}, {cap}))", \
            [Var(i, "int", "value", list(range(int(top))))], []

    def window(self, src: Var) -> str | None:
        """A nested walk over data an outer loop walks already: the items from the outer
        index on (a pairwise look), else the first few, so nests stay short."""
        if src.name not in self.walked or src.type not in ("list", "tuple", "flist", "str"):
            return None
        index = next((v.name for v in reversed(self.scope) if v.kind == "index"), None)
        if index is not None:
            return f"{src.name}[{index} + 1:{index} + 3]"
        return f"{src.name}[:3]"

    def block(self, kinds: tuple[str, ...]) -> None:
        g, kind, rest = self.g, kinds[0], kinds[1:]
        saved_scope, saved_pool = list(self.scope), {t: list(v) for t, v in g.pool.items()}
        if kind == "for":
            it, elems, opening = self.iterate()
            names = [e.name for e in elems]
            target = names[0] if opening else ", ".join(names)
            self.line(f"for {target} in {it}:")
            self.indent += 1
            for text in opening:
                self.line(text)
            self.scope += elems
            self.level_body(rest, elems)
            self.indent -= 1
        elif kind == "while":
            self.while_block(rest)
        else:
            self.if_block(rest, chained=kind == "if-elif")
        self.scope, g.pool = saved_scope, saved_pool

    def while_block(self, rest: tuple[str, ...]) -> None:
        g = self.g
        inner = self.newest_element()
        if inner is not None and inner.type == "int" and inner.kind == "value":
            n, d = g.fresh(), g.fresh("elem:int")
            self.line(f"{n} = abs({inner.name})")
            self.line(f"while {n} > 0:")
            self.indent += 1
            self.line(f"{d} = {n} % 10")
            digits = [int(c) for v in inner.sample if isinstance(v, int) for c in str(abs(v)) if v]
            elems = [Var(d, "int", "value", digits)]
            self.scope += elems
            self.level_body(rest, elems)
            self.line(f"{n} //= 10")
            self.indent -= 1
            return
        src = inner if inner is not None and inner.kind == "word" else self.param
        value = src.sample[0] if src is self.param and src.sample else None
        if src.type in ("set", "dict"):
            work, x = g.fresh(), g.fresh("elem:int" if src.type == "set" else "elem:str")
            self.line(f"{work} = sorted({src.name})")
            self.line(f"while {work}:")
            self.indent += 1
            self.line(f"{x} = {work}.pop()")
            elems = [Var(x, ELEMENT.get(src.type, "str"), "word" if src.type == "dict" else "value",
                         list(value or []))]
            self.scope += elems
            self.level_body(rest, elems)
            self.indent -= 1
            return
        if src.type in ("int", "float"):
            i = g.fresh("elem:index")
            cap = 3 if src.name in self.walked else 10
            self.walked.add(src.name)
            bound = f"min({src.name}, {cap})" if src.type == "int" else f"int({src.name}) % {cap}"
            top = int(value) % cap if src.type == "float" and value is not None else min(int(value or 0), cap)
            self.line(f"{i} = 0")
            self.line(f"while {i} < {bound}:")
            self.indent += 1
            elems = [Var(i, "int", "value", list(range(max(0, top))))]
            self.scope += elems
            self.level_body(rest, elems)
            self.line(f"{i} += 1")
            self.indent -= 1
            return
        window = self.window(src) if src is self.param else None
        walk = src.name
        if window is not None:  # the data again: a few items near here, not all of it
            walk = g.fresh()
            self.line(f"{walk} = {window}")
            value = (value or [])[:3]
        i = g.fresh("elem:index")
        elem = ELEMENT.get(src.type, "int")
        x = g.fresh(f"elem:{elem}")
        self.walked.add(src.name)
        self.line(f"{i} = 0")
        self.line(f"while {i} < len({walk}):")
        self.indent += 1
        self.line(f"{x} = {walk}[{i}]")
        kind = "char" if src.type == "str" else "value"
        items = _flat(src.sample) if src is not self.param else list(value or [])
        elems = [Var(i, "int", "index"), Var(x, elem, kind, items)]
        self.scope += elems
        self.level_body(rest, elems)
        self.line(f"{i} += 1")
        self.indent -= 1

    def if_block(self, rest: tuple[str, ...], chained: bool) -> None:
        """The deeper levels go in the arm the teacher's input takes when that is known
        (so the level's deepest block runs for at least that input), else in a random arm."""
        g = self.g
        outer = self.facts
        arms = [self.condition(self.guards)]
        if chained:
            self.facts = outer + [(arms[0][0], False)]
            arms.append(self.condition(self.guards + [arms[0][0]], (arms[0][2],)))
        var = self.newest_element()
        # an else under a test of the whole input needs one more input to run: only at the top
        with_else = g.rng.random() < 0.2 and (var is not None or not self.guards)
        truths = [t for _, t, _ in arms]
        if all(t is not None for t in truths):
            taken = next((i for i, t in enumerate(truths) if t), None)
            if taken is None:
                with_else, deep = True, len(arms)
            else:
                deep = taken
        else:
            deep = g.int_(0, len(arms) - 1)
        for b, (cond, _, _) in enumerate(arms):
            self.line(f"{'if' if b == 0 else 'elif'} {cond}:")
            self.indent += 1
            self.guards.append(cond)
            self.facts = outer + [(c, False) for c, _, _ in arms[:b]] + [(cond, True)]
            if b == deep:
                self.level_body(rest, [])
            else:
                self.simple(var, alternative=b % 2 == 1)
            self.guards.pop()
            self.indent -= 1
        self.facts = outer + [(c, False) for c, _, _ in arms]
        if with_else:
            self.line("else:")
            self.indent += 1
            if deep == len(arms):
                self.level_body(rest, [])
            else:
                self.simple(var, alternative=True)
            self.indent -= 1
        self.facts = outer

    def simple(self, var: Var | None, alternative: bool) -> None:
        if var is not None:
            self.feed_element(var, alternative)
        else:
            self.target_feed(1)

    def level_body(self, rest: tuple[str, ...], elems: list[Var]) -> None:
        g = self.g
        mark = len(self.lines)
        if not rest:
            self.target_feed(g.choice((2, 2, 3)) if self.nested else 1)
        else:
            if g.rng.random() < 0.4:
                self.target_feed(1)
            self.block(rest)
        for var in elems:
            if var.kind != "index" and not self.uses(var.name, mark):
                self.feed_element(var)


def _safe(test: Callable[..., bool], *args: Any) -> bool | None:
    """A condition's value on a sample value; None when it does not apply (wrong type)."""
    try:
        return bool(test(*args))
    except (TypeError, ValueError, IndexError, AttributeError):
        return None


def _safe_list(fn: Callable[[Any], list], value: Any) -> list:
    try:
        return list(fn(value))
    except (TypeError, ValueError, AttributeError):
        return []


def _flat(values: Any) -> list:
    return [c for v in values if isinstance(v, str) for c in v]
