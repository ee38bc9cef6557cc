"""Scenes: C4-C6 programs of the idiom library with a skeleton of their own.

The library's loop programs share one frame (an accumulator, a walk, tests on the element,
a contribution, a report). A scene is a small algorithm a person writes around the same
target use, each with its own state and its own shape:

- streak: the longest run of rising (falling) values, walked in pairs by index;
- repeats: values met before (a set of those seen, a list of repeats);
- windows: for each window of a few values, how many pass a cut; the busiest window;
- letters: a letter-by-letter state machine counting the words of a text (and digits);
- split: values below one cut counted, those above another kept;
- digits: the digit sum of the items that pass a test;
- tally: a letter histogram (`dict.get` with a default) of the words that pass a test;
- grades: items sorted into bands;
- top_digit: the largest digit of each item;
- digit_kinds: the digits of every item counted by kind (even / odd, large / small).

The use is computed once, before the walk: on the whole input (its list, tuple or text is
what the scene walks, a text's words where it has several; a number is the cut the input's
items, or the lengths of its words, are compared with; a yes-or-no is the test that holds
the walk) or on each item in a
comprehension (where its text names the element or its index; a yes-or-no on each item is
instead the test that picks the items a digit sum or a letter histogram reads). Literals the tests compare
with are read off the values on the call's own input, so both arms of each test run on it.
A scene covers the blueprints it can write (the kinds of its two or three nested
statements, checked by the static check as every draw is); `build_scene` declines the
others and the library's frame takes them. A blueprint that starts with a test before a
loop holds a two-deep scene under a test (`guard`). Two scenes were written and dropped,
as the gate turns them away: a bisection (any middle index finds the same place, an idle
expression) and a merge of two sorted lists (the use's values are drawn from the input, so
one index never lags).
"""

from __future__ import annotations

import ast
import random
import re
import textwrap
from dataclasses import replace

from workers.pipeline.builtin.idiom_use import Use
from workers.pipeline.builtin.idioms import _ELEM_NAMES, Env, _Miss, _Program, fitting_uses
from workers.pipeline.constraints.catalog import Entry
from workers.pipeline.records import Knobs

SCENE_SHARE = 1.0  # C4-C6 draws that try a scene first (most decline: the blueprint, the use's value)
SCENE_DEPTHS = (2, 3)  # C4 and C5/C6: two or three nested statements
SCENE_TRIES = 8  # pairs of a scene and a use tried on a draw before the frame takes it

_VALUE_NAMES = {"int": ("value", "size", "score", "weight"), "float": ("value", "amount", "cost"),
                "str": ("key", "form", "short", "label")}


