"""The idiom library: programs a person would write around one natural use of the target.

A program picks a use from `idiom_uses.USES` (what the method is for, nested as every level
asks), the data that use reads (scores, words, a sentence, prices), an accumulator that fits
its result (a running total, a best-so-far, counts in a dict, parts joined at the end, a
list of findings) and then lays out the level: depth 0 is a short pipeline; C3-C6 walk the
data with the blueprint's kinds (for: items, index walks, enumerate, letters, digits;
while: index walks, work lists, digit loops; if / if-elif: tests on the current element,
sometimes an early return), the use in the deepest block, and at C6 the use moved into a
helper the entry calls. Entries without a use return None and take the generic forms.

A target that changes its receiver (append, add, update, d[k] = v) has statement uses
instead: the receiver is a local (an empty container, or a copy of the data), the target's
lines go in the deepest block or make a straight body, the result reads every receiver, and
at C6 the lines are a helper taking the receivers. Each such draw is checked against the
static check and rules before it is returned (`_build_statement`).
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass, field, replace

from workers.pipeline.builtin.idiom_uses import USES, Use
from workers.pipeline.constraints.catalog import Entry
from workers.pipeline.naturalness.static import static_findings
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import measure_structure

_WORDS = ("apple", "river", "stone", "cloud", "tiger", "maple", "orbit", "candle", "pixel",
          "amber", "delta", "north", "lemon", "piano", "ocean", "silver", "garden", "rocket")
_DATA_NAMES = {
    "ints": ("scores", "readings", "ages", "counts", "marks", "votes", "heights", "steps", "sizes"),
    "words": ("words", "names", "tags", "tokens", "labels", "cities", "items"),
    "text": ("text", "line", "sentence", "message", "phrase", "title"),
    "prices": ("prices", "amounts", "costs", "fares", "totals", "weights"),
}
_ELEM_NAMES = {"int": ("score", "item", "amount", "num", "mark", "entry"),
               "word": ("token", "label", "term", "city", "part"),
               "char": ("letter", "symbol", "char"),
               "float": ("price", "cost", "fare", "share"),
               "index": ("idx", "slot", "at", "pos_")}
_LIMIT_NAMES = ("limit", "cutoff", "threshold", "bound", "floor_", "target")
_ACC_NAMES = {"number": ("total", "tally", "result", "score_sum", "acc"),
              "best": ("best", "peak", "top", "highest"),
              "list": ("found", "picked", "kept", "matches", "collected", "out"),
              "parts": ("parts", "pieces", "chunks", "fragments"),
              "counts": ("counts", "freq", "seen_count", "histogram")}
_COND = {  # kind -> family -> tests; nested or chained tests on one value take other families
    "int": {"size": ("{x} > {n}", "{x} < {n}", "{x} >= {a10}", "{x} > {n} // 2", "{x} <= {a10}"),
            "parity": ("{x} % 2 == 0", "{x} % 3 == 0", "{x} % 2 != 0", "{x} % {a3} == 1")},
    "digit": {"size": ("{x} > {a5}", "{x} < {a5}", "{x} >= {a5}"),
              "parity": ("{x} % 2 == 0", "{x} % 3 == 0", "{x} % 2 == 1")},
    "float": {"size": ("{x} > {lo}", "{x} < {a10}.0", "{x} >= {lo} * 2", "{x} > {a5}.5"),
              "parity": ("int({x}) % 2 == 0", "round({x}) % 3 == 0")},
    "word": {"size": ("len({x}) > {a5}", "len({x}) % 2 == 0", "len({x}) < {a7}"),
             "letters": ("{x} < {m}", "{x}[0] in 'aeiou'", "{v} in {x}", "{x}[-1] > {x}[0]")},
    "char": {"vowel": ("{x} in 'aeiou'", "{x} in 'rstlne'", "{x} == {v}"), "order": ("{x} < {m}", "{x} > {m}")},
    "data": {"size": ("len({xs}) > {a6}", "len({xs}) % 2 == 0", "len({xs}) < {a8}"),
             "order": ("{xs}[0] < {xs}[-1]", "{xs}[0] > {xs}[1]"),
             "limit": ("{n} % 2 == 0", "{n} > {a8}", "{n} < len({xs})")},
}
_ACC_COND = {"number": ("{acc} < {n} * 4", "{acc} <= {size}"), "best": ("{acc} < {size}",),
             "list": (), "parts": ("{x} not in {acc}",), "counts": ("{x} in {acc}",),
             # statement uses: the receiver the target changes
             "seq": (), "set": (), "map": ()}


_COMBINE = {"list": ("{a} + {b}", "({a}, {b})"), "int": ("{a} - {b}", "{a} + {b}", "({a}, {b})"),
            "float": ("{a} - {b}", "({a}, {b})"), "str": ("{a} + ' ' + {b}", "({a}, {b})"),
            "set": ("{a} & {b}", "{a} | {b}"), "bool": ("{a} and {b}", "{a} != {b}")}
DEPTH0_SHARE = 0.04  # per fitting use: the share of C1/C2 draws the idiom library takes
# statement uses (see _StmtProgram)
STATEMENT_DEPTH0_SHARE = DEPTH0_SHARE  # per fitting use, as for expressions: a straight body has few variants
STATEMENT_TESTS_DECLINE = 0.7  # blueprints of tests only left to the generic forms (few variants too)
STATEMENT_PREP_SHARE = 0.75  # programs of a statement use that first prepare the data
STATEMENT_TRIES = 3  # statement draws checked before the generic forms take the attempt


class _Miss(Exception):
    """This draw cannot be written (e.g. no test left); the generic forms take it."""


@dataclass
class Env:
    xs: str  # the main sequence (or text)
    kind: str  # ints | words | prices | text
    x: str | None = None  # current element
    x_kind: str | None = None  # int | word | char | float
    i: str | None = None  # its index
    loop_depth: int = 0


@dataclass
class Writer:
    rng: random.Random
    allow_calls: bool
    taken: set[str] = field(default_factory=set)
    params: list[tuple[str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    indent: int = 1
    imports: set[str] = field(default_factory=set)
    conds: list[str] = field(default_factory=list)

    def name(self, choices: tuple[str, ...]) -> str:
        for n in self.rng.sample(choices, len(choices)):
            if n not in self.taken:
                self.taken.add(n)
                return n
        i = 2
        while f"{choices[0]}{i}" in self.taken:
            i += 1
        self.taken.add(f"{choices[0]}{i}")
        return f"{choices[0]}{i}"

    def param(self, choices: tuple[str, ...], literal: str) -> str:
        n = self.name(choices)
        self.params.append((n, literal))
        return n

    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)


def _literal(rng: random.Random, kind: str) -> str:
    if kind == "ints":
        return repr([rng.randint(1, 20) for _ in range(rng.randint(5, 7))])
    if kind == "words":
        return repr(rng.sample(_WORDS, rng.randint(5, 6)))
    if kind == "prices":
        return repr([round(rng.uniform(0.5, 19.5), rng.choice((1, 2))) for _ in range(rng.randint(5, 6))])
    sep = rng.choice((" ", " ", ",", ", "))
    return repr(sep.join(rng.sample(_WORDS, rng.randint(2, 3))))


class _Program:
    def __init__(self, entry: Entry, knobs: Knobs, rng: random.Random, use: Use) -> None:
        self.knobs, self.rng, self.use = knobs, rng, use
        self.w = Writer(rng, knobs.other_methods)
        self.w.taken |= set(re.findall(r"[A-Za-z_]\w*", use.text))
        self.kind = rng.choice(use.kinds)
        # walks the data (not only the current element): give it an index in loops
        self.whole_data = "{xs}" in use.text or ("{w}" in use.text and self.kind == "text")
        self.span = rng.choice((3, 3, 4))
        self.loops = sum(k in ("for", "while") for k in knobs.blueprint)
        self.limit: str | None = None
        self.pivot: str | None = None
        self.families: dict[str, set[str]] = {}
        self.second: str | None = None
        self.lits = {"k": str(rng.choice((2, 3, 3, 4, 5))), "r": rng.choice(("1.08", "0.2", "1.5", "0.85")),
                     "f": rng.choice(("2.5", "0.99", "4.0")), "lo": rng.choice(("1.0", "2.5", "0.5")),
                     "s": repr(rng.choice(("a", "e", "o", ",", " ")))}

    # --- values ---------------------------------------------------------------------
    def n(self) -> str:
        if self.limit is None:
            self.limit = self.w.param(_LIMIT_NAMES, str(self.rng.randint(4, 12)))
        return self.limit

    def render(self, env: Env, text: str | None = None) -> str:
        """The use (or a test) with the program's names; a placeholder the scope lacks
        becomes a parameter (depth 0) of the fitting type."""
        text = text or self.use.text
        values = dict(self.lits)
        values["xs"] = env.xs
        values["w"] = env.x if env.x_kind == "word" else env.xs
        if "{x}" in text:
            if env.x is None and self.pivot is None:
                self.pivot = self.scalar_param(env)
            values["x"] = env.x if env.x is not None else self.pivot
        if "{i}" in text:
            values["i"] = env.i if env.i is not None else self.w.param(("start", "skip", "offset"),
                                                                      str(self.rng.randint(0, 3)))
        if "{n}" in text:
            values["n"] = self.n()
        if "{ys}" in text:
            if self.second is None:
                self.second = self.w.param(_DATA_NAMES["words"], _literal(self.rng, "words"))
            values["ys"] = self.second
        return text.format(**values)

    def scalar_param(self, env: Env) -> str:
        if env.kind == "prices":
            return self.w.param(("price", "budget", "cap"), repr(round(self.rng.uniform(3.0, 15.0), 1)))
        if env.kind == "words":
            return self.w.param(("name", "pivot", "key"), repr(self.rng.choice(_WORDS)))
        return self.w.param(("target", "pivot", "value"), str(self.rng.randint(3, 15)))

    # --- the program ----------------------------------------------------------------
    def build(self, entry_names: tuple[str, ...]) -> tuple[str, str, str] | None:
        w = self.w
        entry = w.name(self.use.names or entry_names)
        data = w.param(_DATA_NAMES[self.kind], _literal(self.rng, self.kind))
        env = Env(data, self.kind)
        helper_lines: list[str] = []
        if self.knobs.call_chain:
            helper_lines = self.helper(env)
            if helper_lines is None:
                return None
        if not self.knobs.control_flow_depth:
            self.straight(env)
        else:
            self.nested(env)
        head = f"def {entry}({', '.join(n for n, _ in w.params)}):"
        imports = [f"import {m}" for m in sorted(w.imports)]
        body = helper_lines + [head, *w.lines]
        code = "\n".join(imports + ([""] if imports else []) + body) + "\n"
        return code, entry, ", ".join(lit for _, lit in w.params)

    def expr(self, env: Env) -> str:
        if self.helper_call is not None:
            return self.helper_call(env)
        text = self.render(env)
        if "math." in text:
            self.w.imports.add("math")
        return text

    helper_call = None

    def helper(self, env: Env) -> list[str] | None:
        """The use as a function of its own: its free names become its parameters."""
        names = ["xs", "x", "i", "n", "ys", "w"]
        used = [k for k in names if "{" + k + "}" in self.use.text]
        sub = Writer(self.rng, True, taken=set(self.w.taken))
        mapping = {}
        for k in used:
            mapping[k] = sub.name({"xs": _DATA_NAMES[self.kind], "ys": ("names", "labels"),
                                   "x": ("value", "pivot", "current"), "i": ("start", "skip"),
                                   "n": ("limit", "cutoff"), "w": ("text", "phrase")}[k])
        text = self.use.text.format(**{**self.lits, **mapping})
        if "math." in text:
            self.w.imports.add("math")
        hname = self.w.name(("score_of", "measure", "summarize", "weigh", "pick", "check_one",
                             "transform", "convert"))
        self.w.taken |= sub.taken

        def call(e: Env) -> str:
            args = []
            for k in used:
                if k == "xs":
                    args.append(e.xs)
                elif k == "w":
                    args.append(e.x if e.x_kind == "word" else e.xs)
                else:
                    args.append(self.render(e, "{" + k + "}"))
            return f"{hname}({', '.join(args)})"
        self.helper_call = call
        return [f"def {hname}({', '.join(mapping[k] for k in used)}):", f"    return {text}"]

    # --- depth 0 ----------------------------------------------------------------------
    def straight(self, env: Env) -> None:
        """Depth 0: prepare the data, apply the use (to one input, or to two and combine
        them), shape the result."""
        w, rng = self.w, self.rng
        calls = self.use.calls or self.helper_call is not None
        reads_data = "{xs}" in self.use.text or "{w}" in self.use.text  # else a prepared copy is a dead store
        if reads_data and rng.random() < 0.65:
            prep, used_call = self.prepared(env.xs, env.kind)
            recent = w.name(("recent", "window", "head", "rest", "cleaned", "data"))
            w.line(f"{recent} = {prep}")
            env = replace(env, xs=recent)
            calls = calls or used_call
        result = w.name(("result", "answer", "out", "report"))
        rt = self.use.rtype
        if rt in _COMBINE and rng.random() < 0.3 and "{ys}" not in self.use.text:
            other = w.param(_DATA_NAMES[env.kind], _literal(rng, env.kind))
            first, second = w.name(("first", "left", "mine")), w.name(("second", "right", "theirs"))
            w.line(f"{first} = {self.expr(env)}")
            w.line(f"{second} = {self.expr(replace(env, xs=other))}")
            op = rng.choice(_COMBINE[rt])
            w.line(f"{result} = " + op.format(a=first, b=second))
            if op.startswith("("):
                w.line(f"return {result}")
                return
        else:
            w.line(f"{result} = {self.expr(env)}")
        w.line(f"return {self.finish_straight(result, calls)}")

    def prepared(self, xs: str, kind: str) -> tuple[str, bool]:
        """The data as the task wants it first: (expression, calls anything)."""
        rng, a = self.rng, self.rng.randint(1, 4)
        plain = {"ints": (f"{xs}[{a}:]", f"{xs}[:-{a}]", f"{xs}[::2]", f"{xs}[::-1]",
                          f"[v * {a + 1} for v in {xs}]", f"[v - {a} for v in {xs}]",
                          f"[v for v in {xs} if v != {a}]", f"{xs} + [{a * 3}]", f"[{a}] + {xs}",
                          f"{xs}[:{a + 2}] + {xs}[-{a}:]"),
                 "words": (f"{xs}[{a}:]", f"{xs}[::-1]", f"[w for w in {xs} if w != {rng.choice(_WORDS)!r}]",
                           f"{xs} + [{rng.choice(_WORDS)!r}]", f"[w[:{a + 2}] for w in {xs}]", f"{xs}[:-{a}]"),
                 "prices": (f"{xs}[{a}:]", f"[p * {rng.choice(('1.1', '0.9', '2'))} for p in {xs}]",
                            f"{xs}[::-1]", f"[p + {a}.5 for p in {xs}]", f"[p for p in {xs} if p > {a}]"),
                 "text": (f"{xs}[{a}:]", f"{xs} + ' ' + {rng.choice(_WORDS)!r}", f"{xs}[:-{a}]",
                          f"{rng.choice(_WORDS)!r} + ',' + {xs}")}[kind]
        called = {"ints": ("sorted({xs})", "sorted({xs}, reverse=True)", "[abs(v - {a}) for v in {xs}]",
                           "[min(v, {a} * 4) for v in {xs}]", "sorted({xs})[{a}:]"),
                  "words": ("sorted({xs})", "[w.lower() for w in {xs}]", "[w.strip('{c}') for w in {xs}]",
                            "sorted({xs}, key=len)"),
                  "prices": ("sorted({xs})", "[round(p, 1) for p in {xs}]", "[abs(p - {a}) for p in {xs}]"),
                  "text": ("{xs}.lower()", "{xs}.strip()", "{xs}.replace('-', ' ')", "{xs}.strip('{c}')")}[kind]
        if self.w.allow_calls and rng.random() < 0.5:
            c = rng.choice("aeiou.")
            return rng.choice(called).format(xs=xs, a=a, c=c), True
        return rng.choice(plain), False

    def finish_straight(self, result: str, calls: bool) -> str:
        rt, rng = self.use.rtype, self.rng
        need_call = self.w.allow_calls and not calls
        if rt == "set":  # sets of words print in hash order: sorted whenever calls are allowed
            if self.w.allow_calls:
                return rng.choice((f"sorted({result})", f"len({result})", f"sorted({result})[:3]"))
            return result
        if rt == "list":
            if need_call:
                return rng.choice((f"sorted({result})", f"len({result})", f"{result}[:3] + [len({result})]"))
            return rng.choice((result, f"{result}[:{rng.randint(2, 5)}]", f"{result}[::-1]",
                               f"{result} + [{rng.randint(0, 9)}]", f"{result}[{rng.randint(1, 2)}:]"))
        if rt in ("int", "float"):
            if need_call:
                return rng.choice((f"abs({result})", f"max({result}, 0)", f"str({result})"))
            return result
        if rt == "str":
            if need_call:
                return rng.choice((f"{result}.strip()", f"{result}.upper()", f"len({result})"))
            return result
        if rt == "dict":
            if need_call:
                return rng.choice((f"sorted({result}.items())", f"list({result})", f"len({result})"))
            return result
        if need_call:
            return f"list({result})" if rt == "tuple" else f"str({result})"
        return result

    # --- C3-C6 ------------------------------------------------------------------------
    def nested(self, env: Env) -> None:
        w, rng = self.w, self.rng
        rt = self.use.rtype
        kinds = {"int": ("number", "best", "counts", "list"), "float": ("number", "best", "list"),
                 "str": ("parts", "number", "list"), "list": ("list", "number"),
                 "dict": ("list", "number"), "bool": ("number", "list"), "tuple": ("list",),
                 "set": ("list", "number")}[rt]
        # a use that walks all the data runs once, before the walk, and seeds the result
        self.hoisted = self.whole_data and self.loops >= 1 and (self.loops >= 2 or rng.random() < 0.5)
        if self.hoisted:
            kinds = {"int": ("number", "best"), "float": ("number", "best"), "str": ("parts",),
                     "list": ("list", "number"), "dict": ("number",), "bool": ("number",),
                     "tuple": ("list",), "set": ("list", "number")}[rt]
        self.acc_kind = rng.choice(kinds)
        self.acc = w.name(_ACC_NAMES[self.acc_kind])
        init = {"number": "0.0" if rt == "float" else "0", "best": "0.0" if rt == "float" else "0",
                "list": "[]", "parts": "[]", "counts": "{}"}[self.acc_kind]
        if self.hoisted:
            e = self.expr(env)
            init = {"number": e if rt in ("int", "float") else f"1 if {e} else 0" if rt == "bool"
                    else f"len({e})", "best": e, "parts": f"[{e}]",
                    "list": f"list({e})" if rt == "tuple" else f"sorted({e})" if rt == "set" else e
                    }[self.acc_kind]
        w.line(f"{self.acc} = {init}")
        self.block(tuple(self.knobs.blueprint), env)
        w.line(f"return {self.finish()}")

    def finish(self) -> str:
        acc, rng = self.acc, self.rng
        if self.acc_kind == "parts":
            return f"{rng.choice((repr(' '), repr(', '), repr('-'), repr('|')))}.join({acc})"
        if self.acc_kind == "number" and self.use.rtype == "float":
            return f"round({acc}, 2)"
        if self.acc_kind == "list":
            return rng.choice((acc, acc, f"sorted({acc})" if self.use.rtype in ("int", "float", "str") else acc))
        if self.acc_kind == "counts":
            return rng.choice((acc, f"sorted({acc}.items())", f"max({acc}.values(), default=0)"))
        return acc

    def block(self, kinds: tuple[str, ...], env: Env) -> None:
        kind, rest = kinds[0], kinds[1:]
        if kind == "for":
            self.for_block(rest, env)
        elif kind == "while":
            self.while_block(rest, env)
        else:
            self.if_block(rest, env, chained=kind == "if-elif")

    def inner(self, rest: tuple[str, ...], env: Env) -> None:
        mark = len(self.w.lines)
        if rest:
            self.block(rest, env)
        else:
            self.deep(env)
        if env.x is not None and env.x_kind and not _mentions(self.w.lines[mark:], env.x):
            self.simple(env)

    def for_block(self, rest: tuple[str, ...], env: Env) -> None:
        w, rng = self.w, self.rng
        start = len(w.lines)
        if env.x is None:
            if env.kind == "text":
                x = w.name(_ELEM_NAMES["word"])
                sep = rng.choice(("", "','", "' '"))
                w.line(f"for {x} in {env.xs}.split({sep}):")
                sub = replace(env, x=x, x_kind="word", loop_depth=env.loop_depth + 1)
            else:
                ek = "float" if env.kind == "prices" else "word" if env.kind == "words" else "int"
                x = w.name(_ELEM_NAMES[ek])
                style = rng.randrange(1, 3) if self.whole_data or self.loops > 1 else rng.randrange(3)
                i = w.name(_ELEM_NAMES["index"]) if style else None
                if style == 0:
                    w.line(f"for {x} in {env.xs}:")
                elif style == 1:
                    w.line(f"for {i} in range(len({env.xs})):")
                    w.indent += 1
                    w.line(f"{x} = {env.xs}[{i}]")
                    w.indent -= 1
                else:
                    w.line(f"for {i}, {x} in enumerate({env.xs}):")
                sub = replace(env, x=x, x_kind=ek, i=i, loop_depth=env.loop_depth + 1)
        elif env.x_kind == "word":
            ch = w.name(_ELEM_NAMES["char"])
            w.line(f"for {ch} in {env.x}:")
            sub = replace(env, x=ch, x_kind="char", loop_depth=env.loop_depth + 1)
        elif env.x_kind == "digit" or (env.x_kind in _NUMERIC and env.i is not None and rng.random() < 0.85):
            if env.i is None:  # count up to the digit
                step = w.name(("step", "tick", "turn"))
                w.line(f"for {step} in range({env.x}):")
                sub = replace(env, x=step, x_kind="digit", loop_depth=env.loop_depth + 1)
                w.indent += 1
                self.inner(rest, sub)
                w.indent -= 1
                return
            y = w.name(("other", "later", "nxt"))
            w.line(f"for {y} in {env.xs}[{env.i} + 1:{env.i} + 3]:")
            sub = replace(env, x=y, x_kind="float" if env.kind == "prices" else "int", i=None,
                          loop_depth=env.loop_depth + 1)
        elif env.x_kind in _NUMERIC:
            d = w.name(("digit", "figure"))
            w.line(f"for {d} in str({'int(' + env.x + ')' if env.x_kind == 'float' else env.x}):")
            w.indent += 1
            n = w.name(("place", "unit"))
            w.line(f"{n} = int({d})")
            w.indent -= 1
            sub = replace(env, x=n, x_kind="digit", loop_depth=env.loop_depth + 1)
        else:
            ch = w.name(_ELEM_NAMES["char"])
            w.line(f"for {ch} in {env.x}:")
            sub = replace(env, x=ch, x_kind="char", loop_depth=env.loop_depth + 1)
        w.indent += 1
        self.inner(rest, sub)
        w.indent -= 1
        header = w.lines[start]
        if sub.i is not None and " enumerate(" in header and not _mentions(w.lines[start + 1:], sub.i):
            w.lines[start] = header.replace(f"for {sub.i}, {sub.x} in enumerate({env.xs}):",
                                            f"for {sub.x} in {env.xs}:")

    def while_block(self, rest: tuple[str, ...], env: Env) -> None:
        w, rng = self.w, self.rng
        if env.x is None and env.kind != "text":
            ek = "float" if env.kind == "prices" else "word" if env.kind == "words" else "int"
            x = w.name(_ELEM_NAMES[ek])
            if rng.random() < 0.5 or self.loops > 1:
                i = w.name(_ELEM_NAMES["index"])
                w.line(f"{i} = 0")
                w.line(f"while {i} < len({env.xs}):")
                w.indent += 1
                w.line(f"{x} = {env.xs}[{i}]")
                self.inner(rest, replace(env, x=x, x_kind=ek, i=i, loop_depth=env.loop_depth + 1))
                w.line(f"{i} += 1")
            else:
                todo = w.name(("pending", "queue", "todo", "stack"))
                w.line(f"{todo} = list({env.xs})")
                w.line(f"while {todo}:")
                w.indent += 1
                w.line(f"{x} = {todo}.pop({rng.choice(('', '0'))})")
                self.inner(rest, replace(env, x=x, x_kind=ek, loop_depth=env.loop_depth + 1,
                                         xs=todo if self.whole_data else env.xs))
            w.indent -= 1
        elif env.x is None:  # a text: its words as a work list
            todo = w.name(("pending", "queue", "todo"))
            x = w.name(_ELEM_NAMES["word"])
            w.line(f"{todo} = {env.xs}.split()")
            w.line(f"while {todo}:")
            w.indent += 1
            w.line(f"{x} = {todo}.pop()")
            self.inner(rest, replace(env, x=x, x_kind="word", loop_depth=env.loop_depth + 1))
            w.indent -= 1
        elif env.x_kind in ("int", "float") and env.i is not None and rng.random() < 0.7:
            j, y = w.name(("j", "ahead", "nxt_at")), w.name(("other", "later", "nxt"))
            w.line(f"{j} = {env.i} + 1")
            w.line(f"while {j} < min({env.i} + 3, len({env.xs})):")
            w.indent += 1
            w.line(f"{y} = {env.xs}[{j}]")
            self.inner(rest, replace(env, x=y, i=None, loop_depth=env.loop_depth + 1))
            w.line(f"{j} += 1")
            w.indent -= 1
        elif env.x_kind == "digit":  # count the digit down
            left = w.name(("left", "rest_", "remaining"))
            w.line(f"{left} = {env.x}")
            w.line(f"while {left} > 0:")
            w.indent += 1
            self.inner(rest, replace(env, x=left, loop_depth=env.loop_depth + 1))
            w.line(f"{left} -= {self.rng.choice((2, 3))}")
            w.indent -= 1
        elif env.x_kind in _NUMERIC:
            left = w.name(("left", "rest_", "remaining"))
            d = w.name(("digit", "figure"))
            w.line(f"{left} = abs({env.x})" if env.x_kind == "int" else f"{left} = abs(int({env.x}))")
            w.line(f"while {left} > 0:")
            w.indent += 1
            w.line(f"{d} = {left} % 10")
            self.inner(rest, replace(env, x=d, x_kind="digit", loop_depth=env.loop_depth + 1))
            w.line(f"{left} //= 10")
            w.indent -= 1
        else:  # a word or a character string: walk its letters
            j, ch = w.name(("j", "at", "cursor")), w.name(_ELEM_NAMES["char"])
            w.line(f"{j} = 0")
            w.line(f"while {j} < len({env.x}):")
            w.indent += 1
            w.line(f"{ch} = {env.x}[{j}]")
            self.inner(rest, replace(env, x=ch, x_kind="char", loop_depth=env.loop_depth + 1))
            w.line(f"{j} += 1")
            w.indent -= 1

    def condition(self, env: Env, families: set[str]) -> tuple[str, str]:
        """(test, family): a family no enclosing or earlier test on this value used."""
        group = env.x_kind if env.x is not None else "data"
        options = [(f, t) for f, ts in _COND[group].items() if f not in families for t in ts]
        if env.x is not None and "acc" not in families and env.loop_depth:
            size = env.x if env.x_kind in _NUMERIC else f"len({env.x})"
            options += [("acc", t.replace("{size}", size)) for t in _ACC_COND[self.acc_kind]]
        options = [o for o in options if o[1] not in self.w.conds]
        if not options:
            raise _Miss(group)
        family, template = self.rng.choice(options)
        self.w.conds.append(template)
        rng = self.rng
        text = (template.replace("{acc}", self.acc).replace("{a10}", str(rng.randint(8, 12)))
                .replace("{a5}", str(rng.randint(4, 6))).replace("{a3}", str(rng.randint(3, 4)))
                .replace("{a6}", str(rng.randint(5, 7))).replace("{a7}", str(rng.randint(6, 8)))
                .replace("{a8}", str(rng.randint(7, 9)))
                .replace("{v}", repr(rng.choice("aeiou"))).replace("{m}", repr(rng.choice("hjkmnp"))))
        return self.render(env, text), family

    def if_block(self, rest: tuple[str, ...], env: Env, chained: bool) -> None:
        w, rng = self.w, self.rng
        key = env.x or ""
        outer = self.families.setdefault(key, set())
        first, fam = self.condition(env, outer)
        tests, fams = [first], {fam}
        if chained:
            second, fam2 = self.condition(env, outer | fams)
            tests.append(second)
            fams.add(fam2)
        outer |= fams
        deep = rng.randrange(len(tests))
        # an else under a test of the whole input needs one more input to run: rarer there
        with_else = rng.random() < (0.25 if chained else 0.4) * (0.3 if env.x is None else 1)
        if env.x is None:  # tests on the whole input: the deeper levels go where the call's input goes
            truths = [self.truth(t) for t in tests]
            if None not in truths:
                taken = next((b for b, t in enumerate(truths) if t), None)
                deep, with_else = (len(tests), True) if taken is None else (taken, with_else)
        for b, test in enumerate(tests):
            w.line(f"{'if' if b == 0 else 'elif'} {test}:")
            w.indent += 1
            if b == deep:
                self.inner(rest, env)
                if not rest and env.loop_depth and rng.random() < 0.3 and self.acc_kind in ("number", "list"):
                    w.line(f"return {self.finish()}")
            else:
                self.simple(env, alternative=b % 2 == 1)
            w.indent -= 1
        if with_else:
            w.line("else:")
            w.indent += 1
            if deep == len(tests):
                self.inner(rest, env)
            else:
                self.simple(env, alternative=True)
            w.indent -= 1
        del w.conds[-len(tests):]
        outer -= fams

    def truth(self, test: str) -> bool | None:
        """The test's value on the call's own input (None when it cannot be told)."""
        try:
            space = {n: ast.literal_eval(lit) for n, lit in self.w.params}
            return bool(eval(test, {"__builtins__": {"len": len, "sum": sum}}, space))  # noqa: S307 - our own test text
        except Exception:  # noqa: BLE001 - a test on a name the params lack
            return None

    def deep(self, env: Env) -> None:
        if self.hoisted:
            self.simple(env, variant=len(self.w.lines))
            return
        if self.whole_data and env.loop_depth:  # in a walk: the few items from here on
            if env.i is not None:
                env = replace(env, xs=f"{env.xs}[{env.i}:{env.i} + {self.span}]")
            else:
                env = replace(env, xs=f"{env.xs}[-{self.span}:]")
        e = self.expr(env)
        acc, rt, kind = self.acc, self.use.rtype, self.acc_kind
        if kind == "number":
            if rt in ("int", "float"):
                self.w.line(f"{acc} += {e}")
            elif rt == "bool":
                self.w.line(f"{acc} += 1 if {e} else 0")
            elif rt == "list" and self.kind in ("ints", "prices") and "str" not in e and "'" not in e:
                self.w.line(f"{acc} += sum({e})")
            else:
                self.w.line(f"{acc} += len({e})")
        elif kind == "best":
            self.w.line(self.rng.choice((f"{acc} = max({acc}, {e})",)))
        elif kind == "counts":
            key = env.x if env.x is not None else repr("all")
            self.w.line(f"{acc}[{key}] = {acc}.get({key}, 0) + {e}")
        elif kind == "parts":
            self.w.line(f"{acc}.append({e})")
        elif rt == "set":
            self.w.line(f"{acc}.extend(sorted({e}))")
        else:
            if rt == "list" and self.rng.random() < 0.6:
                self.w.line(self.rng.choice((f"{acc}.extend({e})", f"{acc} += {e}")))
            else:
                self.w.line(f"{acc}.append({e})")

    def simple(self, env: Env, alternative: bool = False, variant: int | None = None) -> None:
        """The current element's own contribution, as the accumulator takes it."""
        x, xk, acc, kind = env.x, env.x_kind, self.acc, self.acc_kind
        v = variant if variant is not None else (len(self.w.lines) + int(alternative))
        if x is None:
            xs = env.xs
            head, tail = f"{xs}[0]", f"{xs}[-1]"
            if self.kind == "text":
                head, tail = f"len({xs})", f"{xs}.count(' ')"
            pick = tail if v % 2 else head
            if self.kind == "words":
                pick = f"len({pick})"
            options = {"number": (f"{acc} += {pick}", f"{acc} -= {pick}"),
                       "best": (f"{acc} = max({acc}, {pick})", f"{acc} = min({acc}, {pick})"),
                       "counts": (f"{acc}[len({xs})] = {pick}",),
                       "parts": (f"{acc}.append(str({pick}))", f"{acc}.insert(0, str({pick}))"),
                       "list": (f"{acc}.append({pick})", f"{acc}.insert(0, {pick})")}[kind]
            self.w.line(options[v % len(options)])
            return
        size = x if xk in _NUMERIC else f"len({x})"
        a = self.rng.randint(2, 5)
        if kind == "number":
            options = (f"{acc} += {size}", f"{acc} -= {size}", f"{acc} += {size} // {a}" if xk != "float"
                       else f"{acc} += {x} / {a}", f"{acc} += {size} * {a}", f"{acc} -= {size} % {a}")
        elif kind == "best":
            options = (f"{acc} = max({acc}, {size})", f"{acc} = min({acc}, {size})",
                       f"{acc} = {size} if {size} > {acc} else {acc}")
        elif kind == "counts":
            options = (f"{acc}[{x}] = {acc}.get({x}, 0) + 1", f"{acc}[{x}] = {acc}.get({x}, 0) - 1")
        elif kind == "parts":
            options = ((x, f"{x}.upper()", f"{x}[::-1]" if xk == "word" else f"{x} * {a}")
                       if xk in ("word", "char")
                       else (f"str({x})", f"str({x} * 2)", f"f'<{{{x}}}>'"))
            options = tuple(f"{acc}.append({o})" for o in options)
        else:
            options = ((x, f"-{x}", f"{x} * {a}", f"{x} - {a}") if xk in _NUMERIC
                       else (x, f"{x}.upper()", f"len({x})", f"{x}[:{a}]"))
            options = tuple(f"{acc}.append({o})" for o in options)
        self.w.line(options[v % len(options)])


