"""Lay out one function as a person would: walk the data, decide on it, build one result.

A body starts from the parameters, and every value it binds flows into the one value it
returns: an accumulator (a running total, parts joined at the end, a list of findings, or a
working copy the target mutates) that each level of the control-flow chain feeds. Loops run
over the data (the items, the words, the characters of a word, the digits of a number, an
index walk or a work list), and the target use sits in the deepest block, nested as the
level asks. Variables first bound inside a block are forgotten when it closes, so no path
reads an unbound name.

Every arm should run for some of the 3 inputs the pipeline keeps (coverage-first among
type-directed candidates), so tests are chosen on a sample: the teacher's input and
SAMPLES - 1 values of each parameter drawn as input synthesis draws them. Inside a loop a
test is on the current element, split by the values of the anchor input (the first one the
tests around let through), else by those of every sample input. Outside loops a test is on
the whole input, and each input takes one path, so the arms there are chosen to split the
sample inputs: every arm off the deepest path gets some of them, the deep arm the teacher's
where it can; an else joins only while those arms need at most MAX_PATHS inputs in all; and
where they need more than one, few inputs fall through; where they need more than two (every
kept input but the teacher's is spoken for), an arm with levels below walks the data, plainly
(an input reaching it then reaches more blocks no kept input reached yet than one that only
falls through an if, so the coverage-first choice takes it), else it is one plain statement.
Tests on the whole input take no emptiness guard (`xs and max(xs) > 4`, `max(xs, default=0)`):
the teacher's containers hold 2 items or more and the drawn ones SizeBounds.min_len or more.
"""

from __future__ import annotations

import ast
import collections
import copy
import functools
import math
import random
import re
import statistics
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workers.pipeline.builtin.context import KEYS, WORK_LISTS, Ctx, Param, p
from workers.pipeline.builtin.piece import Form, Piece
from workers.pipeline.input_synthesis import new_value
from workers.pipeline.inputs import SizeBounds
from workers.pipeline.naturalness.static import decided

ELEMENT = {"str": "str", "list": "int", "tuple": "int", "set": "int", "flist": "float",
           "list_str": "str", "tuple_str": "str"}