class _Scene(_Program):
    """Scene `scene` in place of the library's frame (`nested`); everything else (the data,
    the C6 helper, names, the report of the parameters) is the library's."""

    def __init__(self, entry: Entry, knobs: Knobs, rng: random.Random, use: Use, scene: str) -> None:
        super().__init__(entry, knobs, rng, use)
        self.scene = scene  # the scene's name: the method that writes it (streak, repeats ...)

    seq = ""  # what the scene walks: a name bound to the use's values, or the data (a cut's)
    item = ""  # the loop's name for a value
    values: list[object]  # the walked values on the call's own input
    cut: str | None = None  # a number the use gives: the name of the cut the data is compared with
    cut_value: float = 0  # its value on the call's own input
    item_test = ""  # a yes-or-no use on each item: the test a scene's inner walk is held by
    chars = False  # the values are a text's letters (counted and matched, not ranked)

    # --- binding the use ------------------------------------------------------------------
    def bind(self, env: Env) -> None:
        """The values the scene walks, bound to a name first: the use's own list, tuple or
        text on the whole input, or the use on each item (a comprehension, where its text
        names the element or its index); or, for a number on integer or price data, the
        use's value as the cut the scene compares the data's items with."""
        w, text = self.w, self.use.text
        if "{x}" in text or "{i}" in text:
            is_test = self.use.rtype == "bool" and "{i}" not in text  # a test each item passes or not
            if self.use.rtype not in ("int", "float", "str") and not is_test \
                    or self.kind not in ("ints", "prices", "words", "text"):
                raise _Miss("a per-item use a scene cannot compare")
            xk = {"ints": "int", "prices": "float", "words": "word", "text": "word"}[self.kind]
            source = env.xs
            if self.kind == "text":
                if not self.methods(f"{env.xs}.split()"):
                    raise _Miss("the text cannot be split")
                source = f"{env.xs}.split()"
            item = w.name(_ELEM_NAMES[xk])
            index = w.name(_ELEM_NAMES["index"]) if "{i}" in text else None
            if index and not self.methods("enumerate("):
                raise _Miss("enumerate is the target")
            per_item = self.expr(replace(env, x=item, x_kind=xk, i=index, loop_depth=1))
            if is_test:  # the test that picks the items a scene's inner walk reads
                if len(set(self.evaluate(f"[{per_item} for {item} in {source}]"))) < 2:
                    raise _Miss("the test holds for every item alike")
                self.item_test, self.seq, self.item = per_item, source, item
                self.values = list(self.evaluate(source))
                return
            walk = f"{index}, {item} in enumerate({source})" if index else f"{item} in {source}"
            expr = f"[{per_item} for {walk}]"
            names = _VALUE_NAMES[self.use.rtype]
        else:
            expr = self.expr(env)
            names = ("items", "picked", "ordered", "chosen", "values")
        value = self.evaluate(expr)
        data = self.kind in ("ints", "prices", "words")  # (a number on words: a cut on their lengths)
        if isinstance(value, (int, float)) and data:
            if isinstance(value, bool):  # a yes-or-no on the whole input: the test the walk is held by
                if not self.guarded:
                    raise _Miss("a yes-or-no use needs a blueprint that starts with a test")
                self.guard_test = expr
            else:
                self.cut, self.cut_value = w.name(("cutoff", "mark", "level", "base")), value
                w.line(f"{self.cut} = {expr}")
            self.seq = env.xs
            self.item = w.name(_ELEM_NAMES[{"ints": "int", "prices": "float", "words": "word"}[self.kind]])
            self.values = list(self.evaluate(env.xs))
            return
        kind = self.item_kind(value)
        if kind == "char" and len(str(value).split()) >= 2 and self.rng.random() < 0.6 \
                and self.methods(f"{env.xs}.split()"):
            primary = (ast.Call, ast.Name, ast.Attribute, ast.Subscript)  # (needs no parentheses before `.split`)
            expr = f"{expr}.split()" if isinstance(ast.parse(expr, mode="eval").body, primary) else f"({expr}).split()"
            value, kind = str(value).split(), "word"  # its words
            names = ("words", "parts", "tokens")
        if kind is None:
            raise _Miss(f"the use's value is not a sequence a scene walks ({type(value).__name__})")
        self.seq = w.name(names if kind != "char" else ("cleaned", "shaped", "letters"))
        w.line(f"{self.seq} = {expr}")
        self.item = w.name(_ELEM_NAMES[kind])
        self.chars = kind == "char"
        self.values = list(value)  # type: ignore[call-overload]

    base = 0  # the depth a guarded scene's walk starts at
    guarded = False  # a leading test holds the walk (a blueprint that starts with if, then a loop)

    def at(self, depth: int, text: str) -> None:
        """One line at `depth` below the scene's top (under the guard, where it has one)."""
        self.w.indent = 1 + self.base + depth
        self.w.line(text)
        self.w.indent = 1

    def code(self, depth: int, text: str) -> None:
        """The lines of `text` (indented as written, four spaces a level) at `depth`."""
        for line in textwrap.dedent(text).strip("\n").splitlines():
            body = line.lstrip(" ")
            self.at(depth + (len(line) - len(body)) // 4, body)

    def step(self, pos: str | None) -> None:
        """A while's index stepped at the end of its body (a for steps itself)."""
        if pos:
            self.at(1, f"{pos} += 1")

    def head(self, kind: str, depth: int) -> tuple[str, str | None]:
        """The walk over the values at `depth`, a for over them or a while over an index:
        (the current value, the index a while steps at the end of its body)."""
        self.guard()
        if kind == "for":
            self.at(depth, f"for {self.item} in {self.seq}:")
            return self.item, None
        if not self.methods(f"len({self.seq})") or "(" in self.seq:
            raise _Miss("an index walk needs the sequence's size, and a name to index")
        pos = self.w.name(_ELEM_NAMES["index"])
        self.at(depth, f"{pos} = 0")
        self.at(depth, f"while {pos} < len({self.seq}):")
        self.at(depth + 1, f"{self.item} = {self.seq}[{pos}]")
        return self.item, pos

    guard_test = ""  # a yes-or-no use: the guard's test

    def guard(self) -> None:
        """The walk held by a test, where the blueprint starts with one: the use's yes or no
        on the whole input, else that there are values to compare (the results keep their
        starting values otherwise)."""
        if self.guarded and not self.base:
            if not self.guard_test and not self.methods(f"len({self.seq})"):
                raise _Miss("the guard needs len")
            self.at(0, f"if {self.guard_test or f'len({self.seq}) > {self.rng.choice((1, 2))}'}:")
            self.base = 1

    def pairs(self, kind: str, depth: int) -> tuple[str, str, str | None]:
        """A walk over neighbouring values, by index from the second or over zipped pairs:
        (the value, the one before it, the index a while steps at the end of its body)."""
        if len(self.methods(f"len({self.seq})", "range(")) < 2 or "(" in self.seq:
            raise _Miss("a walk by index needs range and len, and a name to index")
        self.guard()
        if kind == "for" and self.rng.random() < 0.4 and self.methods("zip("):  # the pairs themselves
            before, after = self.w.name(("before", "prev", "left")), self.w.name(("after", "nxt", "right"))
            self.at(depth, f"for {before}, {after} in zip({self.seq}, {self.seq}[1:]):")
            return after, before, None
        pos = self.w.name(_ELEM_NAMES["index"])
        if kind == "for":
            self.at(depth, f"for {pos} in range(1, len({self.seq})):")
        else:
            self.at(depth, f"{pos} = 1")
            self.at(depth, f"while {pos} < len({self.seq}):")
        return f"{self.seq}[{pos}]", f"{self.seq}[{pos} - 1]", pos if kind == "while" else None

    def walks_values(self, why: str) -> None:
        """A scene that walks the use's values (not the input against the use's number)."""
        if self.cut is not None:
            raise _Miss(why)

    # --- picking literals off the values ------------------------------------------------------
    def comparable(self) -> list[object]:
        """The values, where they order one way (all numbers, or all texts) and are enough."""
        vals = [v for v in self.values if not isinstance(v, bool)]
        one_kind = all(isinstance(v, (int, float)) for v in vals) or all(isinstance(v, str) for v in vals)
        if one_kind and len(vals) >= 3 and len(set(vals)) >= 2:
            return vals
        raise _Miss("values a scene cannot order")

    def numeric(self) -> list[float]:
        vals = self.comparable()
        if not all(isinstance(v, (int, float)) for v in vals):
            raise _Miss("a scene that needs numbers")
        return vals  # type: ignore[return-value]

    def split_point(self, vals: list[object], share: float) -> object:
        """A value at `share` of the sorted distinct values (the test `v > it` holds for some
        items and fails for others); for words, its first letter where that still splits them."""
        ordered = sorted(set(vals))  # type: ignore[type-var]
        if len(ordered) < 2:
            raise _Miss("one distinct value")
        cut = ordered[min(len(ordered) - 2, max(0, int(share * (len(ordered) - 1))))]
        if isinstance(cut, str) and cut:  # words split by a letter of the alphabet ('m'), not a stub ('gard')
            letter = cut[0].lower() if cut[0].isalpha() else cut[0]
            if any(v < letter for v in ordered) and any(v > letter for v in ordered):  # type: ignore[operator]
                return letter
        return cut

    # --- the scenes --------------------------------------------------------------------------
    def nested(self, env: Env) -> None:
        self.top_xs = env.xs
        self.guarded, bp = _core(tuple(self.knobs.blueprint))
        self.bind(env)
        if self.item_test and (self.scene not in _TESTED or len(bp) < 3):
            raise _Miss("the scene has no test for the use on each item")
        result = getattr(self, self.scene)(bp)
        self.w.line(f"return {result}")

    def streak(self, bp: tuple[str, ...]) -> str:
        """The longest run of steps one way (rising or falling values), walked in pairs."""
        w, rng = self.w, self.rng
        self.walks_values("a streak walks the use's values")
        if self.chars:
            raise _Miss("a streak walks numbers or words")
        self.comparable()
        op = rng.choice((">", "<"))
        back = "<" if op == ">" else ">"
        best, run = w.name(("longest", "best", "record")), w.name(("run", "streak", "current"))
        self.code(0, f"""
            {best} = 0
            {run} = 0""")
        v, before, pos = self.pairs(bp[0], 0)
        self.code(1, f"""
            if {v} {op} {before}:
                {run} += 1""")
        if len(bp) == 2:
            self.code(2, f"{best} = max({best}, {run})")
        else:
            self.code(2, f"""
                if {run} > {best}:
                    {best} = {run}""")
        self.code(1, f"""
            {"else" if bp[1] == "if" else f"elif {v} {back} {before}"}:
                {run} = 0""")
        self.step(pos)
        return rng.choice((best, best, f"{best}, {run}") + self.methods(f"f'{{{best}}} in a row'"))

    def repeats(self, bp: tuple[str, ...]) -> str:
        """Values met a second time, each kept once (the first few, where the arm asks)."""
        w, rng = self.w, self.rng
        self.walks_values("repeats are of the use's values")
        vals = self.comparable()
        if len(set(vals)) == len(vals) or len(self.methods("{a}.add(", "{a}.append(", "len(")) < 3:
            raise _Miss("no value repeats")
        seen, again = w.name(("seen", "met", "known")), w.name(("repeated", "twice", "doubles"))
        self.code(0, f"""
            {seen} = set()
            {again} = []""")
        v, pos = self.head(bp[0], 0)
        if len(bp) == 2:  # C4: every repeat kept, or each repeated value once
            self.code(1, f"""
                if {v} in {seen}:
                    {again}.append({v})
                else:
                    {seen}.add({v})""" if bp[1] == "if" else f"""
                if {v} not in {seen}:
                    {seen}.add({v})
                elif {v} not in {again}:
                    {again}.append({v})""")
        elif bp[1] == "if":
            self.code(1, f"""
                if {v} in {seen}:
                    if {v} not in {again}:
                        {again}.append({v})
                else:
                    {seen}.add({v})""")
        else:
            self.code(1, f"""
                if {v} not in {seen}:
                    {seen}.add({v})
                elif len({again}) < {rng.choice((2, 3))}:
                    if {v} not in {again}:
                        {again}.append({v})""")
        self.step(pos)
        return rng.choice((again, f"{again}, len({seen})", f"(len({seen}), {again})")
                          + self.methods(f"sorted({again})", f"f'{{len({again})}} of {{len({seen})}} repeat'"))

    def windows(self, bp: tuple[str, ...]) -> str:
        """For each window of a few items, how many pass a cut; the busiest window's count."""
        w, rng = self.w, self.rng
        vals = self.numeric()
        if len(self.methods("range(", "len(", "max(")) < 3:
            raise _Miss("windows need range and len")
        size = rng.choice((2, 3, 3))
        if len(vals) < size + 2:
            raise _Miss("too few items for windows")
        cut = self.cut or repr(self.split_point(vals, rng.choice((0.4, 0.6))))
        start, busiest, hits = (w.name(("start", "first", "begin")), w.name(("busiest", "peak", "most")),
                                w.name(("hits", "over", "passed")))
        v = self.item
        self.code(0, f"""
            {busiest} = 0
            for {start} in range(len({self.seq}) - {size - 1}):
                {hits} = 0
                for {v} in {self.seq}[{start}:{start} + {size}]:
                    if {v} > {cut}:
                        {hits} += 1""")
        if bp[2] == "if-elif":
            self.code(2, f"""
                elif {v} <= {self.split_point(vals, 0.0)!r}:
                    {hits} -= 1""")
        self.code(1, f"{busiest} = max({busiest}, {hits})")
        return rng.choice((busiest, f"{busiest}, {hits}"))

    def letters(self, bp: tuple[str, ...]) -> str:
        """A text read letter by letter: words counted as a state (inside a word or not),
        and digits apart where the test has a first arm."""
        w, rng = self.w, self.rng
        self.walks_values("letters are of the use's text")
        if not isinstance(self.values[0], str) or any(len(c) != 1 for c in self.values[:5]):
            raise _Miss("letters need a text")
        text = "".join(self.values)  # type: ignore[arg-type]
        if len(text.split()) < 2 and len(re.findall(r"[a-zA-Z]+", text)) < 2:
            raise _Miss("a text of one word")
        test = rng.choice(("{c}.isalpha()", "{c}.isalnum()", "{c} not in ' ,.-'"))
        if not self.methods(test.format(c="c")):
            raise _Miss("the letter test calls the target")
        digits = bp[1] == "if-elif" and len(bp) == 3
        if digits and (not any(c.isdigit() for c in text) or test != "{c}.isalpha()"):
            raise _Miss("no digit in the text")
        words, inside = w.name(("words", "count", "runs")), w.name(("inside", "in_word", "reading"))
        digits_name = w.name(("digits", "numerals")) if digits else ""
        self.code(0, f"""
            {words} = 0
            {inside} = False""")
        if digits:
            self.code(0, f"{digits_name} = 0")
        c, pos = self.head(bp[0], 0)
        if len(bp) == 2:  # C4: the state read off the letter before, or a case for a break first
            self.code(1, f"""
                if {test.format(c=c)} and not {inside}:
                    {words} += 1
                {inside} = {test.format(c=c)}""" if bp[1] == "if" else f"""
                if not {test.format(c=c)}:
                    {inside} = False
                elif not {inside}:
                    {words} += 1
                    {inside} = True""")
            self.step(pos)
            return rng.choice((words, f"{words}, len({self.seq})"))
        if digits:
            self.code(1, f"""
                if {c}.isdigit():
                    {digits_name} += 1
                    {inside} = False""")
        self.code(1, f"""
            {"elif" if digits else "if"} {test.format(c=c)}:
                if not {inside}:
                    {words} += 1
                    {inside} = True
            else:
                {inside} = False""")
        self.step(pos)
        if digits:
            return rng.choice((f"{words}, {digits_name}", f"f'{{{words}}} words, {{{digits_name}}} digits'"))
        return rng.choice((words, f"{words}, len({self.seq})"))

    def split(self, bp: tuple[str, ...]) -> str:
        """Items below one cut counted, those above another kept (once each, where a test
        asks)."""
        w, rng = self.w, self.rng
        vals = self.comparable()
        if not self.methods("{a}.append(") or self.chars or self.cut and isinstance(vals[0], str):
            raise _Miss("a split keeps numbers or words (a number cuts numbers)")
        low = repr(self.split_point(vals, 0.3)) if self.cut is None else self.cut
        high = repr(self.split_point(vals, 0.6)) if self.cut is None else self.cut
        below, above = w.name(("below", "small", "under")), w.name(("above", "large", "over"))
        self.code(0, f"""
            {below} = 0
            {above} = []""")
        v, pos = self.head(bp[0], 0)
        self.code(1, f"""
            if {v} < {low}:
                {below} += 1
            elif {v} > {high}:""")
        if len(bp) == 2:
            self.code(2, f"{above}.append({v})")
        else:
            self.code(2, f"""
                if {v} not in {above}:
                    {above}.append({v})""")
        self.step(pos)
        return rng.choice((f"{below}, {above}", f"({below}, len({above}))")
                          + self.methods(f"f'{{{below}}} low, {{len({above})}} high'", f"{above} + [{below}]"))

    def middle(self, bp: tuple[str, ...], test: str, other: tuple[str, str]) -> None:
        """The test that picks the items the inner walk reads (`bp[1]`): `test` alone, or an
        arm before it that counts the items on the other side (`other`: its test and its
        counter, which starts beside the scene's other starting values)."""
        if bp[1] == "if":
            self.code(1, f"if {test}:")
            return
        first, self.counter = other
        self.at(0, f"{self.counter} = 0")
        self.w.lines.insert(self.inits, self.w.lines.pop())  # beside the other starting values
        self.code(1, f"""
            if {first}:
                {self.counter} += 1
            elif {test}:""")

    inits = 0  # where the scene's starting values end (a counter the middle test adds goes there)
    counter = ""  # that counter's name

    def digits(self, bp: tuple[str, ...]) -> str:
        """The digits of the items that pass a test, summed (a while that wears the number
        down, or a for over its text)."""
        w, rng = self.w, self.rng
        vals = self.numeric()
        if not all(isinstance(v, int) and v >= 0 for v in vals) or not self.methods("str(", "int("):
            raise _Miss("digits of whole numbers")
        if len(bp) == 2:
            self.walks_values("the digits of every value")
        total = w.name(("digit_sum", "digits_total", "total"))
        self.code(0, f"{total} = 0")
        self.inits = len(w.lines)
        v, pos = self.head(bp[0], 0)
        depth = len(bp) - 1
        if len(bp) == 3:
            cut = self.cut or self.split_point(vals, rng.choice((0.3, 0.5)))
            low = self.split_point([x for x in vals if self.cut is None or x < self.cut_value] or vals, 0.0)
            self.middle(bp, self.item_test or f"{v} > {cut}", (f"{v} <= {low}", w.name(("small", "low", "skipped"))))
        if bp[-1] == "while":
            rest = w.name(("rest", "remaining", "left"))
            self.code(depth, f"""
                {rest} = {v}
                while {rest} > 0:
                    {total} += {rest} % 10
                    {rest} //= 10""")
        else:
            digit = w.name(("digit", "numeral", "d"))
            self.code(depth, f"""
                for {digit} in str({v}):
                    {total} += int({digit})""")
        self.step(pos)
        if self.counter:
            return rng.choice((f"{total}, {self.counter}", f"({self.counter}, {total})"))
        return rng.choice((total, total) + self.methods(f"f'digits add up to {{{total}}}'"))

    def tally(self, bp: tuple[str, ...]) -> str:
        """The letters of the words that pass a test, counted (a dict's `get` with a default,
        `setdefault`, or a Counter), then read back: the commonest, the counts in order, how
        many letters."""
        w, rng = self.w, self.rng
        vals = self.comparable()
        if not all(isinstance(v, str) and len(v) > 1 for v in vals) or len(self.methods("{a}.get(", "len(")) < 2:
            raise _Miss("letters of words")
        sizes = [len(x) for x in vals]  # type: ignore[arg-type]
        if self.cut is not None and (len(bp) < 3 or not min(sizes) <= self.cut_value < max(sizes)):
            raise _Miss("the use's number splits no words by length")
        counts = w.name(("letter_counts", "freq", "seen_letters", "counts"))
        style = rng.choice(("get", "get") + self.methods("collections.Counter(", "{a}.setdefault("))
        self.code(0, f"{counts} = collections.Counter()" if style.startswith("collections") else f"{counts} = {{}}")
        self.inits = len(w.lines)
        v, pos = self.head(bp[0], 0)
        depth = len(bp) - 1
        if len(bp) == 3:
            test = self.item_test or (f"len({v}) > {self.cut}" if self.cut else f"len({v}) > {self.split_point(sizes, 0.4)}"
                                      if len(set(sizes)) >= 2 else f"{v} < {self.split_point(vals, 0.5)!r}")
            self.middle(bp, test, (f"{v}[0] in 'aeiou'", w.name(("skipped", "vowel_first", "passed_over"))))
        def count(letter: str) -> str:  # one more of a letter, in the program's counting style
            if style == "get":
                return f"{counts}[{letter}] = {counts}.get({letter}, 0) + 1"
            if style.startswith("collections"):
                return f"{counts}[{letter}] += 1"
            return f"{counts}.setdefault({letter}, 0)\n{counts}[{letter}] += 1"
        body = "\n".join("    " + line for line in count("{c}").splitlines())
        if bp[-1] == "for":
            ch = w.name(("ch", "letter", "c"))
            self.code(depth, f"for {ch} in {v}:\n" + body.format(c=ch))
        else:
            at = w.name(("at", "k", "j"))
            self.code(depth, f"{at} = 0\nwhile {at} < len({v}):\n" + body.format(c=f"{v}[{at}]") + f"\n    {at} += 1")
        self.step(pos)
        report = rng.choice((f"max({counts}, key={counts}.get, default='')", f"sorted({counts}.items())",
                             f"len({counts})", f"sorted({counts}, key={counts}.get, reverse=True)[:3]")
                            + ((f"{counts}.most_common(2)",) if style.startswith("collections") else ()))
        return f"{report}, {self.counter}" if self.counter else report

    def grades(self, bp: tuple[str, ...]) -> str:
        """Items that pass a floor sorted into bands (the top band kept, the middle one
        counted; the rest of those that pass is the band below), those under it counted."""
        w, rng = self.w, self.rng
        vals = self.numeric()
        if len(set(vals)) < 5 or not self.methods("{a}.append("):
            raise _Miss("bands need five distinct values")
        if self.cut is not None and len({x for x in vals if x >= self.cut_value}) < 4:
            raise _Miss("too few values above the use's mark")
        floor, mid, top = (self.split_point(vals, q) for q in (0.2, 0.5, 0.8))
        if self.cut is not None:  # the use's number is the pass mark, the bands those above it
            above = [x for x in vals if x >= self.cut_value]
            floor, mid, top = self.cut, self.split_point(above, 0.3), self.split_point(above, 0.8)
        elif not floor < mid < top:  # type: ignore[operator]
            raise _Miss("bands that overlap")
        best, middle, failed = (w.name(("top_band", "honours", "best")), w.name(("middle", "fair", "average")),
                                w.name(("failed", "below", "rejected")))
        self.code(0, f"""
            {best} = []
            {middle} = 0
            {failed} = 0""")
        v, pos = self.head(bp[0], 0)
        if len(bp) == 2:  # C4: one chain of bands
            self.code(1, f"""
                if {v} >= {top}:
                    {best}.append({v})
                elif {v} >= {mid}:
                    {middle} += 1
                elif {v} < {floor}:
                    {failed} += 1""")
            self.step(pos)
            return rng.choice((f"{best}, {middle}, {failed}", f"(len({best}), {middle}, {failed})"))
        self.code(1, f"""
            if {v} >= {floor}:
                if {v} >= {top}:
                    {best}.append({v})
                elif {v} >= {mid}:
                    {middle} += 1
            else:
                {failed} += 1""")
        self.step(pos)
        return rng.choice((f"{best}, {middle}, {failed}", f"(len({best}), {middle}, {failed})")
                          + self.methods(f"f'{{len({best})}} top, {{{middle}}} middle, {{{failed}}} below'"))

    def top_digit(self, bp: tuple[str, ...]) -> str:
        """The largest digit of each item, read off its text, kept in order (a while that
        wears the number down runs past the trace's length on ten values)."""
        w, rng = self.w, self.rng
        self.walks_values("digits of the use's values")
        vals = self.numeric()
        if not all(isinstance(v, int) for v in vals) or not any(v > 9 for v in vals) \
                or len(self.methods("{a}.append(", "abs(", "str(", "int(")) < 4:
            raise _Miss("digits of whole numbers")
        largest, top = w.name(("largest", "top_digits", "biggest")), w.name(("top", "high", "peak"))
        self.code(0, f"{largest} = []")
        v, pos = self.head(bp[0], 0)
        digit = w.name(("digit", "numeral", "d"))
        number = f"abs({v})" if any(x < 0 for x in vals) else v  # type: ignore[operator]
        self.code(1, f"""
            {top} = 0
            for {digit} in str({number}):
                if int({digit}) > {top}:
                    {top} = int({digit})
            {largest}.append({top})""")
        self.step(pos)
        return rng.choice((largest, largest, f"sum({largest})", f"max({largest}, default=0)"))

    def digit_kinds(self, bp: tuple[str, ...]) -> str:
        """The digits of every item sorted by kind: even and odd ones counted, or large and
        small ones (zeros are neither); a while wears the number down, a for reads its text."""
        w, rng = self.w, self.rng
        self.walks_values("digits of the use's values")
        vals = self.numeric()
        if not all(isinstance(v, int) for v in vals) or not any(v > 9 for v in vals):
            raise _Miss("digits of whole numbers")
        signed = any(x < 0 for x in vals)  # type: ignore[operator]
        if len(self.methods("str(", "int(", *(("abs(",) if signed else ()))) < 2 + signed:
            raise _Miss("a digit's text needs str and int (and abs)")
        first, second = (w.name(("evens", "even_digits")), w.name(("odds", "odd_digits"))) if bp[2] == "if" \
            else (w.name(("high", "large", "big")), w.name(("low", "small", "little")))
        self.code(0, f"""
            {first} = 0
            {second} = 0""")
        v, pos = self.head(bp[0], 0)
        number = f"abs({v})" if signed else v
        if bp[1] == "while":
            rest = w.name(("rest", "remaining", "left"))
            self.code(1, f"""
                {rest} = {number}
                while {rest} > 0:""")
            digit = f"{rest} % 10"
        else:
            d = w.name(("digit", "numeral", "d"))
            self.code(1, f"for {d} in str({number}):")
            digit = f"int({d})"
        if bp[2] == "if":  # (a number's last digit is even when the number is)
            self.code(2, f"""
                if {rest if bp[1] == "while" else digit} % 2 == 0:
                    {first} += 1
                else:
                    {second} += 1""")
        else:
            self.code(2, f"""
                if {digit} > {rng.choice((4, 5, 6))}:
                    {first} += 1
                elif {digit} > 0:
                    {second} += 1""")
        if bp[1] == "while":
            self.code(2, f"{rest} //= 10")
        self.step(pos)
        return rng.choice((f"{first}, {second}", f"({first}, {second})", f"{first} - {second}")
                          + self.methods(f"f'{{{first}}}/{{{second}}}'"))


def _walks(bp: tuple[str, ...]) -> bool:
    """A walk first, and at least one statement in it."""
    return len(bp) >= 2 and bp[0] in ("for", "while")


_TEST = (("if",), ("if-elif",))  # a test of either kind
_TESTED = ("digits", "tally")  # scenes whose middle test may be the use on each item
_LOOP = (("for",), ("while",))  # a loop of either kind


_SCENES = (
    (_Scene.streak, lambda bp: _walks(bp) and bp[1] in ("if", "if-elif") and bp[2:] in ((), ("if",))),
    (_Scene.repeats, lambda bp: _walks(bp) and bp[1] in ("if", "if-elif") and bp[2:] in ((), ("if",))),
    (_Scene.windows, lambda bp: bp[:2] == ("for", "for") and bp[2:] in _TEST),
    (_Scene.letters, lambda bp: _walks(bp) and bp[1] in ("if", "if-elif") and bp[2:] in ((), ("if",))),
    (_Scene.split, lambda bp: _walks(bp) and bp[1:] in (("if-elif", "if"), ("if-elif",))),
    (_Scene.digits, lambda bp: _walks(bp) and (bp[1:2] in _TEST and bp[2:] in _LOOP or bp[1:] in _LOOP)),
    (_Scene.tally, lambda bp: _walks(bp) and (bp[1:2] in _TEST and bp[2:] in _LOOP or bp[1:] in _LOOP)),
    (_Scene.grades, lambda bp: _walks(bp) and bp[1:] in (("if", "if-elif"), ("if-elif",))),
    (_Scene.top_digit, lambda bp: _walks(bp) and bp[1:] == ("for", "if")),
    (_Scene.digit_kinds, lambda bp: _walks(bp) and bp[1:2] in _LOOP and bp[2:] in _TEST),
)


def _core(blueprint: tuple[str, ...]) -> tuple[bool, tuple[str, ...]]:
    """(guarded, the kinds the scene writes): a test before a loop is the guard."""
    if blueprint[0] == "if" and blueprint[1] in ("for", "while"):
        return True, blueprint[1:]
    return False, blueprint


def build_scene(entry: Entry, knobs: Knobs, rng: random.Random,
                entry_names: tuple[str, ...]) -> tuple[str, str, str] | None:
    """A scene's program for one of the entry's expression uses at depth 3, or None (the
    library's frame takes the draw: a statement use, another depth, a blueprint no scene
    writes, or no pair of a scene and a use that fit each other in `SCENE_TRIES` tries:
    most uses suit a few scenes only, by the kind of their value)."""
    fitting = fitting_uses(entry, knobs)
    if knobs.control_flow_depth not in SCENE_DEPTHS or not fitting or fitting[0].statement:
        return None
    core = _core(tuple(knobs.blueprint))[1]
    pairs = [(fn.__name__, use) for fn, fits in _SCENES if fits(core) for use in fitting]
    rng.shuffle(pairs)
    for name, use in pairs[:SCENE_TRIES]:
        try:
            return _Scene(entry, knobs, random.Random(rng.random()), use, name).build(entry_names)
        except _Miss:
            continue
    return None