_NUMERIC = ("int", "float", "digit")
_HELPER_PARAMS = {"xs": (), "x": ("value", "current", "entry_"), "n": ("limit", "cutoff"),
                  "ys": ("names", "labels"), "i": ("start", "skip")}
_RECV_ALT = {  # the other arms of a test: (on the current element, on the whole data)
    "seq": (("{acc}.append({x})", "{acc}.insert(0, {x})"), ("{acc}.append({xs}[0])", "{acc}.append({xs}[-1])")),
    "set": (("{acc}.add({x})", "{acc}.discard({x})"), ("{acc}.add({xs}[0])", "{acc}.discard({xs}[-1])")),
    "map": ((), ()),
}
_MODULES = ("math", "bisect")
_KEYS = {  # {key}: what a statement use groups the current element by
    "int": ("{x} % {k}", "{x} // {k}", "{x} % 10", "{x} // 10", "{x} % 2", "{x} // {k} * {k}"),
    "digit": ("{x} % {k}", "{x} % 2", "{x} // {k}"),
    "float": ("int({x}) % {k}", "round({x})", "int({x} // {k})"),
    "word": ("{x}[:1]", "{x}[-1:]", "len({x})", "{x}[:2]", "{x}[:3]", "len({x}) > {k}"),
    "char": ("{x}", "{x} in 'aeiou'", "{x}.upper()"),
}