WORKABLE = ("list", "set", "dict")  # receivers of the statement forms
Cond = tuple[str, "Callable[[Any, Any], bool]"]
_CONDITIONS: dict[str, tuple[Cond, ...]] = {  # on the current element x (limit: a parameter)
    "int": (("{x} % 2 == 0", lambda v, k: v % 2 == 0), ("{x} > {limit}", lambda v, k: v > k),
            ("{x} % 2", lambda v, k: v % 2 != 0),
            ("{x} % 3 == 0", lambda v, k: v % 3 == 0), ("{x} < {limit}", lambda v, k: v < k),
            ("{x} >= 10", lambda v, k: v >= 10), ("{x} > 4", lambda v, k: v > 4),
            ("{x} < 0", lambda v, k: v < 0), ("abs({x}) > {limit}", lambda v, k: abs(v) > k),
            ("0 < {x} < {limit}", lambda v, k: 0 < v < k), ("{x} * 2 > {limit}", lambda v, k: v * 2 > k),
            ("{x} != {limit}", lambda v, k: v != k), ("-{limit} <= {x} <= {limit}", lambda v, k: -k <= v <= k),
            ("{x} ** 2 > {limit}", lambda v, k: v ** 2 > k), ("{x} > {limit} // 2", lambda v, k: v > k // 2)),
    "float": (("{x} > {limit}", lambda v, k: v > k), ("{x} < 0", lambda v, k: v < 0),
              ("{x} >= 10.0", lambda v, k: v >= 10.0), ("{x} <= {limit}", lambda v, k: v <= k),
              ("{x} > 0", lambda v, k: v > 0), ("round({x}) % 2 == 0", lambda v, k: round(v) % 2 == 0),
              ("0 < {x} < {limit}", lambda v, k: 0 < v < k), ("{x} != int({x})", lambda v, k: v != int(v)),
              ("abs({x}) < 1", lambda v, k: abs(v) < 1), ("{x} * 2 > {limit}", lambda v, k: v * 2 > k),
              ("int({x}) % 2 == 0", lambda v, k: int(v) % 2 == 0), ("{x} % 1 >= 0.5", lambda v, k: v % 1 >= 0.5),
              ("{x}.is_integer()", lambda v, k: v.is_integer()), ("not {x}.is_integer()", lambda v, k: not v.is_integer()),
              ("math.floor({x}) > {limit}", lambda v, k: math.floor(v) > k),
              ("math.ceil({x}) % 2 == 0", lambda v, k: math.ceil(v) % 2 == 0)),
    "numeral": (("{x} in '13579'", lambda v, k: v in "13579"), ("{x} > '4'", lambda v, k: v > "4"),
                ("{x} == '0'", lambda v, k: v == "0"), ("{x} < '3'", lambda v, k: v < "3"),
                ("{x} not in '02468'", lambda v, k: v not in "02468"), ("int({x}) > 4", lambda v, k: int(v) > 4)),  # of str(n)
    "char": (("{x}.isalpha()", lambda v, k: v.isalpha()), ("{x}.isdigit()", lambda v, k: v.isdigit()),
             ("{x} in 'aeiou'", lambda v, k: v in "aeiou"), ("{x}.isupper()", lambda v, k: v.isupper()),
             ("{x} in 'rstln'", lambda v, k: v in "rstln"), ("{x} == ' '", lambda v, k: v == " "),
             ("{x} in ',.-'", lambda v, k: v in ",.-"), ("{x} < 'm'", lambda v, k: v < "m"),
             ("{x}.islower()", lambda v, k: v.islower()), ("{x}.isspace()", lambda v, k: v.isspace()),
             ("{x} not in 'aeiou'", lambda v, k: v not in "aeiou"), ("{x}.isalnum()", lambda v, k: v.isalnum()),
             ("not {x}.isalpha()", lambda v, k: not v.isalpha()), ("'a' <= {x} <= 'f'", lambda v, k: "a" <= v <= "f"),
             ("{x}.isupper() or {x}.isdigit()", lambda v, k: v.isupper() or v.isdigit()),
             ("{x} in 'xyzq'", lambda v, k: v in "xyzq"), ("{x}.lower() in 'aeiou'", lambda v, k: v.lower() in "aeiou"),
             ("{x}.upper() in 'XYZQK'", lambda v, k: v.upper() in "XYZQK"),
             ("{x}.isdigit() and int({x}) > 4", lambda v, k: v.isdigit() and int(v) > 4),
             ("{x} in string.punctuation", lambda v, k: v in string.punctuation),
             ("{x} in string.ascii_lowercase", lambda v, k: v in string.ascii_lowercase)),
    "word": (("len({x}) > 4", lambda v, k: len(v) > 4), ("{x}.isalpha()", lambda v, k: v.isalpha()),
             ("{x}[0] in 'aeiou'", lambda v, k: v[0] in "aeiou"),
             ("len({x}) % 2 == 0", lambda v, k: len(v) % 2 == 0),
             ("{x}.islower()", lambda v, k: v.islower()), ("len({x}) < 4", lambda v, k: len(v) < 4),
             ("'a' in {x}", lambda v, k: "a" in v), ("{x}.endswith('e')", lambda v, k: v.endswith("e")),
             ("{x}.istitle()", lambda v, k: v.istitle()), ("{x} == {x}[::-1]", lambda v, k: v == v[::-1]),
             ("len(set({x})) < len({x})", lambda v, k: len(set(v)) < len(v)),
             ("not {x}.isalpha()", lambda v, k: not v.isalpha()), ("{x}.count('a') > 1", lambda v, k: v.count("a") > 1),
             ("{x}[:1].isupper()", lambda v, k: v[:1].isupper()), ("{x}.isdigit()", lambda v, k: v.isdigit()),
             ("{x}[:1] == {x}[-1:]", lambda v, k: v[:1] == v[-1:]), ("len({x}) == 1", lambda v, k: len(v) == 1),
             ("{x}.startswith('s')", lambda v, k: v.startswith("s")), ("{x}.endswith('s')", lambda v, k: v.endswith("s")),
             ("{x}.lower().startswith(('a', 'e'))", lambda v, k: v.lower().startswith(("a", "e"))),
             ("{x}.isupper()", lambda v, k: v.isupper()), ("{x}.find('e') > 0", lambda v, k: v.find("e") > 0),
             ("{x}.lower() != {x}", lambda v, k: v.lower() != v), ("{x}.strip('.,!?') != {x}", lambda v, k: v.strip(".,!?") != v)),
}
_WHOLE: dict[str, tuple[Cond, ...]] = {  # on a whole parameter: some inputs meet it, others not
    # {n}: near a live input's size (its value, for a number), {v}: an item of one, {s}: a sum
    "seq": (("len({x}) > {n}", lambda v, k, n: len(v) > n), ("len({x}) < {n}", lambda v, k, n: len(v) < n),
            ("sum({x}) % 2 == 0", lambda v, k, n: sum(v) % 2 == 0),
            ("len({x}) % 2 == 0", lambda v, k, n: len(v) % 2 == 0),
            ("{x}[-1:] < {x}[:1]", lambda v, k, n: v[-1:] < v[:1]),
            ("sum({x}) > {s}", lambda v, k, n: sum(v) > n), ("{v} in {x}", lambda v, k, n: n in v),
            ("max({x}) > {v}", lambda v, k, n: max(v) > n), ("min({x}) < {v}", lambda v, k, n: min(v) < n),
            ("max({x}) < {v}", lambda v, k, n: max(v) < n), ("min({x}) > {v}", lambda v, k, n: min(v) > n),
            ("len(set({x})) < len({x})", lambda v, k, n: len(set(v)) < len(v)),
            ("sum({x}) / len({x}) > {v}", lambda v, k, n: sum(v) / len(v) > n),
            ("{x}.count({v}) > 1", lambda v, k, n: v.count(n) > 1), ("{v} not in {x}", lambda v, k, n: n not in v),
            ("sorted({x}) == list({x})", lambda v, k, n: sorted(v) == list(v)),
            ("max({x}) - min({x}) > {n}", lambda v, k, n: max(v) - min(v) > n),
            ("any(item < 0 for item in {x})", lambda v, k, n: any(i < 0 for i in v)),
            ("all(item > {v} for item in {x})", lambda v, k, n: all(i > n for i in v)),
            ("{x}[0] == {x}[-1]", lambda v, k, n: v[0] == v[-1]),
            ("{x}[0] < {x}[-1]", lambda v, k, n: v[0] < v[-1]),
            ("sum(item % 2 for item in {x}) > {n}", lambda v, k, n: sum(i % 2 for i in v) > n),
            ("statistics.mean({x}) > {v}", lambda v, k, n: statistics.mean(v) > n),
            ("statistics.median({x}) < {v}", lambda v, k, n: statistics.median(v) < n),
            ("collections.Counter({x}).most_common(1)[0][1] > 1",
             lambda v, k, n: collections.Counter(v).most_common(1)[0][1] > 1)),
    "set": (("len({x}) > {n}", lambda v, k, n: len(v) > n), ("sum({x}) % 2 == 0", lambda v, k, n: sum(v) % 2 == 0),
            ("len({x}) < {n}", lambda v, k, n: len(v) < n), ("{v} in {x}", lambda v, k, n: n in v),
            ("max({x}) > {v}", lambda v, k, n: max(v) > n),
            ("sum({x}) < {s}", lambda v, k, n: sum(v) < n), ("{v} not in {x}", lambda v, k, n: n not in v),
            ("len({x}) % 2 == 0", lambda v, k, n: len(v) % 2 == 0),
            ("min({x}) < {v}", lambda v, k, n: min(v) < n),
            ("any(item < 0 for item in {x})", lambda v, k, n: any(i < 0 for i in v)),
            ("all(item % 2 == 0 for item in {x})", lambda v, k, n: all(i % 2 == 0 for i in v)),
            ("all(item > 0 for item in {x})", lambda v, k, n: all(i > 0 for i in v))),
    "dict": (("len({x}) > {n}", lambda v, k, n: len(v) > n),
             ("sum({x}.values()) % 2 == 0", lambda v, k, n: sum(v.values()) % 2 == 0),
             ("len({x}) < {n}", lambda v, k, n: len(v) < n), ("{v} in {x}", lambda v, k, n: n in v),
             ("max({x}.values()) > {s}", lambda v, k, n: max(v.values()) > n),
             ("{v} not in {x}", lambda v, k, n: n not in v), ("len({x}) % 2 == 0", lambda v, k, n: len(v) % 2 == 0),
             ("sum({x}.values()) > {s}", lambda v, k, n: sum(v.values()) > n),
             ("min({x}.values()) < {s}", lambda v, k, n: min(v.values()) < n),
             ("{x}.get({v}, 0) > {limit}", lambda v, k, n: v.get(n, 0) > k),
             ("any(count > {s} for count in {x}.values())", lambda v, k, n: any(c > n for c in v.values())),
             ("all(count > 0 for count in {x}.values())", lambda v, k, n: all(c > 0 for c in v.values())),
             ("{v} in {x} and {x}[{v}] > {limit}", lambda v, k, n: n in v and v[n] > k),
             ("sorted({x}) == list({x})", lambda v, k, n: sorted(v) == list(v)),
             ("any(key.startswith('a') for key in {x})", lambda v, k, n: any(str(c).startswith("a") for c in v)),
             ("max({x}, key={x}.get) == {v}", lambda v, k, n: max(v, key=v.get) == n),
             ("sorted({x}.values()) == list({x}.values())", lambda v, k, n: sorted(v.values()) == list(v.values())),
             ("any(key.isupper() for key in {x}.keys())", lambda v, k, n: any(str(c).isupper() for c in v))),
    "str": (("len({x}) > {n}", lambda v, k, n: len(v) > n), ("len({x}) % 2 == 0", lambda v, k, n: len(v) % 2 == 0),
            ("{x} < 'm'", lambda v, k, n: v < "m"), ("len({x}) < {n}", lambda v, k, n: len(v) < n),
            ("{x}[:1] in 'aeiou'", lambda v, k, n: v[:1] in "aeiou"), ("' ' in {x}", lambda v, k, n: " " in v),
            ("{v} in {x}", lambda v, k, n: n in v), ("{x}.isalpha()", lambda v, k, n: v.isalpha()),
            ("{x}[:1].isupper()", lambda v, k, n: v[:1].isupper()),
            ("{x}.startswith({v})", lambda v, k, n: v.startswith(n)), ("{x}.endswith({v})", lambda v, k, n: v.endswith(n)),
            ("{x}.count({v}) > 1", lambda v, k, n: v.count(n) > 1), ("{x}.strip() != {x}", lambda v, k, n: v.strip() != v),
            ("{x} == {x}[::-1]", lambda v, k, n: v == v[::-1]), ("not {x}.isalnum()", lambda v, k, n: not v.isalnum()),
            ("any(ch.isdigit() for ch in {x})", lambda v, k, n: any(c.isdigit() for c in v)),
            ("{x}.count(' ') > 1", lambda v, k, n: v.count(" ") > 1),
            ("len({x}.split()) > {n}", lambda v, k, n: len(v.split()) > n), ("{x}.lower() != {x}", lambda v, k, n: v.lower() != v),
            ("{x}.lower().count({v}) > 1", lambda v, k, n: v.lower().count(n) > 1), ("{x}.istitle()", lambda v, k, n: v.istitle()),
            ("{x}.find(' ') > {n}", lambda v, k, n: v.find(" ") > n),
            ("{x}.lower().startswith({v})", lambda v, k, n: v.lower().startswith(n)),
            ("{x}.rstrip().endswith(('.', '!', '?'))", lambda v, k, n: v.rstrip().endswith((".", "!", "?")))),
    "num": (("{x} > {limit}", lambda v, k, n: v > k), ("{x} % 2 == 0", lambda v, k, n: v % 2 == 0),
            ("{x} < {limit}", lambda v, k, n: v < k), ("{x} > {n}", lambda v, k, n: v > n),
            ("{x} % 3 == 0", lambda v, k, n: v % 3 == 0), ("{x} < {n}", lambda v, k, n: v < n),
            ("abs({x}) > {n}", lambda v, k, n: abs(v) > n), ("{x} % 2", lambda v, k, n: v % 2 != 0),
            ("0 < {x} < {n}", lambda v, k, n: 0 < v < n), ("len(str({x})) > 1", lambda v, k, n: len(str(v)) > 1),
            ("{x} != {limit}", lambda v, k, n: v != k)),
}
_PLAIN_WHOLE = {t for group in _WHOLE.values() for t, _ in group
                if re.fullmatch(r"len\(\{x\}\) (>|<|% 2 ==) (\{n\}|0)", t)}
SAMPLES = 12  # inputs whole-input tests are chosen on: the teacher's, then type-directed ones
MIN_ARM = (4, 2)  # of them, what each arm off the deepest path gets: wanted, at least
MAX_PATHS = 2  # inputs the arms under whole-input tests may need in all before an else joins
_BOUNDS = SizeBounds()

# names by role (a number summed up is a total, items kept are found or kept, a working copy
# is what the target updates), not any local: `rest = 0 ... rest += x` reads as a leftover
_ACC_NAMES = {"number": ("total", "tally", "result", "score", "count"),
              "list": ("found", "kept", "picked", "matches", "collected", "result"),
              "parts": ("parts", "pieces", "labels", "fragments"),
              "text": ("text", "joined", "line", "output")}
_WORK_NAMES = ("updated", "working", "changed", "result")


@dataclass
class Var:
    name: str
    type: str
    # value | digit (a digit: not walked again) | char | numeral (a char of str(n)) | word | index |
    # pos (an enumerate count) | bound (read by the lines opening a loop body only) | work (a copy
    # the target may change)
    kind: str = "value"
    sample: list = field(default_factory=list)  # its values on the anchor input
    wide: list = field(default_factory=list)  # its values on every live sample input
    seen: tuple[str, list, list] | None = None  # a set of the items before it: (name, truths of
    # `item in seen` for `sample`, for `wide`), for the test its loop's first if must use


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
        # a collection result is counted: summed up, or its size kept per use
        self.sizes = self.acc_kind == "number" and target_type not in ("int", "float") and g.rng.random() < 0.3
        if self.sizes:
            self.acc_kind = "list"
        if target_type == "bool" and not stmt_form and g.rng.random() < 0.4:
            self.acc_kind = "number"  # how many times the check holds, not the list of answers
        self.helper: tuple[str, list[str]] | None = None  # (name, param types) at C6
        self.helper_after = False  # the helper's call was kept out of a loop: made once after it
        self.target_after: Piece | None = None  # likewise the target's use, where it reads no loop name
        self.helper_sig: tuple[list[str], str] | None = None  # (param names, result type)
        self.limit: str | None = None
        self.walked_words: set[str] = set()
        self.guards: list[str] = []  # the tests of the if-arms being written
        self.facts: list[tuple[str, bool]] = []  # tests known true or false where the next test goes
        self.limit_literal = "0"
        self.concat = self.acc_kind == "parts" and g.rng.random() < 0.35  # text += part, not a join
        self.limit_added = False
        self.nested = True
        # the sample: each parameter's value in SAMPLES inputs (the teacher's first), the
        # ones the open whole-input tests let through (the first of them: the anchor, whose
        # elements element tests split), and the inputs the arms off the path need
        self.seed = g.rng.getrandbits(32)
        self.values: dict[str, list] = {}
        self.live: list[int] = list(range(SAMPLES))
        self.outside = 0
        self.efacts: list[tuple[str, Any, bool]] = []  # element tests known true or false here
        self.banned: set[str] = set()  # the target's call names: scaffolding never calls them
        # whole-input tests by their template: a program asks each question of its input once
        # (not `min(xs) < 27`, then `min(xs) < 20` inside it with another bound)
        self.template_of: dict[str, str] = {}
        self.templates_used: set[str] = set()

    def fits(self, text: str) -> bool:
        """Whether scaffolding `text` stays clear of the target's call names (a call of
        the target's method there would count as another target use)."""
        return not self.banned & set(re.findall(r"\.(\w+)\(", text))

    def pick(self, options: list[str] | tuple[str, ...]) -> str:
        """One of `options` whose calls are not the target's (the first, else)."""
        free = [o for o in options if self.fits(o)]
        return self.g.choice(free) if free else options[0]

    # --- emitting ---------------------------------------------------------------------
    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def uses(self, name: str, since: int) -> bool:
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        return any(pattern.search(text) for text in self.lines[since:])

    # --- values -----------------------------------------------------------------------
    def receiver(self) -> str:
        """A value of the subject type: the newest element of that type, the working copy,
        or the parameter. A text method takes a word or the text, not one letter (on a
        letter, a length is 1 and a reversal or a padding changes nothing worth reading)."""
        for var in reversed(self.scope):
            if var.type == self.t and var.kind not in ("index", "pos", "bound", "char", "numeral"):
                return var.name
        if self.param.type == "flist":
            return f"max({self.param.name})"  # (inputs are never empty)
        return self.param.name

    def newest_element(self) -> Var | None:
        return next((v for v in reversed(self.scope) if v.kind in ("char", "numeral", "word", "value", "digit")
                     and v is not self.param and v.name != self.acc), None)

    def threshold(self) -> str:
        """The limit parameter's name: it joins the parameters once a written test uses it."""
        if self.limit is None:
            self.limit = self.g.fresh("int")
            self.limit_literal = self.g.lit("int", for_param=True)
        return self.limit

    def commit(self, text: str) -> str:
        if self.limit is not None and not self.limit_added and re.search(rf"\b{self.limit}\b", text):
            self.g.params.append(Param(self.limit, "int", self.limit_literal))
            self.g.remember(self.limit, "int")
            self.limit_added = True
        return text

    # --- the sample ---------------------------------------------------------------------
    def values_of(self, name: str) -> list:
        """A parameter's value in each sample input: the teacher's, then values of its type
        and shape drawn as the pipeline's type-directed inputs are."""
        vals = self.values.get(name)
        if vals is None:
            literal = self.limit_literal if name == self.limit else \
                next(q.literal for q in self.g.params if q.name == name)
            first = ast.literal_eval(literal)
            rng = random.Random(f"flow:{self.seed}:{name}")
            vals = [first] + [new_value(first, rng, _BOUNDS) for _ in range(SAMPLES - 1)]
            self.values[name] = vals
        return vals

    def anchor(self) -> int:
        return self.live[0] if self.live else 0

    def limit_at(self, i: int) -> Any:
        return self.values_of(self.limit)[i] if self.limit is not None else 0

    def value(self, src: Var) -> Any:
        """`src`'s value in the anchor input (an element: its first sample value)."""
        if src is self.param:
            return self.values_of(src.name)[self.anchor()]
        return src.sample[0] if src.sample else None

    def spread(self, fn: Callable[[Any], Any]) -> list:
        """`fn`'s items on the parameter's value in every live sample input, in a row."""
        vals = self.values_of(self.param.name)
        return [y for i in self.live for y in _safe_list(fn, vals[i])]

    def env(self, i: int) -> dict[str, Any]:
        names = [q.name for q in self.g.params] + ([self.limit] if self.limit else [])
        return {n: copy.deepcopy(self.values_of(n)[i]) for n in names}

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
            work = self.named(_WORK_NAMES)  # the target changes its receiver: never the data being walked
            self.line(f"{work} = {self.t}({self.param.name})")
            self.scope.append(Var(work, self.t, "work"))
        if self.acc_kind == "work":
            self.acc = self.named(_WORK_NAMES)
            n = self.param.name
            copy = f"{self.t}({n})" if g.rng.random() < 0.6 else \
                {"list": f"[*{n}]", "set": f"{{*{n}}}", "dict": f"{{**{n}}}"}[self.t]  # a copy by unpacking
            self.line(f"{self.acc} = {copy}")
            self.scope.append(Var(self.acc, self.t, "work"))
            return
        self.acc = self.named(_ACC_NAMES["text" if self.acc_kind == "parts" and self.concat else self.acc_kind])
        init = {"number": "0.0" if self.target_type == "float" else "0", "parts": "''" if self.concat else "[]",
                "list": "[]"}[self.acc_kind]
        self.line(f"{self.acc} = {init}")

    def feed(self, expr: str, rtype: str, item: str = "") -> None:
        """Add a value to the accumulator, as its kind takes it (a text as a number by its
        `_measure`: `item` is the element kind when `expr` is a letter or a digit)."""
        acc, kind = self.acc, self.acc_kind
        if kind == "number":
            if rtype in ("int", "float"):
                self.line(f"{acc} += {expr}")
            elif rtype == "bool":
                self.line(f"{acc} += 1 if {expr} else 0" if self.g.rng.random() < 0.6 else f"{acc} += int({expr})")
            else:
                self.line(f"{acc} += {_measure(expr, item)}")
        elif kind == "parts":
            part = expr if rtype == "str" else f"str({expr})"
            self.line(f"{acc} += {part}" if self.concat else f"{acc}.append({part})")
        elif kind == "list":
            self.line(f"{acc}.append({_measure(expr, item)})" if self.sizes and rtype not in ("int", "float", "bool")
                      else f"{acc}.append({expr})")
        else:  # a working copy: elements go in with the type's own insertion
            if rtype != "int" and self.t != "dict":
                expr = _measure(expr, item) if rtype not in ("float", "bool") else f"int({expr})"
            if self.t == "list":
                self.line(f"{acc}.append({expr})")
            elif self.t == "set":
                self.line(f"{acc}.add({expr})")
            else:
                key = expr if rtype == "str" else f"str({expr})"
                self.line(f"{acc}[{key}] = {acc}.get({key}, 0) + 1")

    def feed_element(self, var: Var, alternative: bool = False, reads: bool = False) -> None:
        """A plain use of the current element: the block's own contribution (`reads`: it
        must read the element, which nothing else in its loop reads)."""
        x, g = var.name, self.g
        if self.acc_kind == "number":
            size = x if var.type in ("int", "float") else _measure(x, var.kind)
            acc = self.acc
            if not alternative:
                if var.kind == "word" and g.rng.random() < 0.45:  # a word's share: its count of a letter
                    size = self.pick((f"{x}.count({g.choice('aeiost')!r})", size))
                self.line(f"{acc} += {size}")
            else:  # the other arm takes the item another way: subtracts it, counts it, squares it
                whole = var.type == "int"
                ways = [f"{acc} -= {size}", f"{acc} -= {size}", f"{acc} += 1",
                        f"{acc} += {x} * {x}" if whole else f"{acc} -= {size}",
                        f"{acc} += {x} ** 2" if whole else f"{acc} += {size} // 2",
                        f"{acc} += 1 if {x} % 2 else -1" if whole else f"{acc} -= 1",
                        f"{acc} += abs({x})" if _signed(var) else f"{acc} -= 1"]
                if var.type == "float":  # a price or a reading: whole units down or up
                    ways += [f"{acc} += math.floor({x})", f"{acc} -= math.ceil({x})"]
                elif var.kind == "char":  # the digits of a text summed, the capitals counted
                    ways += [f"{acc} += int({x}) if {x}.isdigit() else 0", f"{acc} += 1 if {x}.isupper() else 0"]
                elif var.kind == "word":
                    ways += [f"{acc} += {x}.count({g.choice('aeiost')!r})", f"{acc} -= len({x}.rstrip('s'))"]
                way = self.pick([w for w in ways if not reads or re.search(rf"\b{x}\b", w)])
                self.line(way)
        elif self.acc_kind == "parts":
            if var.type == "str":
                word = var.kind == "word"
                other = f"{x} * 2" if var.kind == "numeral" else g.choice((
                    f"{x}.upper()", f"{x}.upper()", f"{x}.capitalize()" if word else f"{x} * 2",
                    f"{x}[::-1]" if word else f"{x}.lower()", f"{x}.title()" if word else f"{x}.swapcase()",
                    f"{x}[:3]" if word else f"{x}.upper()"))
                if not alternative and word and g.rng.random() < 0.25:  # each word written as a name
                    x = self.pick((f"{x}.capitalize()", f"{x}.title()", x))
                self.feed(other if alternative else x, "str")
            else:
                self.feed(f"{x} * 2" if alternative else x, var.type)
        elif self.acc_kind == "work":
            if self.t == "set" and var.type == "int":  # (the copy holds the set's own items already)
                x = self.pick((f"{x} * 2", f"{x} + 1", f"-{x}", f"{x} // 2", f"{x} % 10"))
            self.feed(x, var.type, var.kind)
        elif alternative and var.type in ("int", "float"):
            ways = [f"-{x}", f"-{x}", f"{x} * 2", f"abs({x})" if _signed(var) else f"-{x}",
                    f"{x} ** 2" if var.type == "int" else f"round({x})"]
            if var.type == "float":
                ways.append(f"math.floor({x})")
            way = g.choice(ways)
            self.feed(way, "int" if way.startswith("math.") else var.type)
        else:
            self.feed(x, var.type, var.kind)

    def pair_feed(self, a: Var, b: Var) -> None:
        """Two items of one turn (a key and its count, the two ends) fed together: a pair
        in a list, a labelled part of a text, or one sum of their sizes."""
        acc, x, y = self.acc, a.name, b.name
        if self.acc_kind == "list":
            self.line(f"{acc}.append(({x}, {y}))")
        elif self.acc_kind == "parts":
            sep = self.g.choice(("=", ":", "-", " "))
            self.feed(f"f'{{{x}}}{sep}{{{y}}}'", "str")
        else:
            def size(v: Var) -> str:
                return v.name if v.type in ("int", "float") else _measure(v.name, v.kind)
            op = "*" if a.type == b.type == "int" and self.g.rng.random() < 0.4 else "+"
            self.line(f"{acc} += {size(a)} {op} {size(b)}")

    def target_feed(self, nest: int) -> None:
        if self.helper is not None:
            element = self.newest_element()
            whole = self.receiver() in (self.param.name, f"max({self.param.name})")
            if element is not None and whole and not self.stmt_form:
                # in a loop, a call on the whole input gives the same value every turn: the
                # turn feeds its element and the helper is called once, after the walk
                self.feed_element(element)
                self.helper_after = True
                return
            self.call_helper()
            return
        piece = self.target_piece(nest)
        looped = [v for v in self.scope if v is not self.param and v.kind != "work"]
        element = self.newest_element()
        if looped and element is not None and self.target_after is None and not any(
                re.search(rf"\b{re.escape(v.name)}\b", text) for v in looped for text in (piece.expr, *piece.pre)):
            # the use reads nothing the loop changes (`a == b == c` of three parameters, a
            # literal `&=`): a turn would add the same value each time, so the turn feeds its
            # element and the use is written once, after the walk (session 31)
            self.feed_element(element)
            self.target_after = piece
            return
        self.write_piece(piece)

    def write_piece(self, piece: Piece) -> None:
        for pre in piece.pre:
            self.line(pre)
        if piece.stmt:
            self.line(piece.expr)
        else:
            self.feed(piece.expr, piece.rtype)

    def call_helper(self) -> None:
        """The call of the C6 helper: a literal argument (no local of its type is around) is
        sometimes passed by name; a helper reporting a size feeds a number."""
        name, types = self.helper  # type: ignore[misc]
        names, rtype = self.helper_sig or ([], self.target_type)
        args = [self.receiver()]
        for k, t in enumerate(types[1:], 1):
            known = [v.name for v in reversed(self.scope) if v.type == t and v.name not in args]
            if known:
                args.append(known[0])
            else:  # a literal: sometimes named, as a reader would want it
                named = names and self.g.rng.random() < 0.5
                args.append(f"{names[k]}={self.g.lit(t)}" if named else self.g.lit(t))
        call = f"{name}({', '.join(args)})"
        if self.stmt_form:
            self.line(f"{self.acc} = {call}")
        elif self.acc_kind == "list" and not self.sizes and rtype in ("list", "list_str", "pairs", "tuple") \
                and self.g.rng.random() < 0.5:
            self.line(f"{self.acc}.extend({call})")  # the helper's findings join the result one by one
        else:
            self.feed(call, rtype)

    def finish(self, with_call: bool = False) -> str:
        """The returned value; `with_call` when the body made no other call yet."""
        acc = self.acc or self.param.name
        if self.acc_kind == "parts" and self.concat:
            return f"{acc}.strip()" if with_call else acc
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
    def open_test(self, text: str, after: str | None, memo: dict[tuple[str, str | None], bool]) -> bool:
        """Whether the facts here (and `after` having failed, for an elif) leave `text` open."""
        key = (text, after)
        if key not in memo:
            memo[key] = decided(text, self.facts + ([(after, False)] if after else [])) is None
        return memo[key]

    def element_tests(self, var: Var, chained: bool, with_else: bool) -> tuple[list[tuple[str, Any]], bool, list[int]]:
        """Tests on the current element `var` for an if (if-elif) and whether an else joins:
        every arm taken by some values of the anchor input the tests around let through,
        else by a few values of the other live inputs, where tests can; the first such in
        the drawn order. (tests with their functions, else, values per explicit arm)."""
        g = self.g
        a = self.anchor()
        near = [v for v in var.sample if self.holds(var, v)]
        far = [v for v in var.wide if self.holds(var, v)][:60]
        opts: list[tuple[str, Any, list, list]] = []
        if self.target_type == "bool" and self.helper is None and g.rng.random() < 0.5:
            text = self.piece_test(self.guards)
            if text is not None and re.search(rf"\b{re.escape(var.name)}\b", text):
                env = self.env(a)
                tn = _truths(text, [{**env, var.name: v} for v in near])
                tf = _truths(text, [{**env, var.name: v} for v in far])
                if tn is not None and tf is not None:
                    opts.append((text, None, tn, tf))
        first: list[tuple[str, Any, list, list]] = []
        if var.seen is not None and not any(name == var.name for name, _, _ in self.efacts):
            seen, tn, tf = var.seen  # the loop set up a set of the items before: test on it
            first.append((f"{var.name} in {seen}", None, tn, tf))
            var.seen = None
        kind = var.kind if var.kind in ("char", "numeral") else "word" if var.type == "str" else var.type
        options = list(_CONDITIONS.get(kind, _CONDITIONS["int"]))
        g.rng.shuffle(options)
        for template, test in options:
            limit = self.threshold() if "{limit}" in template else ""
            text = template.format(x=var.name, limit=limit)
            if text not in self.guards and self.fits(text):
                k = self.limit_at(a)
                opts.append((text, test, [_safe(test, v, k) for v in near], [_safe(test, v, k) for v in far]))

        def split(combo: list, which: int) -> list[int] | None:
            counts = [0] * (len(combo) + 1)
            for j in range(len(combo[0][which])):
                for b, o in enumerate(combo):
                    t = o[which][j]
                    if t is None:
                        return None
                    if t:
                        counts[b] += 1
                        break
                else:
                    counts[-1] += 1
            return counts

        def tier(combo: list, other: bool) -> tuple[int, list[int]]:
            for level, which, least in ((0, 2, 1), (1, 3, 2)):
                counts = split(combo, which)
                if counts is None:
                    return 3, []
                arms = counts if other or len(combo) == 1 else counts[:-1]
                if all(n >= least for n in arms):
                    return level, counts
            return 2, counts or []

        ok: dict[tuple[str, str | None], bool] = {}

        def usable(text: str, after: str | None) -> bool:
            return self.open_test(text, after, ok)

        for other in ((True, False) if with_else else (False,)):
            best: tuple[int, list, list[int]] | None = None
            for o1 in first or opts:
                for o2 in ([None] if not chained else opts):
                    if o2 is not None and o2[0] == o1[0]:
                        continue
                    combo = [o1] + ([o2] if o2 is not None else [])
                    level, counts = tier(combo, other)
                    if best is not None and level >= best[0]:
                        continue
                    if not usable(o1[0], None) or (o2 is not None and not usable(o2[0], o1[0])):
                        continue
                    best = (level, combo, counts)
                    if level == 0:
                        break
                if best is not None and best[0] == 0:
                    break
            if best is not None and (best[0] == 0 or not other):
                return [(o[0], o[1]) for o in best[1]], other, best[2]
        text = f"{var.name} == {g.int_(10, 30)}" if var.type == "int" else f"not {var.name}"
        return [(text, None)] * (1 + int(chained)), False, []  # decided: the draw fails the static rules

    def holds(self, var: Var, v: Any) -> bool:
        """Whether an element value `v` of `var` meets the element tests around."""
        k = self.limit_at(self.anchor())
        return all(_safe(t, v, k) == truth for name, t, truth in self.efacts if name == var.name)

    def piece_test(self, taken: list[str]) -> str | None:
        """The target itself as a test (a bool target), when it needs no statement; a
        parameter it drew is dropped again when it is not used."""
        g = self.g
        params, pool = list(g.params), {t: list(v) for t, v in g.pool.items()}
        piece = self.target_piece(1)
        if not piece.pre and not piece.stmt and piece.expr not in taken:
            return piece.expr
        g.params[:], g.pool = params, pool
        return None

    def whole_tests(self) -> list[tuple[str, list]]:
        """Tests on the whole input, each with its truth in every sample input (None where
        it raises), thresholds drawn from the sizes of the inputs still live."""
        g, x, t = self.g, self.param.name, self.param.type
        group = ("num" if t in ("int", "float") else "str" if t == "str" else
                 t if t in ("set", "dict") else "seq")
        options = [o for o in _WHOLE[group] if t != "flist" or "{limit} in" not in o[0]]
        g.rng.shuffle(options)
        vals = self.values_of(x)
        live = [vals[i] for i in self.live]
        if group == "num":  # a bound among the live values
            ns = sorted({int(v) for v in live}) or [3]
        else:
            sizes = {len(v) for v in live if hasattr(v, "__len__")}
            ns = sorted({m for s in sizes for m in (s - 1, s, s + 1) if m >= 1}) or [3]
        pools = {"n": ns, "v": _items(live, t), "s": _sums(live, t)}
        out = []
        for template, test in options:
            if template in self.templates_used:
                continue
            limit = self.threshold() if "{limit}" in template else ""
            slot = next((k for k in pools if "{" + k + "}" in template), None)
            pool = pools[slot] if slot else [0]
            if not pool:
                continue
            for n in (g.rng.sample(pool, min(4, len(pool))) if slot else [0]):
                text = template.format(x=x, limit=limit, **{slot or "n": repr(n) if slot == "v" else n})
                self.template_of[text] = template
                out.append((text, [_safe(test, vals[i], self.limit_at(i), n) for i in range(SAMPLES)]))
        return out

    def plain(self, text: str) -> int:
        """1 for a question on the input's size alone (`len(xs) > 6`): it splits most samples,
        so it would ask it in most programs; another question that splits as well wins."""
        return int(self.template_of.get(text, text) in _PLAIN_WHOLE)

    def choose_whole(self, chained: bool, with_else: bool, need: int, first: tuple[str, list] | None,
                     tight: bool = False) -> tuple[list[str], int, list[list[int]]] | None:
        """Tests for an if (or if-elif) on the whole input, scored on how the sample inputs
        split: the deep arm must get `need` of them and every other arm MIN_ARM, better
        more; the anchor's arm had better be the deep one (the teacher's input then runs
        the deepest block); and when `tight` (the arms need more than one input in all),
        few had better fall through (an input reaching only an if's missing else is as new
        to a coverage-first choice of inputs as one reaching a needed arm). The first best
        split in the drawn order wins. (tests, deep arm, live inputs per explicit arm)."""
        live = sum(1 << i for i in self.live)
        anchor = live & -live
        cands = []
        for text, tr in ([first] if first else []) + self.whole_tests():
            if not any(tr[i] is None for i in self.live) and self.fits(text):
                cands.append((text, sum(1 << i for i in self.live if tr[i]), self.template_of.get(text, text)))
        ok: dict[tuple[str, str | None], bool] = {}

        def usable(text: str, after: str | None) -> bool:
            return text not in self.guards and self.open_test(text, after, ok)

        best: tuple[int, list[str], int, list[int]] | None = None
        wanted, least = MIN_ARM
        for text1, m1, template1 in cands:
            yes1, no1 = m1, live & ~m1
            if chained and not no1:
                continue
            for text2, m2, template2 in ([(None, 0, None)] if not chained else cands):
                if template2 == template1:  # the same question twice, with another bound
                    continue
                arms = [yes1] if text2 is None else [yes1, no1 & m2]
                rest = no1 if text2 is None else no1 & ~m2
                if not with_else and text2 is None and not rest and not tight:
                    continue  # a test every sample input meets: a guard only when tight
                explicit = arms + ([rest] if with_else else [])
                sizes = [m.bit_count() for m in explicit]
                deep = next(b for b, m in enumerate(explicit + [rest]) if m & anchor)
                home = deep < len(explicit) and sizes[deep] >= need
                if not home:
                    deep = max(range(len(explicit)), key=sizes.__getitem__)
                    if sizes[deep] < need:
                        continue
                others = [n for b, n in enumerate(sizes) if b != deep]
                if any(n < least for n in others):
                    continue
                cost = (0 if home else 8) + 2 * sum(max(0, wanted - n) for n in others) \
                    + (3 * rest.bit_count() if tight and not with_else else 0) \
                    + self.plain(text1) + (self.plain(text2) if text2 else 0)
                if best is not None and cost >= best[0]:
                    continue
                if not usable(text1, None) or (text2 is not None and not usable(text2, text1)):
                    continue
                best = (cost, [text1] + ([text2] if text2 else []), deep, explicit)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        if best is None:
            return None
        _, tests, deep, explicit = best
        return tests, deep, [[i for i in self.live if m >> i & 1] for m in explicit]

    def iterate(self, plain: bool = False) -> tuple[str, list[Var], list[str]]:
        """(for-header iterable, element vars, lines that open the body)."""
        g = self.g
        inner = self.newest_element()
        if inner is not None and inner.kind == "word":
            ch = g.fresh("elem:char")
            return inner.name, [Var(ch, "str", "char", _flat(inner.sample), _flat(inner.wide))], []
        if inner is not None and inner.type == "int" and inner.kind == "value" \
                and self.param.name in self.walked:
            d = g.fresh("elem:numeral")  # its digits (a sign is no digit: `int('-')` raises)
            signed = _signed(inner)
            digits = (lambda v: str(abs(v))) if signed else str
            return (f"str(abs({inner.name}))" if signed else f"str({inner.name})",
                    [Var(d, "str", "numeral", _flat(map(digits, inner.sample)), _flat(map(digits, inner.wide)))], [])
        src = self.param
        value = self.value(src)
        window = self.window(src)
        if window is not None and src.type != "str":  # the data again: a few items near here
            elem = ELEMENT[src.type]
            x = g.fresh(_item_names(src.type))
            return window, [Var(x, elem, "value", list(value or [])[:3],
                                self.spread(lambda v: list(v)[:3]))], []
        again = src.name in self.walked
        self.walked.add(src.name)
        n, roll = src.name, g.rng.random()
        if plain:  # the items as they come (the words, or the letters, of a text)
            roll = 0.9 if src.type != "str" else (roll if roll < 0.45 else 0.9)
        if src.type == "str":
            if src.name not in self.walked_words and roll < 0.45:
                self.walked_words.add(src.name)
                w = g.fresh("elem:word")
                if g.rng.random() < 0.3:  # the shortest words first
                    by_len = lambda v: sorted(str.split(v), key=len)  # noqa: E731
                    return f"sorted({n}.split(), key=len)", [Var(w, "str", "word", _safe_list(by_len, value),
                                                                 self.spread(by_len))], []
                if g.rng.random() < 0.35 and self.fits(".lower()"):  # the words, case set aside
                    lowered = lambda v: str.split(str.lower(v))  # noqa: E731
                    return f"{n}.lower().split()", [Var(w, "str", "word", _safe_list(lowered, value),
                                                        self.spread(lowered))], []
                return f"{n}.split()", [Var(w, "str", "word", _safe_list(str.split, value),
                                            self.spread(str.split))], []
            ch = g.fresh("elem:char")
            chars = list(value or "")
            if roll < 0.6:  # the position of each character too
                i = g.fresh("elem:index")
                return f"enumerate({n})", [Var(i, "int", "pos", list(range(len(chars))),
                                               self.spread(lambda v: range(len(v)))),
                                           Var(ch, "str", "char", chars, self.spread(list))], []
            if roll < 0.7:
                return f"reversed({n})", [Var(ch, "str", "char", chars[::-1], self.spread(list))], []
            if roll < 0.8:  # each letter once, in order
                return f"sorted(set({n}))", [Var(ch, "str", "char", sorted(set(chars)),
                                                 self.spread(lambda v: sorted(set(v))))], []
            if g.rng.random() < 0.4 and self.fits(".lower()"):  # each letter, case set aside
                return f"{n}.lower()", [Var(ch, "str", "char", list("".join(chars).lower()),
                                            self.spread(lambda v: list(str.lower(v))))], []
            return n, [Var(ch, "str", "char", chars, self.spread(list))], []
        if src.type in ("list", "tuple", "flist"):
            elem = ELEMENT[src.type]
            items = list(value or [])
            if roll < 0.1:
                i, x = g.fresh("elem:index"), g.fresh(f"elem:{elem}")
                return (f"range(len({n}))",
                        [Var(i, "int", "index", list(range(len(items)))),
                         Var(x, elem, "value", items, self.spread(list))],
                        [f"{x} = {n}[{i}]"])
            if roll < 0.32:  # neighbours: the step from each item to the next
                step = self.named(("gap", "step", "delta", "change", "diff", "rise"))
                steps = self.spread(lambda v: [b - a for a, b in zip(v, v[1:])])
                here = [b - a for a, b in zip(items, items[1:])]
                if g.rng.random() < 0.7:
                    a, b = self.named_pair()
                    pairs = f"zip({n}, {n}[1:])"
                    if g.rng.random() < 0.5:  # the standard library's name for it
                        pairs = f"itertools.pairwise({n})"
                    return (pairs,
                            [Var(a, elem, "bound"), Var(b, elem, "bound"), Var(step, elem, "value", here, steps)],
                            [f"{step} = {b} - {a}"])
                i = g.fresh("elem:index")
                return (f"range(1, len({n}))", [Var(i, "int", "index"), Var(step, elem, "value", here, steps)],
                        [f"{step} = {n}[{i}] - {n}[{i} - 1]"])
            x = g.fresh(f"elem:{elem}")
            if roll < 0.44:  # the position of each item too
                i = g.fresh("elem:index")
                start = g.choice((0, 0, 1))
                counted = f"enumerate({n}, start=1)" if g.rng.random() < 0.5 else f"enumerate({n}, 1)"
                return (counted if start else f"enumerate({n})",
                        [Var(i, "int", "pos", [j + start for j in range(len(items))],
                             self.spread(lambda v: range(start, len(v) + start))),
                         Var(x, elem, "value", items, self.spread(list))], [])
            if roll < 0.6:  # another order, or all but the first
                walk, order = g.choice(((f"reversed({n})", lambda v: list(v)[::-1]),
                                        (f"sorted({n})", sorted),
                                        (f"sorted({n}, reverse=True)", lambda v: sorted(v, reverse=True)),
                                        (f"{n}[1:]", lambda v: list(v)[1:]),
                                        (f"{n}[::2]", lambda v: list(v)[::2]),  # every other item
                                        (f"{n}[::-1]", lambda v: list(v)[::-1]),
                                        (f"sorted(set({n}))", lambda v: sorted(set(v))),  # each value once
                                        (f"sorted({n}, key=abs)", lambda v: sorted(v, key=abs)),
                                        (f"heapq.nsmallest(3, {n})", lambda v: sorted(v)[:3]),  # the few smallest
                                        (f"heapq.nlargest(3, {n})", lambda v: sorted(v, reverse=True)[:3])))
                return walk, [Var(x, elem, "value", _safe_list(order, items), self.spread(order))], []
            return n, [Var(x, elem, "value", items, self.spread(list))], []
        if src.type == "set":
            x = g.fresh("elem:int")
            desc = roll < 0.3
            order = (lambda v: sorted(v, reverse=True)) if desc else sorted
            return f"sorted({n}, reverse=True)" if desc else f"sorted({n})", \
                [Var(x, "int", "value", _safe_list(order, value or []), self.spread(order))], []
        if src.type == "dict":
            k, v = g.fresh("elem:word"), g.fresh("elem:int")
            d = dict(value or {})
            elems = [Var(k, "str", "word", list(d), self.spread(list)),
                     Var(v, "int", "value", list(d.values()), self.spread(lambda e: e.values()))]
            if again:
                return f"list({n}.items())[:3]", elems, []
            if roll < 0.2:  # the keys, each value looked up
                return n, elems, [f"{v} = {n}[{k}]"]
            if roll < 0.32:  # the keys from the smallest value up
                ranked = sorted(d, key=d.get)
                elems[0].sample, elems[1].sample = ranked, [d[key] for key in ranked]
                return f"sorted({n}, key={n}.get)", elems, [f"{v} = {n}[{k}]"]
            if roll < 0.45:
                elems[0].sample, elems[1].sample = sorted(d), [d[key] for key in sorted(d)]
                return f"sorted({n}.items())", elems, []
            if roll < 0.55:  # the entries by value, largest first
                ranked = sorted(d.items(), key=lambda kv: kv[1], reverse=True)
                elems[0].sample, elems[1].sample = [kv[0] for kv in ranked], [kv[1] for kv in ranked]
                return f"sorted({n}.items(), key=lambda kv: kv[1], reverse=True)", elems, []
            return f"{n}.items()", elems, []
        n = src.name  # a number: walk up to it
        i = g.fresh("elem:index")
        cap = 3 if n in self.walked else 10
        top = int(value) % cap + 1 if src.type == "float" and value is not None else min(value or 0, cap)
        self.walked.add(n)
        span = (lambda v: range(int(v) % cap + 1)) if src.type == "float" else (lambda v: range(min(v, cap)))
        if src.type == "int" and roll < 0.35:  # counting from one
            return f"range(1, min({n}, {cap}) + 1)", \
                [Var(i, "int", "value", list(range(1, int(top) + 1)), self.spread(lambda v: range(1, min(v, cap) + 1)))], []
        return f"range(int({n}) % {cap} + 1)" if src.type == "float" else f"range(min({n}, {cap}))", \
            [Var(i, "int", "value", list(range(int(top))), self.spread(span))], []

    def named(self, options: tuple[str, ...]) -> str:
        """A name from `options` not taken yet, else a fresh local."""
        free = [n for n in options if n not in self.g.used]
        name = self.g.choice(free) if free else self.g.fresh()
        self.g.used.add(name)
        return name

    def named_pair(self, options: tuple[tuple[str, str], ...] = (("prev", "cur"), ("a", "b"), ("left", "right"),
                                                                 ("before", "after"))) -> tuple[str, str]:
        """Names for an item and the one after it (or another pair from `options`)."""
        pairs = [(a, b) for a, b in options if a not in self.g.used and b not in self.g.used]
        if not pairs:
            return self.g.fresh(), self.g.fresh()
        a, b = self.g.choice(pairs)
        self.g.used |= {a, b}
        return a, b

    def window(self, src: Var) -> str | None:
        """A nested walk over data an outer loop walks already: the items from the outer
        index on (a pairwise look), else the first few, so nests stay short."""
        if src.name not in self.walked or src.type not in ("list", "tuple", "flist", "str"):
            return None
        index = next((v.name for v in reversed(self.scope) if v.kind in ("index", "pos")), None)
        if index is not None:
            return f"{src.name}[{index} + 1:{index} + 3]"
        return f"{src.name}[:3]"

    def block(self, kinds: tuple[str, ...]) -> None:
        g, kind, rest = self.g, kinds[0], kinds[1:]
        saved_scope, saved_pool = list(self.scope), {t: list(v) for t, v in g.pool.items()}
        if kind == "for":
            it, elems, opening = self.iterate()
            x = elems[-1]
            seen = None
            order = _orders(self.param.name).get(it)
            if rest and rest[0] in ("if", "if-elif") and order is not None and x.kind in ("value", "char") \
                    and self.param.type in ("list", "tuple", "flist", "str") and g.rng.random() < 0.4:
                near, far = _repeats(x.sample), self.spread(lambda v: _repeats(order(v)))[:60]
                if far.count(True) >= 2 and False in far:  # items met before, and new ones
                    seen = self.named(("seen", "met", "earlier", "before"))
                    x.seen = (seen, near, far)
                    self.line(f"{seen} = set()")
            self.line(f"for {_target(elems, opening)} in {it}:")
            self.indent += 1
            for text in opening:
                self.line(text)
            self.scope += elems
            self.level_body(rest, elems)
            if seen is not None:
                self.line(f"{seen}.add({x.name})")
            x.seen = None
            self.indent -= 1
        elif kind == "while":
            self.while_block(rest)
        else:
            self.if_block(rest, chained=kind == "if-elif")
        self.scope, g.pool = saved_scope, saved_pool

    def while_block(self, rest: tuple[str, ...]) -> None:
        g = self.g
        inner = self.newest_element()
        roll = g.rng.random()
        if inner is not None and inner.type == "int" and inner.kind == "value":
            n, d = self.named(("rest", "left", "remaining")), self.named(("digit", "last_digit", "d"))
            self.line(f"{n} = abs({inner.name})" if _signed(inner) else f"{n} = {inner.name}")
            elems = [Var(d, "int", "digit", _digits(inner.sample), _digits(inner.wide))]
            self.scope += elems
            if roll < 0.4:  # digit and rest in one step
                self.line(f"while {n}:")
                self.indent += 1
                self.line(f"{n}, {d} = divmod({n}, 10)")
                self.level_body(rest, elems)
            else:
                self.line(f"while {n} > 0:")
                self.indent += 1
                self.line(f"{d} = {n} % 10")
                self.level_body(rest, elems)
                self.line(f"{n} //= 10")
            self.indent -= 1
            return
        src = inner if inner is not None and inner.kind == "word" else self.param
        value = self.value(src) if src is self.param else None
        if src.type in ("set", "dict"):
            x = g.fresh("elem:int" if src.type == "set" else "elem:word")
            listed = g.rng.random() < WORK_LISTS  # emptied by pops, else walked in order by index
            work = self.named(("pending", "todo", "queue", "stack") if listed else ("ordered", "items", "ranked"))
            self.walked.add(src.name)
            self.line(f"{work} = {'list' if src.type == 'dict' and roll < 0.5 else 'sorted'}({src.name})")
            if listed:
                self.line(f"while {work}:")
                self.indent += 1
                self.line(f"{x} = {work}.pop()")
            else:
                i = g.fresh("elem:index")
                self.line(f"{i} = 0")
                self.line(f"while {i} < len({work}):")
                self.indent += 1
                self.line(f"{x} = {work}[{i}]")
            elems = [Var(x, ELEMENT.get(src.type, "str"), "word" if src.type == "dict" else "value",
                         list(value or []), self.spread(list) if src is self.param else [])]
            self.scope += elems
            self.level_body(rest, elems)
            if not listed:
                self.line(f"{i} += 1")
            self.indent -= 1
            return
        if src.type in ("int", "float"):
            i = g.fresh("elem:index")
            cap = 3 if src.name in self.walked else 10
            self.walked.add(src.name)
            bound = f"min({src.name}, {cap})" if src.type == "int" else f"int({src.name}) % {cap}"
            top = int(value) % cap if src.type == "float" and value is not None else min(int(value or 0), cap)
            span = (lambda v: range(int(v) % cap)) if src.type == "float" else (lambda v: range(min(v, cap)))
            elems = [Var(i, "int", "value", list(range(max(0, top))), self.spread(span))]
            self.scope += elems
            if roll < 0.4:  # a countdown
                self.line(f"{i} = {bound}")
                self.line(f"while {i} > 0:")
                elems[0].sample = [v + 1 for v in elems[0].sample]
                elems[0].wide = [v + 1 for v in elems[0].wide]
                step = f"{i} -= 1"
            elif roll < 0.6:  # halving down to nothing
                self.line(f"{i} = {bound}")
                self.line(f"while {i} > 0:")
                cut = (lambda v: int(v) % cap) if src.type == "float" else (lambda v: min(v, cap))
                elems[0].sample = _halves(cut(value) if value is not None else 0)
                elems[0].wide = self.spread(lambda v: _halves(cut(v)))
                step = f"{i} //= 2"
            else:
                self.line(f"{i} = 0")
                self.line(f"while {i} < {bound}:")
                step = f"{i} += 1"
            self.indent += 1
            self.level_body(rest, elems)
            self.line(step)
            self.indent -= 1
            return
        window = self.window(src) if src is self.param else None
        walk = src.name
        if window is not None:  # the data again: a few items near here, not all of it
            walk = self.named(("window", "nearby", "chunk", "recent"))
            self.line(f"{walk} = {window}")
            value = (value or [])[:3]
        elem = ELEMENT.get(src.type, "int")
        x = g.fresh(_item_names(src.type))
        self.walked.add(src.name)
        kind = "char" if src.type == "str" else "value"
        items = _flat(src.sample) if src is not self.param else list(value or [])
        wide = _flat(src.wide) if src is not self.param else \
            self.spread(lambda v: list(v)[:3] if window is not None else v)
        if roll < 0.35 * WORK_LISTS and window is None \
                or window is not None and src.type in ("list", "flist") and roll < 0.5 * WORK_LISTS:
            # a work list, taken from the end or the front (a slice is a fresh list already)
            front = g.rng.random() < 0.5
            todo = walk
            queue = front and window is None and self.fits(".popleft()")  # taken from the front: a deque
            if window is None:
                todo = self.named(("queue", "pending", "todo", "waiting") if queue else
                                  ("todo", "stack", "queue", "left", "remaining", "pending"))
                self.line(f"{todo} = collections.deque({walk})" if queue else f"{todo} = list({walk})")
            self.line(f"while {todo}:")
            self.indent += 1
            self.line(f"{x} = {todo}.popleft()" if queue else f"{x} = {todo}.pop(0)" if front else f"{x} = {todo}.pop()")
            elems = [Var(x, elem, kind, items if front else items[::-1], wide)]
            self.scope += elems
            self.level_body(rest, elems)
            self.indent -= 1
            return
        if window is None and src is self.param and roll < 0.55 and src.type in ("list", "tuple", "flist", "str"):
            self.two_ends(walk, elem, kind, items, rest, _item_names(src.type))
            return
        i = g.fresh("elem:index")
        back = roll < 0.7
        if back:  # from the end
            self.line(f"{i} = len({walk}) - 1")
            self.line(f"while {i} >= 0:")
        else:
            self.line(f"{i} = 0")
            self.line(f"while {i} < len({walk}):")
        self.indent += 1
        self.line(f"{x} = {walk}[{i}]")
        elems = [Var(i, "int", "index"), Var(x, elem, kind, items[::-1] if back else items, wide)]
        self.scope += elems
        self.level_body(rest, elems)
        self.line(f"{i} -= 1" if back else f"{i} += 1")
        self.indent -= 1

    def two_ends(self, walk: str, elem: str, kind: str, items: list, rest: tuple[str, ...], names: str) -> None:
        """Two pointers closing in from both ends: an item from the front and its mirror from
        the back each turn (the middle item of an odd length is left out, as `lo < hi` does);
        `names`: the pool the items' names come from."""
        g = self.g
        lo, hi = self.named_pair((("lo", "hi"), ("left", "right"), ("i", "j"), ("start", "end")))
        a, b = g.fresh(names), g.fresh(names)

        def halves(v: Any) -> tuple[list, list]:
            v = list(v)
            return v[:len(v) // 2], v[::-1][:len(v) // 2]

        wide = [halves(self.values_of(self.param.name)[i]) for i in self.live]
        self.line(f"{lo}, {hi} = 0, len({walk}) - 1")
        self.line(f"while {lo} < {hi}:")
        self.indent += 1
        self.line(f"{a}, {b} = {walk}[{lo}], {walk}[{hi}]")
        front, back = halves(items)
        elems = [Var(a, elem, kind, front, [y for f, _ in wide for y in f]),
                 Var(b, elem, kind, back, [y for _, k in wide for y in k])]
        self.scope += elems
        self.level_body(rest, elems)
        self.line(f"{lo} += 1")
        self.line(f"{hi} -= 1")
        self.indent -= 1

    def if_block(self, rest: tuple[str, ...], chained: bool) -> None:
        var = self.newest_element()
        if var is None:
            self.whole_if(rest, chained)
        else:
            self.element_if(var, rest, chained)

    def element_if(self, var: Var, rest: tuple[str, ...], chained: bool) -> None:
        """Tests on the current element: every input has many, so each arm runs for some
        element. The deeper levels go in the arm the fewest sample values take (its body
        runs least, and each traced step snapshots the locals)."""
        g = self.g
        outer, eouter = self.facts, self.efacts
        arms, with_else, counts = self.element_tests(var, chained, g.rng.random() < 0.2)
        tests = [t for _, t in arms]
        deep = g.int_(0, len(arms) - 1)
        if counts:  # the arm fewest values take that leaves the tests inside a split
            least = 2 if rest and rest[0] in ("if", "if-elif") else 1
            fit = [b for b in range(len(arms)) if counts[b] >= least]
            if fit:
                deep = min(fit, key=lambda b: (counts[b], b != deep))

        def known(pairs: list[tuple[Any, bool]]) -> list[tuple[str, Any, bool]]:
            return eouter + [(var.name, t, truth) for t, truth in pairs if t is not None]

        for b, (cond, test) in enumerate(arms):
            self.line(f"{'if' if b == 0 else 'elif'} {self.commit(cond)}:")
            self.indent += 1
            self.guards.append(cond)
            self.facts = outer + [(c, False) for c, _ in arms[:b]] + [(cond, True)]
            self.efacts = known([(t, False) for _, t in arms[:b]] + [(test, True)])
            if b == deep:
                self.level_body(rest, [])
            else:
                self.simple(var, alternative=b % 2 == 1)
            self.guards.pop()
            self.indent -= 1
        if with_else:
            self.facts = outer + [(c, False) for c, _ in arms]
            self.efacts = known([(t, False) for t in tests])
            self.line("else:")
            self.indent += 1
            self.simple(var, alternative=True)
            self.indent -= 1
        self.facts, self.efacts = outer, eouter

    def whole_if(self, rest: tuple[str, ...], chained: bool) -> None:
        """Tests on the whole input, chosen on the sample: each arm runs for some inputs
        and the deeper levels go in the arm the anchor input takes where they can. An else
        joins only while the arms off the deepest path need few inputs of their own (the
        pipeline keeps 3)."""
        g = self.g
        with_else = g.rng.random() < 0.2 and \
            self.outside + int(chained) + 1 + _paths(rest) <= MAX_PATHS
        first = None
        if self.target_type == "bool" and self.helper is None and g.rng.random() < 0.5:
            text = self.piece_test(self.guards)
            truths = _truths(text, [self.env(i) for i in range(SAMPLES)]) if text else None
            first = (text, truths) if truths is not None else None
        paths = self.outside + int(chained) + int(with_else) + _paths(rest)
        tight = paths > 1
        walks = paths > 2  # the arms' inputs fill every kept input but the teacher's
        choice = self.choose_whole(chained, with_else, _need(rest), first, tight)
        if choice is None:  # no split of the sample: any tests the tests around leave open
            tests: list[str] = []
            for text, _ in self.whole_tests():
                facts = self.facts + [(t, False) for t in tests]
                if text not in self.guards + tests and decided(text, facts) is None \
                        and self.template_of[text] not in {self.template_of.get(t) for t in tests}:
                    tests.append(text)
                    if len(tests) == 1 + int(chained):
                        break
            x = self.param.name
            while len(tests) < 1 + int(chained):  # decided: the draw fails the static rules
                tests.append(f"{x} > {g.int_(10, 30)}" if self.param.type in ("int", "float")
                             else f"len({x}) > {g.int_(6, 9)}")
            arms = [list(self.live)] * (len(tests) + int(with_else))
            choice = tests, 0, arms
        tests, deep, arms = choice
        self.templates_used.update(self.template_of.get(t, t) for t in tests)
        outer, outer_live, outer_outside = self.facts, self.live, self.outside
        self.outside += len(arms) - 1
        called = False  # an arm off the deepest path called the C6 helper (once is enough)
        for b, cond in enumerate(tests + (["else"] if with_else else [])):
            self.line("else:" if b == len(tests) else f"{'if' if b == 0 else 'elif'} {self.commit(cond)}:")
            self.indent += 1
            self.guards += tests[b:b + 1]
            self.facts = outer + [(c, False) for c in tests[:b]] + [(c, True) for c in tests[b:b + 1]]
            if b == deep:
                self.live = arms[b]
                self.level_body(rest, [])
                self.live = outer_live
            elif walks and rest:
                self.live = arms[b]
                self.walk_arm()
                self.live = outer_live
            elif self.helper is not None and (called or not rest):
                self.data_feed(b)  # not the helper's same call again: the arms would read as one
            else:
                self.simple(None, alternative=b % 2 == 1)
                called = self.helper is not None
            del self.guards[len(self.guards) - len(tests[b:b + 1]):]
            self.indent -= 1
        self.facts, self.outside = outer, outer_outside

    def walk_arm(self) -> None:
        """An arm off the deepest path that walks the data: an input taking it reaches two
        blocks no other input does, so a coverage-first choice of inputs prefers it to one
        that only falls through an if. The walk is the plainest one (the items, the words or
        letters of a text, a mapping's items): the arm is a side case, not a second task."""
        g = self.g
        saved = (list(self.scope), {t: list(v) for t, v in g.pool.items()}, self.walked,
                 self.walked_words)
        self.walked, self.walked_words = set(), set()  # a walk of its own: all the data
        it, elems, opening = self.iterate(plain=True)
        self.line(f"for {_target(elems, opening)} in {it}:")
        self.indent += 1
        for text in opening:
            self.line(text)
        for var in elems:
            if var.kind not in ("index", "bound"):
                self.feed_element(var, alternative=g.rng.random() < 0.4, reads=True)  # its own take on the items
        self.indent -= 1
        self.scope, g.pool, self.walked, self.walked_words = saved

    def simple(self, var: Var | None, alternative: bool) -> None:
        if var is not None:
            self.feed_element(var, alternative)
        else:
            self.target_feed(1)

    def data_feed(self, arm: int) -> None:
        """An arm's own value of the whole input (its size, its first item, the number
        itself), the `arm`-th of a few: what an arm off the deepest path adds when the
        helper's call is already another arm's."""
        x, t = self.param.name, self.param.type
        ways = {"int": [(x, "int"), (f"{x} * 2", "int")], "float": [(x, "float"), (f"round({x})", "int")],
                "str": [(f"len({x})", "int"), (f"{x}.count(' ')", "int"), (f"{x}[:2]", "str")]}.get(
                    t, [(f"len({x})", "int"), (f"len({x}) // 2", "int")])
        self.feed(*ways[arm % len(ways)])

    def level_body(self, rest: tuple[str, ...], elems: list[Var]) -> None:
        g = self.g
        mark = len(self.lines)
        if not rest:
            self.target_feed(g.choice((2, 2, 3)) if self.nested else 1)
        else:
            # a use before the next level: fewer inside a loop (each turn runs it, and a
            # traced step snapshots the locals)
            if g.rng.random() < (0.15 if self.newest_element() is None else 0.05):
                self.target_feed(1)
            self.block(rest)
        unused = [v for v in elems if v.kind not in ("index", "bound") and not self.uses(v.name, mark)]
        end = len(self.lines)
        if len(unused) == 2 and unused[0].kind == "pos" and self.acc_kind in ("number", "list") \
                and unused[1].type in ("int", "float"):
            i, x = unused[0].name, unused[1].name  # an item with its position
            if self.acc_kind == "list":
                self.line(f"{self.acc}.append(({i}, {x}))")
            else:
                self.line(f"{self.acc} += {i} * {x}")
        elif len(unused) == 2 and self.acc_kind in ("number", "list", "parts") and g.rng.random() < 0.6:
            self.pair_feed(*unused)  # both items of a turn in one entry
        else:
            for var in unused:
                self.feed_element(var)
        if elems and len(self.lines) > end and end > mark and g.rng.random() < 0.35:
            # the item's own share first, then the levels below
            moved = self.lines[end:]
            del self.lines[end:]
            self.lines[mark:mark] = moved


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


def _measure(expr: str, item: str) -> str:
    """A text as a number: a letter by its code (its length is always 1), a digit by its
    value, anything longer by its length."""
    return f"ord({expr})" if item == "char" else f"int({expr})" if item == "numeral" else f"len({expr})"


def _item_names(src_type: str) -> str:
    """The name pool (`Ctx.fresh` kind) for an item of data of `src_type`: a text's items
    are letters, a list of texts' items words."""
    elem = ELEMENT.get(src_type, "int")
    return "elem:char" if src_type == "str" else "elem:word" if elem == "str" else f"elem:{elem}"


def _signed(var: Var) -> bool:
    """Whether a number can be below zero on the inputs the draw knows (else an `abs` of it
    changes nothing)."""
    return var.type in ("int", "float") and any(isinstance(v, (int, float)) and v < 0 for v in var.sample + var.wide)


def _digits(values: list) -> list[int]:
    return [int(c) for v in values if isinstance(v, int) and v for c in str(abs(v))]


def _halves(n: Any) -> list[int]:
    """The values `while i > 0: ... i //= 2` gives `i` from `n` down."""
    out, n = [], int(n) if isinstance(n, (int, float)) else 0
    while n > 0:
        out.append(n)
        n //= 2
    return out


def _flat(values: Any) -> list:
    return [c for v in values if isinstance(v, str) for c in v]


def _paths(rest: tuple[str, ...]) -> int:
    """Inputs the levels `rest` need to run all their arms when they open under whole-input
    tests: one, and one more for each chain before a loop (inside a loop one input runs
    every arm of element tests)."""
    extra = 0
    for kind in rest:
        if kind in ("for", "while"):
            break
        extra += kind == "if-elif"
    return 1 + extra


def _need(rest: tuple[str, ...]) -> int:
    """Sample inputs the deep arm must carry so the levels `rest` can split them again."""
    if not rest or rest[0] in ("for", "while"):
        return 1
    return _need(rest[1:]) + (MIN_ARM[-1] if rest[0] == "if-elif" else 1)


@functools.lru_cache(maxsize=4096)
def _compiled(text: str) -> Any:
    try:
        return compile(text, "<test>", "eval")
    except SyntaxError:
        return None


def _truths(text: str, envs: list[dict[str, Any]]) -> list[bool | None] | None:
    """A test's value in each environment (None where it raises); None when it reads a name
    the environments lack."""
    code = _compiled(text)
    if code is None:
        return None
    out: list[bool | None] = []
    for env in envs:
        try:
            out.append(bool(eval(code, {}, env)))  # noqa: S307 - the generator's own expression
        except NameError:
            return None
        except Exception:  # noqa: BLE001 - a test that raises on this input
            out.append(None)
    return out


def _target(elems: list[Var], opening: list[str]) -> str:
    """A for header's target: the elements the opening lines do not bind."""
    bound = {text.split(" = ")[0] for text in opening}
    return ", ".join(e.name for e in elems if e.name not in bound)


def _items(values: list, t: str) -> list:
    """Items of the live inputs, for membership tests and bounds (dict: keys; str: letters)."""
    if t == "str":
        found = {c for v in values if isinstance(v, str) for c in v if c.isalpha()}
    elif t == "dict":  # the keys a person names (drawn inputs also hold runs of random letters)
        found = {k for v in values if isinstance(v, dict) for k in v}
        found = {k for k in found if k in KEYS} or found
    else:
        found = {e for v in values if isinstance(v, (list, tuple, set)) for e in v
                 if isinstance(e, (int, float)) and not isinstance(e, bool)}
        found = {round(e, 1) if isinstance(e, float) else e for e in found}
    return sorted(found, key=repr)


def _sums(values: list, t: str) -> list:
    """Sums of the live inputs (dict: its largest value), as bounds."""
    out = set()
    for v in values:
        try:
            total = max(v.values(), default=0) if t == "dict" else sum(v)
        except (TypeError, AttributeError):
            continue
        out.add(round(total, 1) if isinstance(total, float) else total)
    return sorted(out)


def _repeats(items: list) -> list[bool]:
    """For each item, whether an equal one came before it."""
    return [v in items[:j] for j, v in enumerate(items)]


def _orders(n: str) -> dict[str, Callable[[Any], list]]:
    """The walks over `n` whose items come in a known order: header text -> the items."""
    return {n: list, f"reversed({n})": lambda v: list(v)[::-1], f"sorted({n})": sorted,
            f"sorted({n}, reverse=True)": lambda v: sorted(v, reverse=True), f"{n}[1:]": lambda v: list(v)[1:],
            f"enumerate({n})": list, f"enumerate({n}, 1)": list, f"enumerate({n}, start=1)": list,
            f"{n}[::2]": lambda v: list(v)[::2], f"{n}[::-1]": lambda v: list(v)[::-1]}