class _StmtProgram(_Program):
    """A statement use: the receiver is a local the program builds (`init`), the target
    changes it in the deepest block (`stmt`, on the current element) or in a straight body
    (`flat`, also the deepest arm of a blueprint of tests only), the result reads it (`ret`).
    At C6 those lines are a helper that takes the receivers and the values it needs."""

    def __init__(self, entry: Entry, knobs: Knobs, rng: random.Random, use: Use) -> None:
        super().__init__(entry, knobs, rng, use)
        texts = " ".join((use.init, use.stmt, use.flat, use.ret, use.post, *use.alt))
        self.w.taken |= set(re.findall(r"[A-Za-z_]\w*", texts))
        self.whole_data = False
        self.hoisted = False
        self.acc_kind = use.recv
        self.choices: dict[str, str] = {}
        self.lines_used = use.stmt if self.loops else use.flat
        if not self.lines_used:
            raise _Miss("no lines for this blueprint")

    def render(self, env: Env, text: str | None = None) -> str:
        text = self.choose(text or "")
        if "{key}" in text:
            if self.key is None:
                raw = self.use.stmt + self.use.flat
                self.key = self.rng.choice([t for t in _KEYS[env.x_kind or "int"] if t not in raw])
            text = text.replace("{key}", self.key)
        return super().render(env, text)

    key: str | None = None

    def choose(self, text: str) -> str:
        """`<<a;;b>>` in a template: one of the spellings, the same one wherever the group
        recurs in the program."""
        def pick(m: re.Match) -> str:
            group = m.group(1)
            if group not in self.choices:
                self.choices[group] = self.rng.choice(group.split(";;"))
            return self.choices[group]
        return re.sub(r"<<(.+?)>>", pick, text)

    def receivers(self) -> None:
        if "acc" not in self.lits:
            self.lits["acc"] = self.w.name(self.use.accs[0])
            if len(self.use.accs) > 1:
                self.lits["acc2"] = self.w.name(self.use.accs[1])
            if len(self.use.accs) > 2:  # {tmp}: a scratch local of the lines, never a parameter
                self.lits["tmp"] = self.w.name(self.use.accs[2])
            self.acc = self.lits["acc"]

    def put(self, env: Env, text: str) -> None:
        for line in filter(None, text.split("\n")):
            out = self.render(env, line)
            self.w.imports.update(m for m in _MODULES if f"{m}." in out)
            self.w.line(out)

    def helper(self, env: Env) -> list[str]:
        """The lines as a function of the receivers and the values they read, written at
        its first call (when the element's kind, and so {key}, is known). A receiver the
        lines rebind (`seen |= ...`) is returned and rebound by the call."""
        self.receivers()
        hname = self.w.name(("record", "note", "track", "file_under", "register", "add_entry"))
        lines: list[str] = []
        used: list[str] = []
        rebound: list[str] = []

        def call(e: Env) -> str:
            if not lines:
                text = self.choose(self.lines_used)
                if "{key}" in text:
                    self.render(e, "{key}")
                    text = text.replace("{key}", self.key or "")
                used.extend(k for k in ("acc", "acc2", "xs", "x", "i", "n", "ys") if "{" + k + "}" in text)
                rebound.extend(k for k in ("acc", "acc2") if re.search("{" + k + r"} [-|&^*+]= ", text))
                sub = Writer(self.rng, True, taken=set(self.w.taken))
                mapping = {}
                for k in used:
                    choices = (self.use.accs[0] if k == "acc" else self.use.accs[-1] if k == "acc2"
                               else _DATA_NAMES[self.kind] if k == "xs" else _HELPER_PARAMS[k])
                    mapping[k] = sub.name(choices)
                self.w.taken |= sub.taken
                lines.append(f"def {hname}({', '.join(mapping[k] for k in used)}):")
                for b in filter(None, text.split("\n")):
                    out = self.render_with(b, mapping)
                    self.w.imports.update(m for m in _MODULES if f"{m}." in out)
                    lines.append(f"    {out}")
                if rebound:
                    lines.append(f"    return {', '.join(mapping[k] for k in rebound)}")
            args = []
            for k in used:
                if k in ("acc", "acc2"):
                    args.append(self.lits[k])
                elif k == "xs":
                    args.append(e.xs)
                else:
                    args.append(self.render(e, "{" + k + "}"))
            head = f"{', '.join(self.lits[k] for k in rebound)} = " if rebound else ""
            return f"{head}{hname}({', '.join(args)})"
        self.helper_call = call
        return lines

    def render_with(self, text: str, mapping: dict[str, str]) -> str:
        return text.format(**{**self.lits, **mapping})

    def straight(self, env: Env) -> None:
        env = self.prepare(env)
        self.top = env
        self.receivers()
        self.put(env, self.use.init)
        self.deep(env)
        self.put(env, self.use.post)
        self.w.line(f"return {self.finish()}")

    def prepare(self, env: Env) -> Env:
        """Sometimes the data is trimmed or cleaned first (as `prepared` writes it)."""
        if self.rng.random() >= STATEMENT_PREP_SHARE or "sorted(" in self.use.init + self.use.flat:
            return env  # (a use that sorts the data itself is not handed it sorted)
        prep, _ = self.prepared(env.xs, env.kind)
        if not self.loops and re.search(r"\[-?\d*:", prep):
            return env  # a straight body reads items by position: keep them all
        name = self.w.name(("cleaned", "data", "batch", "subset", "selected"))
        self.w.line(f"{name} = {prep}")
        return replace(env, xs=name)

    def nested(self, env: Env) -> None:
        env = self.prepare(env)
        self.top = env
        self.receivers()
        self.put(env, self.use.init)
        self.block(tuple(self.knobs.blueprint), env)
        self.put(env, self.use.post)
        self.w.line(f"return {self.finish()}")

    def finish(self) -> str:
        if self.ret is None:
            self.ret = self.rng.choice(self.use.ret.split("\n"))
        return self.render(self.top, self.ret)

    ret: str | None = None

    def deep(self, env: Env) -> None:
        if self.use.xkinds and env.x is not None and env.x_kind not in self.use.xkinds:
            raise _Miss(env.x_kind)
        if self.helper_call is not None:
            self.w.line(self.helper_call(env))
        else:
            self.put(env, self.lines_used)

    def simple(self, env: Env, alternative: bool = False, variant: int | None = None) -> None:
        on_x, on_data = _RECV_ALT[self.use.recv]
        if self.use.alt:
            on_x = tuple(t for t in self.use.alt if "{xs}" not in t)
            on_data = tuple(t for t in self.use.alt if "{x}" not in t and "{key}" not in t)
        options = on_x if env.x is not None else on_data
        if not options:
            raise _Miss("no other arm")
        v = variant if variant is not None else (len(self.w.lines) + int(alternative))
        self.put(env, options[v % len(options)])


def _build_statement(entry: Entry, knobs: Knobs, rng: random.Random, fitting: list[Use],
                     entry_names: tuple[str, ...]) -> tuple[str, str, str] | None:
    loops = any(k in ("for", "while") for k in knobs.blueprint)
    fitting = [u for u in fitting if (u.stmt if loops else u.flat)
               and not (u.straight_only and knobs.control_flow_depth)]
    if not fitting or (not knobs.control_flow_depth
                       and rng.random() > min(0.25, STATEMENT_DEPTH0_SHARE * len(fitting))):
        return None
    if knobs.control_flow_depth and not loops and rng.random() < STATEMENT_TESTS_DECLINE:
        return None  # tests only: the same few straight bodies under them
    cell = Constraint(entry.type, entry.method, "idiom", knobs)
    for _ in range(STATEMENT_TRIES):
        use = rng.choice(fitting)
        try:
            made = _StmtProgram(entry, knobs, rng, use).build(entry_names)
        except _Miss:
            continue
        if made and measure_structure(made[0], made[1], cell).matches and not static_findings(made[0]):
            return made
    return None


def _mentions(lines: list[str], name: str) -> bool:
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    return any(pattern.search(t) for t in lines)


def build_idiom(entry: Entry, knobs: Knobs, rng: random.Random,
                entry_names: tuple[str, ...]) -> tuple[str, str, str] | None:
    """(code, entry point, call arguments) from the idiom library, or None when it has no
    use for this entry or level."""
    uses = USES.get((entry.type, entry.method))
    if not uses or not knobs.nested_calls:
        return None
    fitting = [u for u in uses if u.calls <= knobs.other_methods or knobs.call_chain]
    if not knobs.other_methods:
        fitting = [u for u in uses if not u.calls]
    if not fitting:
        return None
    if any(u.statement for u in fitting):  # an entry's uses are statements or expressions, not both
        return _build_statement(entry, knobs, rng, [u for u in fitting if u.statement], entry_names)
    if knobs.control_flow_depth:  # depth-0 uses are left out of loops and tests
        fitting = [u for u in fitting if not u.straight_only]
        if not fitting:
            return None
    if not knobs.control_flow_depth and rng.random() > min(0.25, DEPTH0_SHARE * len(fitting)):
        return None  # a straight pipeline has few surface variants: keep a cell's programs distinct
    use = rng.choice(fitting)
    try:
        return _Program(entry, knobs, rng, use).build(entry_names)
    except _Miss:
        return None
