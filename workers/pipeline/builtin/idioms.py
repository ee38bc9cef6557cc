"""The idiom library: programs a person would write around one natural use of the target.

A program picks a use from `idiom_uses.USES` (what the method is for, nested as every level
asks), the data that use reads (scores, words, a sentence, prices), an accumulator that fits
its result (a running total, a best-so-far, counts in a dict, parts joined at the end, a
list of findings) and then lays out the level: depth 0 is a short pipeline; C3-C6 walk the
data with the blueprint's kinds (for: items, index walks, enumerate, letters, digits;
while: index walks, work lists, digit loops; if / if-elif: tests on the current element,
sometimes an early return), the use in the deepest block, and at C6 the use moved into a
helper the entry calls, or kept there with a test on the element split off as the helper
(`idiom_helpers`). Entries without a use return None and take the generic forms.

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

from workers.pipeline.builtin.context import CASE_METHODS, WORK_LISTS, cased_words, program_text, renamed, stdlib_space
from workers.pipeline.builtin.fit import statically_fit
from workers.pipeline.builtin.idiom_helpers import TESTS, splits
from workers.pipeline.builtin.idiom_uses import USES, Use
from workers.pipeline.builtin.selfcheck import runs_on
from workers.pipeline.constraints.catalog import Entry
from workers.pipeline.naturalness.static import discarded
from workers.pipeline.records import Constraint, Knobs

_WORDS = ("apple", "river", "stone", "cloud", "tiger", "maple", "orbit", "candle", "pixel",
          "amber", "delta", "north", "lemon", "piano", "ocean", "silver", "garden", "rocket")
_DATA_NAMES = {
    "ints": ("scores", "readings", "ages", "counts", "marks", "votes", "heights", "steps", "sizes"),
    "words": ("words", "names", "tags", "tokens", "labels", "cities", "items"),
    "text": ("text", "line", "sentence", "message", "phrase", "title"),
    "prices": ("prices", "amounts", "costs", "fares", "totals", "weights"),
    "record": ("record", "entry", "note", "caption", "address", "line"),
    "stock": ("stock", "inventory", "votes", "ratings", "orders", "visits"),
}
# a record: a line of mixed-case words, numbers and codes ('Order 12 shipped to Maple Road');
# read as a text everywhere but its literal (the str predicates on case and digits vary on it)
_RECORD_TOKENS = (("Order", "Maple", "Road", "Room", "Floor", "Gate", "Park", "North", "Harbor", "Oak"),
                  ("shipped", "to", "at", "on", "via", "near", "left", "from"),
                  ("12", "7", "305", "42", "9", "18", "2024"),
                  ("NY", "UK", "ID", "ETA", "ASAP"),
                  ("#12", "$40", "4B", "A7", "No.5"))
_ENTRY_NAMES = {  # an entry that walks its data and calls the helper doing the use's task
    "ints": ("summarize_readings", "score_items", "tally_scores", "scan_values", "report_counts"),
    "words": ("process_words", "scan_names", "review_labels", "group_tags", "sort_out_words"),
    "prices": ("price_report", "review_prices", "total_costs", "scan_fares", "audit_amounts"),
    "text": ("scan_text", "clean_message", "read_sentence", "summarize_text", "check_phrase"),
    "record": ("parse_record", "read_entry", "scan_note", "check_address"),
    "stock": ("review_stock", "restock_report", "scan_inventory", "count_orders"),
}
_ELEM_NAMES = {"int": ("score", "item", "amount", "num", "mark", "entry"),
               "word": ("token", "label", "term", "city", "part"),
               "char": ("letter", "symbol", "char"),
               "float": ("price", "cost", "fare", "share"),
               "index": ("idx", "slot", "at", "pos")}
_MAGNITUDE = "__magnitude__"  # a walk's `abs` until the program's data is settled (_Program.settle_sign)
_SIGNED_NAMES = ("readings", "changes", "deltas", "offsets", "balances", "scores")  # numbers below zero too
_LIMIT_NAMES = ("limit", "cutoff", "threshold", "bound", "floor", "target")
_STOCK_NAMES = (("name", "item", "product", "label"), ("count", "qty", "amount", "units"))  # a mapping's entry
_ACC_NAMES = {"number": ("total", "tally", "result", "score_sum", "acc"),
              "best": ("best", "peak", "top", "highest"),
              "list": ("found", "picked", "kept", "matches", "collected", "out"),
              "parts": ("parts", "pieces", "chunks", "fragments"),
              "counts": ("counts", "freq", "seen_count", "histogram"),
              "set": ("distinct", "uniq", "members", "pool"),
              "text": ("buffer", "joined", "line_out", "code"),
              "tally": ("tally", "counter", "hits", "by_key"),
              "groups": ("groups", "buckets", "by_key", "grouped")}
_COND = {  # kind -> family -> tests; nested or chained tests on one value take other families
    "int": {"size": ("{x} > {n}", "{x} < {n}", "{x} >= {a10}", "{x} > {n} // 2", "{x} <= {a10}", "{a3} < {x} < {a10}"),
            "parity": ("{x} % 2 == 0", "{x} % 3 == 0", "{x} % 2", "{x} % {a3} == 1", "not {x} % {a3}",
                       "{x} & 1", "bin({x}).count('1') % 2 == 0", "{x}.bit_count() == 1", "{x}.bit_count() > 2"),
            "shape": ("len(str({x})) == 2", "{x} % 10 > {a5}", "{x} in range({a3}, {a10})",
                      "abs({x} - {n}) <= {a3}", "{x} not in ({a3}, {a8})", "{x} ** 2 > {n} * {a10}",
                      "str({x}).endswith(('5', '0'))", "{x} >= {n} * 2", "{x}.bit_length() > {a3}",
                      "math.gcd({x}, {n}) > 1", "sum(map(int, str({x}))) > {a5}", "round({x}, -1) > {n}",
                      "'1' in str({x})", "math.isqrt({x}) ** 2 == {x}", "str({x}).startswith('1')",
                      "math.gcd({x}, {a10}) == 1", "max(map(int, str({x}))) > {a5}")},
    "digit": {"size": ("{x} > {a5}", "{x} < {a5}", "0 < {x} < {a5}"),
              "parity": ("{x} % 2 == 0", "{x} % 3 == 0", "{x} % 2 == 1"),
              "set": ("{x} in {{2, 3, 5, 7}}", "{x} in (0, 5)", "{x} * 2 >= 10", "9 - {x} < {x}", "{x} in (1, 4, 9)",
                      "divmod({x}, 3)[1] == 1", "math.isqrt({x}) ** 2 == {x}")},
    "float": {"size": ("{x} > {lo}", "{x} < {a10}.0", "{x} >= {lo} * 2", "{x} > {a5}.5", "{lo} <= {x} < {a10}.0",
                       "math.floor({x}) > {a5}", "round({x}) >= {a10}", "math.fabs({x} - {a10}) < {a3}"),
              "parity": ("int({x}) % 2 == 0", "round({x}) % 3 == 0", "math.ceil({x}) % 2 == 0", "math.trunc({x}) % 3 == 1"),
              "fraction": ("{x} - int({x}) >= 0.5", "abs({x} - round({x})) < 0.25", "round({x}, 1) != {x}",
                           "math.isclose({x}, round({x}), abs_tol=0.3)", "{x} % 1 > 0.5", "f'{{{x}:.2f}}'.endswith('0')",
                           "math.modf({x})[0] >= 0.5", "len(str({x}).partition('.')[2]) == 1")},
    "word": {"size": ("len({x}) > {a5}", "len({x}) % 2 == 0", "len({x}) < {a7}"),
             "letters": ("{x} < {m}", "{x}[0] in 'aeiou'", "{v} in {x}", "{x}[-1] > {x}[0]", "{v} not in {x}",
                         "{x}.endswith({e})", "{x}.find({v}) > 0",
                         "{x}.strip('aeiou') != {x}", "{x}.removesuffix({e}) != {x}", "max({x}) > {m}",
                         "{x}.rfind({v}) > len({x}) // 2", "{x}.rstrip({e}) != {x}", "{x}[::-1] < {x}",
                         "{x}.startswith(tuple('aeiou'))"),
             "shape": ("len(set({x})) < len({x})", "{x}[1:2] in 'aeiou'", "{x}.count({x}[0]) > 1",
                       "sum(c in 'aeiou' for c in {x}) > 1", "{x}[:2] < {x}[-2:]", "any(c in 'aeiou' for c in {x}[:2])",
                       "{x}.index(min({x})) < 2", "sorted({x})[0] < 'c'")},
    "char": {"vowel": ("{x} in 'aeiou'", "{x} not in 'aeiou'", "{x} in 'rstlne'", "{x} == {v}"),
             "order": ("{x} < {m}", "{x} > {m}", "'c' <= {x} <= {m}", "ord({x}) - ord('a') < {a10}",
                       "string.ascii_lowercase.find({x}) > {a10}"),
             "kind": ("ord({x}) % 2 == 0", "{x} in string.ascii_lowercase[:{a8}]", "{x}.lower() in 'bcdfg'",
                      "{x} in 'etaoin'", "ord({x}) % 3 == 0", "string.ascii_lowercase.index({x}) % 2 == 0",
                      "{x} in string.hexdigits",
                      "{x} in 'aeiou' or {x} == 'y'")},
    "data": {"size": ("len({xs}) > {a6}", "len({xs}) % 2 == 0", "len({xs}) < {a8}"),
             "order": ("{xs}[0] < {xs}[-1]", "{xs}[0] > {xs}[1]", "{xs}[-1] > {xs}[-2]",
                       "{xs}.index(max({xs})) < len({xs}) // 2"),
             "limit": ("{n} % 2 == 0", "{n} > {a8}", "{n} < len({xs})"),
             "shape": ("{xs}[0] in {xs}[1:]", "{xs}[len({xs}) // 2] > {xs}[0]")},
}
_TOP_COND = {  # element tests against the whole input ({top}: the data the program walks)
    "int": {"rel": ("{x} > {top}[0]", "{x} < {top}[-1]", "{x} * len({top}) > sum({top})", "{x} == max({top})",
                    "{x} > min({top}) * 2", "{x} in {top}[:{a3}]", "{top}.index({x}) < {a3}",
                    "{x} > statistics.median({top})")},
    "float": {"rel": ("{x} > {top}[0]", "{x} * len({top}) > sum({top})", "{x} == min({top})",
                      "{x} < max({top}) / 2", "{top}.index({x}) < {a3}")},
    "word": {"rel": ("{x} > {top}[0]", "{x} != {top}[-1]", "len({x}) == len(max({top}, key=len))",
                     "{x} in {top}[:{a3}]", "{top}.index({x}) % 2 == 0", "{top}.index({x}) < {a3}"),
             "affix": ("{x}.startswith({b})", "{x}.endswith({e})", "{x}.endswith(('e', 'r'))",
                       "{x}.startswith(('a', 'o'))", "{x}.count({v}) == 1", "{x}.removeprefix({b}) != {x}")},
}
_STOCK_TOP_COND = {  # a mapping's count against all the counts ({top}: the mapping)
    "int": {"rel": ("{x} == max({top}.values())", "{x} * len({top}) > sum({top}.values())",
                    "{x} > min({top}.values()) * 2", "{x} * 2 < max({top}.values())")},
}
_KEY_COND = ("len({key}) > {a6}", "{key} < {m}", "{key}[0] in 'aeiou'", "{e} in {key}", "{key}[-1] > {key}[0]",
             "{key}.endswith(('e', 's', 'y'))", "len(set({key})) < len({key})")  # the name a count is filed under
_PREV_COND = {  # element tests against the one before it
    "int": ("{x} > {p}", "{x} < {p}", "{x} != {p}", "{x} >= {p}", "{x} - {p} > {a3}"),
    "float": ("{x} > {p}", "{x} < {p}", "{x} > {p} * 1.5"),
    "word": ("{x} > {p}", "len({x}) > len({p})", "{x} < {p}", "len({x}) != len({p})"),
    "char": ("{x} == {p}", "{x} != {p}", "{x} < {p}", "{x} == {p}"),  # (a letter is matched more than ordered)
}
# on data sorted rising (True) or falling (False), the tests against the item before that
# every step answers alike (`mark - prev > 4` after `sorted(marks, reverse=True)`)
_ORDER_DECIDES = {True: ("{x} < {p}", "{x} >= {p}"),
                  False: ("{x} > {p}", "{x} >= {p}", "{x} - {p} > {a3}", "{x} > {p} * 1.5")}
_DATA_COND = {  # tests on the whole input by its kind (beside _COND["data"]); both arms common on drawn inputs
    "ints": {"total": ("sum({xs}) > {n} * {a5}", "max({xs}) > {n} * 2", "min({xs}) < {n}", "{xs}[-1] > {n}",
                       "max({xs}) - min({xs}) > {a10}", "all(v > {a3} for v in {xs})",
                       "{xs}.index(max({xs})) > {xs}.index(min({xs}))", "statistics.median({xs}) > {n}",
                       "math.prod({xs}[:2]) > {n} * {a10}", "sum(sorted({xs})[-2:]) > {n} * {a5}",
                       "statistics.pstdev({xs}) > {a5}", "heapq.nlargest(3, {xs})[-1] > {a10}"),
             "repeat": ("len(set({xs})) < len({xs})", "{xs}.count({xs}[0]) == 1", "{xs}[0] % 2 == 0",
                        "collections.Counter({xs}).most_common(1)[0][1] > 1",
                        "sum(v % 2 for v in {xs}) > len({xs}) // 2"),
             "halves": ("sum({xs}[::2]) > sum({xs}[1::2])", "max({xs}[:3]) < max({xs}[3:])",
                        "{xs}[-1] > {xs}[len({xs}) // 2]", "sum({xs}[:3]) > sum({xs}[-3:])",
                        "statistics.mean({xs}) > {xs}[0]")},
    "prices": {"total": ("sum({xs}) > {n} * {a5}", "max({xs}) > {a10}.0", "max({xs}) - min({xs}) > {a10}",
                         "any(p > {a10} for p in {xs})", "statistics.fmean({xs}) > {a5}", "math.fsum({xs}) > {a10} * 4",
                         "round(sum({xs})) % 2 == 0", "statistics.pstdev({xs}) > {a5}",
                         "heapq.nsmallest(2, {xs})[-1] < {a5}"),
               "shape": ("{xs}[0] > {xs}[-1]", "max({xs}) in {xs}[:3]", "sorted({xs})[len({xs}) // 2] > {a5}")},
    "words": {"total": ("len({xs}[0]) > {a5}", "any(len(w) > {a6} for w in {xs})", "min({xs}) < 'b'",
                        "{word} in {xs}", "sum(len(w) for w in {xs}) > {a10} * 3",
                        "{xs}.index(min({xs})) < {a3}", "{xs}[0].startswith({b})"),
              "shape": ("len(max({xs}, key=len)) > {a6}", "{xs}[0] < {xs}[-1]", "len({xs}[-1]) > len({xs}[0])",
                        "' '.join({xs}).count({v}) > {a3}", "max({xs}, key=len).startswith({b})",
                        "len(set(map(len, {xs}))) < len({xs})", "{xs}.index(max({xs})) > len({xs}) // 2",
                        "max({xs}, key=len).endswith({e})")},
    "stock": {"total": ("sum({xs}.values()) > {n} * {a5}", "max({xs}.values()) > {a10} * 2", "min({xs}.values()) < {a3}",
                        "sum({xs}.values()) % 2 == 0", "any(count > {a10} * 2 for count in {xs}.values())",
                        "statistics.median({xs}.values()) > {a10}"),
              "names": ("{word} in {xs}", "min({xs}) < {m}", "len(max({xs}, key=len)) > {a6}",
                        "max({xs}, key={xs}.get) < {m}", "sum(len(name) for name in {xs}) > {a10} * 3"),
              "size": ("len({xs}) > {a5}", "len({xs}) % 2 == 0", "len(set({xs}.values())) < len({xs})",
                       "0 in {xs}.values()")},
    "text": {"total": ("',' in {xs}", "len({xs}.split()) > 2", "{xs}[0] in 'aeiou'", "len({xs}) > {a10} * 2",
                       "{xs}.startswith({b})", "{xs}.count({v}) > 2"),
             "shape": ("{xs}.split()[0] < {xs}.split()[-1]", "{xs}.endswith({e})", "{xs}.find(' ') > {a3}",
                       "{xs}.rfind(' ') > {a10}", "{xs}.strip().endswith(('e', 's'))",
                       "{xs}.partition(' ')[0] < {xs}.rpartition(' ')[2]", "re.search('[aeiou]{{2}}', {xs})",
                       "len(re.findall('[aeiou]', {xs})) > {a5}")},
}
_ACC_COND = {"number": ("{acc} < {n} * 4", "{acc} <= {size}", "{acc} % 2 == 0", "{acc} + {size} > {n} * 3"),
             "best": ("{acc} < {size}",),
             "list": ("len({acc}) < {a3}",), "parts": ("{x} not in {acc}", "len({acc}) < {a3}"), "counts": ("{x} in {acc}",),
             "set": ("{x} in {acc}", "{x} not in {acc}", "len({acc}) < {a3}"), "text": ("len({acc}) < {a10}",),
             "tally": ("len({acc}) < {a3}",), "groups": ("len({acc}) < {a3}",),
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
JOINED_TESTS = 0.2  # element tests that join two tests of other families with and / or
DIRECT_RETURNS = 0.85  # blueprints of tests only on the input that return from their arms, no accumulator
EARLY_RETURN = 0.3  # deepest test arms in a loop that return there (a search stops at its first find)
KEYED_RESULTS = 0.35  # loop programs whose result files values by a key (a Counter, groups of lists)
ELSE_ARMS = 0.12  # tests with an else arm (each a line of scaffolding more; most tests need none)
STOP_ARMS = 0.6  # in a loop, an elif after the deep arm that ends the walk (break) instead of a contribution
SHRINK_WHILES = 0.5  # while loops on the current element that wear it down (see _Program.shrink_while)
PURPOSE_WHILES = 0.5  # while loops over the items whose test says why they stop (not a plain walk)
DATA_TESTS = 3  # tests on the whole input along one path (each a family of its own)
CLOSING_SHARE = 0.35  # C6 programs of a whole-input use that call the helper in the report, not before the walk
TESTED_SHARE = 0.4  # those (under a test on the input) whose first test asks the helper
WALKED_SHARE = 0.4  # those (in a for loop) whose loop walks the helper's items
HELPER_PREP_SHARE = 0.35  # C6 helpers that first ready their data (sorted, cleaned) before the use
SIGNED_DATA = 0.5  # programs walking the digits of integer data whose data holds negative numbers
SUBTASK_SHARE = 0.5  # C6 draws with a test on an element that keep the use and split off that test


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
    prev: str | None = None  # the element before it (a name the loop keeps, or xs[i - 1])
    seen: str | None = None  # a set of the elements before it the loop keeps
    spare: bool = False  # a walk by index: the element may go unread when the index reads the data
    key: str | None = None  # a walk over a mapping's items: the name whose count the element is
    shrunk: str | None = None  # the element an enclosing while wears down (not worn down again inside it)
    word: str | None = None  # a letter's word (where a while looks for the letter's places)
    halved: str | None = None  # a number's halvings, walked as a small count (not a digit)
    rising: bool | None = None  # the data is sorted: the element never falls below `prev` (True) or rises above it


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


def _padded(rng: random.Random, words: list[str]) -> str:
    """A text a strip has work on: blanks around it and after its commas, plurals, a mark
    after some words and at its end, a word that starts with a vowel and a plural of one
    that ends in one (`'  apples, tiger., pianos!?  '`)."""
    first = rng.choice([w for w in _WORDS if w[0] in "aeiou" and w not in words])
    last = rng.choice([w for w in _WORDS if w[-1] in "aeiou" and w not in words and w != first])
    words = words[:-2] + [first, last + "s"]
    rng.shuffle(words)
    out = [w + rng.choice(("", "", "s", ".", "!")) if not w.endswith("s") else w for w in words]
    return " " * rng.randint(1, 2) + ", ".join(out) + rng.choice(".!?") + " " * rng.randint(1, 2)


def _literal(rng: random.Random, kind: str, cased: bool = False, dress: str = "") -> str:
    if kind == "record":  # a name or a number first, then words of classes drawn per word
        pools = _RECORD_TOKENS[:1] * 2 + _RECORD_TOKENS[1:2] * 2 + _RECORD_TOKENS[2:3] * 2 + _RECORD_TOKENS[3:]
        head = rng.choice(rng.choice((_RECORD_TOKENS[0], _RECORD_TOKENS[2])))
        return repr(" ".join([head] + [rng.choice(rng.choice(pools)) for _ in range(rng.randint(3, 5))]))
    if kind == "ints":
        return repr([rng.randint(1, 20) for _ in range(rng.randint(5, 7))])
    if kind == "stock":  # a count per name (an empty shelf among them now and then)
        return repr({w: rng.choice((0,) + tuple(range(1, 13))) for w in rng.sample(_WORDS, rng.randint(4, 6))})
    if kind == "words":
        words = rng.sample(_WORDS, rng.randint(5, 6))
        return repr(cased_words(rng, words) if cased else words)
    if kind == "prices":
        return repr([round(rng.uniform(0.5, 19.5), rng.choice((1, 2))) for _ in range(rng.randint(5, 6))])
    sep = rng.choice((" ", " ", ",", ", "))
    words = rng.sample(_WORDS, rng.randint(2, 3))
    if dress == "padded":
        return repr(_padded(rng, words + rng.sample(_WORDS, 1)))
    if dress == "commas":  # a list written out, which a replace rewrites: 'lemon, river, stone'
        return repr(", ".join(words))
    if dress == "digits":  # numbers a zfill pads: '7 42 305'
        return repr(" ".join(str(rng.randint(1, 10 ** rng.randint(1, 3) - 1)) for _ in words))
    text = sep.join(cased_words(rng, words) if cased else words)
    return repr(dress.format(text) if dress else text)


class _Program:
    def __init__(self, entry: Entry, knobs: Knobs, rng: random.Random, use: Use) -> None:
        self.knobs, self.rng, self.use, self.method = knobs, rng, use, entry.method
        self.cased = entry.type == "str" and entry.method in CASE_METHODS
        self.w = Writer(rng, knobs.other_methods)
        self.w.taken |= set(re.findall(r"[A-Za-z_]\w*", use.text))
        # the target's own names: scaffolding never calls them (the static check counts its uses)
        self.banned = {n for n in (entry.method.removesuffix("()"), entry.syntax.name.split(".")[-1])
                       if n.isidentifier()}
        self.kind = rng.choice(use.kinds)
        self.source = self.kind  # the data's literal kind (a record is written as a text)
        if self.kind == "record":
            self.kind = "text"
        # walks the data (not only the current element): give it an index in loops
        self.whole_data = "{xs}" in use.text or ("{w}" in use.text and self.kind == "text")
        self.span = rng.choice((3, 3, 4))
        self.loops = sum(k in ("for", "while") for k in knobs.blueprint)
        self.limit: str | None = None
        self.pivot: str | None = None
        self.families: dict[str, set[str]] = {}
        self.second: str | None = None
        self.top_xs: str | None = None  # the data the loops walk (element tests may read it whole)
        self.lits = {"k": str(rng.choice((2, 3, 3, 4, 5))), "r": rng.choice(("1.08", "0.2", "1.5", "0.85")),
                     "f": rng.choice(("2.5", "0.99", "4.0")), "lo": rng.choice(("1.0", "2.5", "0.5")),
                     "s": repr(rng.choice(("a", "e", "o", ",", " ")))}

    # --- values ---------------------------------------------------------------------
    def methods(self, *options: str) -> tuple[str, ...]:
        """Scaffolding that calls methods or functions of its own (a word's .capitalize(),
        itertools.pairwise): none where the level allows no other call, and none that
        calls the target's name."""
        if not self.w.allow_calls:
            return ()
        return tuple(o for o in options if not any(re.search(rf"\b{b}\(", o) for b in self.banned))

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
                self.second = self.w.param(_DATA_NAMES["words"], _literal(self.rng, "words", self.cased))
            values["ys"] = self.second
        if "{key}" in text:
            values["key"] = env.key if env.key is not None else self.name_param()
        return text.format(**values)

    named: str | None = None

    def name_param(self) -> str:
        """A name to look up in a mapping: one of the call's own keys or another word, so
        that inputs near the call's find it or not."""
        if self.named is None:
            keys = list(ast.literal_eval(self.data_lit)) if self.kind == "stock" else []
            word = self.rng.choice(keys) if keys and self.rng.random() < 0.6 else self.rng.choice(_WORDS)
            self.named = self.w.param(("name", "item", "product"), repr(word))
        return self.named

    def scalar_param(self, env: Env) -> str:
        if env.kind == "prices":
            return self.w.param(("price", "budget", "cap"), repr(round(self.rng.uniform(3.0, 15.0), 1)))
        if env.kind == "words":
            return self.w.param(("name", "pivot", "key"), repr(self.rng.choice(_WORDS)))
        return self.w.param(("target", "pivot", "value"), str(self.rng.randint(3, 15)))

    # --- the program ----------------------------------------------------------------
    def build(self, entry_names: tuple[str, ...]) -> tuple[str, str, str] | None:
        w = self.w
        blueprint = self.knobs.blueprint
        # C6: the use stays in the entry, and a test on the current element is the helper
        # (only a test right under the first loop: one under two loops is called so often
        # that the trace runs past its limit)
        loop = next((k for k, kind in enumerate(blueprint) if kind in ("for", "while")), len(blueprint))
        self.subtask = (self.knobs.call_chain and type(self) is _Program
                        and tuple(blueprint[loop + 1:loop + 2]) in (("if",), ("if-elif",))
                        and self.rng.random() < SUBTASK_SHARE)
        # the use's task names go to the function that does it: the helper, where it is one
        helped = self.knobs.call_chain and not self.subtask and bool(self.use.names)
        entry = w.name(_ENTRY_NAMES.get(self.source, entry_names) if helped else self.use.names or entry_names)
        data = w.param(_DATA_NAMES[self.source], _literal(self.rng, self.source, self.cased, self.use.dress))
        self.data_lit = w.params[-1][1]
        env = Env(data, self.kind)
        helper_lines: list[str] = []
        if self.knobs.call_chain and not self.subtask:
            helper_lines = self.helper(env)
            if helper_lines is None:
                return None
            self.helper_src = "\n".join(helper_lines)
        if not self.knobs.control_flow_depth:
            self.straight(env)
        else:
            self.nested(env)
        if self.kind == "text":
            self.hoist_words(data)
        if self.subtask:
            if self.sub_lines is None:
                raise _Miss("no test on an element took the helper")
            helper_lines = self.sub_lines
        read = _names_read(w.lines)
        w.params = [(n, lit) for n, lit in w.params if n in read]  # a parameter a dropped draw asked for goes
        head = f"def {entry}({', '.join(n for n, _ in w.params)}):"
        code = program_text(helper_lines + [head, *w.lines], w.imports, self.method)
        if f"{_MAGNITUDE}(" in code:
            code = self.settle_sign(code, data, entry)
        return code, entry, ", ".join(lit for _, lit in w.params)

    def magnitude(self, x: str) -> str:
        """`x` as a size to walk (its digits, its halvings): for integer data a mark that
        `settle_sign` makes `abs(x)` or `x` once the program is written; prices, counts and
        letters are never negative, so an `abs` there would change nothing on any input."""
        return f"{_MAGNITUDE}({x})" if self.source == "ints" else x

    def settle_sign(self, code: str, data: str, entry: str) -> str:
        """The walks' magnitudes settled. For a share of the programs (`SIGNED_DATA`) some of
        the data's numbers are negated, the data is named as numbers that can be negative
        (`readings`, not `ages`) and the walks guard with `abs`, where the program still
        runs on its call (a test of the digits elsewhere, `map(int, str(x))`, would not);
        else the walks read the numbers as they are."""
        plain = _unwrapped(code, _MAGNITUDE)
        k = next((i for i, (n, _) in enumerate(self.w.params) if n == data), None)
        if k is None or self.rng.random() >= SIGNED_DATA:
            return plain
        values = ast.literal_eval(self.w.params[k][1])
        for i in self.rng.sample(range(len(values)), self.rng.randint(1, max(1, len(values) // 3))):
            values[i] = -values[i]
        name = data if data in _SIGNED_NAMES else self.w.name(_SIGNED_NAMES)
        signed = renamed(code.replace(f"{_MAGNITUDE}(", "abs("), data, name)
        params = [(name, repr(values)) if j == k else p for j, p in enumerate(self.w.params)]
        if not runs_on(signed, entry, ", ".join(lit for _, lit in params)):
            return plain
        self.w.params = params
        return signed

    def hoist_words(self, text: str) -> None:
        """A text split the same way in two places or more is split once, first, into a
        name the lines read (as a person writes it), where nothing rebinds the text."""
        w = self.w
        if any(re.match(rf"\s*{text}\s*(=|\+=)", t) for t in w.lines):
            return
        for split in (f"{text}.split()", f"{text}.replace(',', ' ').split()", f"{text}.lower().split()"):
            if not self.methods(split):  # the target's own calls stay where the use wrote them
                continue
            pattern = re.compile(rf"(?<![\w.]){re.escape(split)}")
            if sum(len(pattern.findall(t)) for t in w.lines) < 2:
                continue
            if any(re.fullmatch(rf"\s*\w+ = {re.escape(split)}", t) for t in w.lines):
                return  # a work list the loop empties: its own copy, not the shared words
            name = w.name(("words", "tokens", "terms"))
            w.lines = [f"    {name} = {split}"] + [pattern.sub(name, t) for t in w.lines]
            return

    def expr(self, env: Env) -> str:
        if self.helper_call is not None:
            return self.helper_call(env)
        text = self.render(env)
        if "math." in text:
            self.w.imports.add("math")
        return text

    helper_call = None
    subtask = False  # C6: the helper is a test on the current element (idiom_helpers.TESTS)
    sub_lines: list[str] | None = None
    shift = 0
    data_lit = ""

    def helper(self, env: Env) -> list[str] | None:
        """The use as a function of its own: its free names become its parameters."""
        names = ["xs", "x", "i", "n", "ys", "w", "key"]
        used = [k for k in names if "{" + k + "}" in self.use.text]
        sub = Writer(self.rng, True, taken=set(self.w.taken))
        mapping = {}
        for k in used:
            mapping[k] = sub.name({"xs": _DATA_NAMES[self.kind], "ys": ("names", "labels"),
                                   "x": ("value", "pivot", "current"), "i": ("start", "skip"),
                                   "n": ("limit", "cutoff"), "w": ("text", "phrase"), "key": ("name", "wanted")}[k])
        params_of = dict(mapping)
        body = []
        if used == ["xs"] and self.rng.random() < HELPER_PREP_SHARE:
            ready = self.readied(mapping["xs"])
            name = sub.name(("ordered", "cleaned", "values", "ready", "prepared"))
            plain = self.use.text.format(**{**self.lits, **mapping})
            readied = self.use.text.format(**{**self.lits, **mapping, "xs": name})
            if ready is not None and _differs(mapping["xs"], plain, [f"{name} = {ready}"], readied, self.data_lit):
                body.append(f"    {name} = {ready}")  # the helper readies its data first: a sub-task of its own
                mapping = {**mapping, "xs": name}
        text = self.use.text.format(**{**self.lits, **mapping})
        if "math." in text:
            self.w.imports.add("math")
        hname = self.w.name(self.use.names or ("score_of", "measure", "summarize", "weigh"))
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
        params = [params_of[k] for k in used]
        return [f"def {hname}({', '.join(params)}):", *body, f"    return {text}"]

    def readied(self, xs: str) -> str | None:
        """The helper's data made ready for the use, keeping every item (sorted, cleaned,
        scaled); None where the level allows no other call or every option calls the target."""
        a = self.rng.randint(2, 4)
        options = {"ints": (f"sorted({xs})", f"sorted({xs}, reverse=True)", f"[abs(v) for v in {xs}]",
                            f"[v * {a} for v in {xs}]", f"[v % {a * 5} for v in {xs}]", f"list(reversed({xs}))"),
                   "words": (f"sorted({xs})", f"[w.lower() for w in {xs}]", f"sorted({xs}, key=len)",
                             f"[w.strip() for w in {xs}]", f"list(reversed({xs}))"),
                   "prices": (f"sorted({xs})", f"[round(p, 1) for p in {xs}]", f"[abs(p) for p in {xs}]",
                              f"sorted({xs}, reverse=True)"),
                   "text": (f"{xs}.lower()", f"{xs}.strip()", f"{xs}.replace('-', ' ')", f"' '.join({xs}.split())"),
                   "stock": (f"dict(sorted({xs}.items()))", f"{{name: count for name, count in {xs}.items() if count}}",
                             f"{{name: min(count, {a * 4}) for name, count in {xs}.items()}}")}
        free = self.methods(*options[self.kind])
        return self.rng.choice(free) if free else None

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
            other = w.param(_DATA_NAMES[self.source], _literal(rng, self.source, self.cased, self.use.dress))
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
                          f"{rng.choice(_WORDS)!r} + ',' + {xs}"),
                 "stock": (f"{{name: count for name, count in {xs}.items() if count}}",
                           f"{{name: count + {a} for name, count in {xs}.items()}}",
                           f"{{name: count for name, count in {xs}.items() if count < {a * 8}}}")}[kind]
        called = {"ints": ("sorted({xs})", "sorted({xs}, reverse=True)", "[abs(v - {a}) for v in {xs}]",
                           "[min(v, {a} * 4) for v in {xs}]", "sorted({xs})[{a}:]"),
                  "words": ("sorted({xs})", "[w.lower() for w in {xs}]", "[w.strip('{c}') for w in {xs}]",
                            "sorted({xs}, key=len)"),
                  "prices": ("sorted({xs})", "[round(p, 1) for p in {xs}]", "[abs(p - {a}) for p in {xs}]"),
                  "text": ("{xs}.lower()", "{xs}.strip()", "{xs}.replace('-', ' ')", "{xs}.strip('{c}')"),
                  "stock": ("dict(sorted({xs}.items()))", "{{name.upper(): count for name, count in {xs}.items()}}",
                            "{{name: min(count, {a} * 4) for name, count in {xs}.items()}}")}[kind]
        if kind == "stock":  # (its forms call .items(): not where no call is allowed or that is the target)
            plain = (f"{xs} | {{{rng.choice(_WORDS)!r}: {a}}}",) + tuple(o for o in plain if self.methods(o))
            called = tuple(o for o in called if self.methods(o.format(xs=xs, a=a)))
        if self.w.allow_calls and called and rng.random() < 0.5:
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
        self.shift = rng.randrange(12)  # where this program starts in each list of contributions
        blueprint = tuple(self.knobs.blueprint)
        if all(k in ("if", "if-elif") for k in blueprint) and rng.random() < DIRECT_RETURNS:
            self.direct(env, blueprint)
            return
        kinds = {"int": ("number", "best", "counts", "list", "set", "text"), "float": ("number", "best", "list"),
                 "str": ("parts", "number", "list", "text", "set"), "list": ("list", "number"),
                 "dict": ("list", "number"), "bool": ("number", "list"), "tuple": ("list", "set"),
                 "set": ("list", "number", "set")}[rt]
        # a use that walks all the data runs once, before the walk, and seeds the result
        self.hoisted = self.whole_data and self.loops >= 1 and (self.loops >= 2 or rng.random() < 0.75)
        if self.hoisted:
            kinds = {"int": ("number", "best"), "float": ("number", "best"), "str": ("parts", "text"),
                     "list": ("list", "number"), "dict": ("number",), "bool": ("number",),
                     "tuple": ("list",), "set": ("list", "number", "set")}[rt]
        if _FORMATS.search(self.use.text) and rt in ("str", "list", "dict", "set"):
            # a use that formats its values (case, padding, f-strings) keeps them: a number
            # accumulator would take only their count (`len([str(v).zfill(3) ...])`)
            if self.hoisted and kinds == ("number",) and self.loops < 2:  # nested walks hoist it
                self.hoisted = False
                kinds = {"dict": ("list", "number"), "bool": ("number", "list")}.get(rt, kinds)
            kinds = tuple(k for k in kinds if k != "number") or kinds
        if self.loops and not self.hoisted and rng.random() < KEYED_RESULTS:
            keyed = self.methods(*{"int": ("tally", "groups"), "float": ("tally", "groups"), "bool": ("tally",),
                                   "str": ("tally", "groups"), "list": ("groups",), "tuple": ("groups",),
                                   "set": ("groups",)}.get(rt, ()))
            kinds = keyed or kinds
        self.acc_kind = rng.choice(kinds)
        self.acc = w.name(_ACC_NAMES[self.acc_kind])
        # a best-so-far that starts unset (None) until the first item sets it
        self.unset = self.acc_kind == "best" and self.loops and not self.hoisted and rng.random() < 0.5
        init = {"number": "0.0" if rt == "float" else "0", "best": "0.0" if rt == "float" else "0",
                "list": "[]", "parts": "[]", "counts": "{}", "set": "set()", "text": "''",
                "tally": "collections.Counter()", "groups": "{}"}[self.acc_kind]
        if self.acc_kind == "groups" and (rng.random() < 0.5 or not self.methods("{acc}.setdefault(")):
            self.defaulted = True  # a defaultdict(list): a missing key starts an empty group
            init = "collections.defaultdict(list)"
        # C6: the helper's one call seeds the result, is the first test on the input, gives the
        # outer loop its items, or joins what the walk gathered in the returned value
        if self.hoisted and self.helper_call is not None:
            self.called = self.expr(env)  # the one call of the helper, on the whole input
            roll = rng.random()
            if roll < TESTED_SHARE and blueprint[0] in ("if", "if-elif") and self.helper_value() is not None:
                self.tested = True  # the helper's value is the first test on the input
            elif roll < WALKED_SHARE and blueprint[0] == "for":
                self.walked = self.item_kind(self.helper_value())  # the walk goes over the helper's items
            elif roll > 1 - CLOSING_SHARE and self.acc_kind in _CLOSING:
                self.closing = True
        if self.hoisted and not self.closing and not self.tested and not self.walked:
            e = self.called or self.expr(env)
            init = {"number": e if rt in ("int", "float") else f"1 if {e} else 0" if rt == "bool"
                    else self.counted(e), "best": e, "parts": f"[{e}]",
                    "list": f"list({e})" if rt == "tuple" else f"sorted({e})" if rt == "set" else e,
                    "text": e, "set": f"set({e})"}[self.acc_kind]
        w.line(f"{self.acc} = {'None' if self.unset else init}")
        self.top_xs = env.xs
        self.block(tuple(self.knobs.blueprint), env)
        w.line(f"return {self.finish()}")

    direct_mode = False
    stops_early = True  # a walk may stop once the result holds enough (not a statement use's receiver)
    shrinks = True  # a loop may wear the element down (not where it fills a receiver: its items repeat)
    defaulted = False
    unset = False
    closing = False  # C6: the helper is called in the report, not before the walk
    tested = False  # C6: the helper is called in the first test on the input
    walked: str | None = None  # C6: the kind of the helper's items the outer loop walks
    walk_written = False
    test_written = False
    helper_src = ""
    called = ""  # C6, a use on the whole input: the helper's call
    open_tests = False  # some test without an else: a path falls through to the end

    def direct(self, env: Env, blueprint: tuple[str, ...]) -> None:
        """One test on the input: each arm returns its own value (the use in the arm the
        input takes), a default after the test when it has no else."""
        self.direct_mode, self.hoisted, self.acc, self.acc_kind = True, False, "", "direct"
        self.top_xs = env.xs
        self.block(blueprint, env)
        if self.open_tests:
            self.w.line(f"return {self.returned(self.fallbacks(env.xs), len(self.w.lines))}")

    def returned(self, options: tuple[str, ...], v: int) -> str:
        """The v-th value not yet returned by an arm (two arms returning alike read as one)."""
        done = {t.strip() for t in self.w.lines}
        fresh = tuple(o for o in options if f"return {o}" not in done) or options
        return fresh[(v + self.shift) % len(fresh)]

    def fallbacks(self, xs: str) -> tuple[str, ...]:
        """Values of the whole input in the use's result type (an arm the use is not in)."""
        rt, kind, calls = self.use.rtype, self.kind, self.w.allow_calls
        if kind == "stock":  # how many names, the first name, the largest count
            m = self.methods
            return {"int": (f"len({xs})", "0", "-1") + m(f"sum({xs}.values())", f"max({xs}.values(), default=0)"),
                    "float": ("0.0",) + m(f"sum({xs}.values()) / len({xs})"),
                    "str": ("''",) + m(f"min({xs}, default='')", f"max({xs}, key={xs}.get, default='')"),
                    "bool": ("False", f"len({xs}) > {self.rng.randint(3, 6)}") + m(f"0 in {xs}.values()"),
                    "dict": ("{}", xs) + m(f"dict(sorted({xs}.items())[:2])"),
                    "tuple": ("()",) + m(f"min({xs}.items(), default=())"),
                    }.get(rt, ("[]",) + m(f"sorted({xs})", f"sorted({xs}.values())"))
        first = f"{xs}[0]" if kind != "text" else f"{xs}[:{self.span}]"
        m = self.methods
        if rt == "int":  # (where the largest item is, how often the first recurs, where a text's first space is)
            return (f"len({xs})", "0", "-1", f"len({xs}) // 2") + ((f"{xs}[0]", f"{xs}[-1]") if kind == "ints" else ()) \
                + ((f"sum({xs})",) if calls and kind == "ints" else (f"{xs}.count(' ')",) if calls and kind == "text" else ()) \
                + {"ints": m(f"{xs}.index(max({xs}))", f"{xs}.count({xs}[0])"), "text": m(f"{xs}.find(' ')"),
                   "words": m(f"{xs}.index(min({xs}))", f"{xs}[0].count('a')")}.get(kind, ())
        if rt == "float":
            return ("0.0",) + ((f"{xs}[0]", f"{xs}[-1]") if kind in ("prices", "ints") else (f"float(len({xs}))",)) \
                + ((f"max({xs})",) if calls and kind == "prices" else ())
        if rt == "str":
            return ("''",) + ((first, f"{xs}[-1]") if kind == "words" else (first,) if kind == "text"
                              else (f"str({xs}[0])",)) + ((f"{xs}.upper()",) if calls and kind == "text" else ()) \
                + {"words": m(f"{xs}[0].capitalize()", f"' '.join({xs}[:2])"),
                   "text": m(f"{xs}.title()", f"{xs}.split()[0]")}.get(kind, ())
        if rt == "bool":
            return ("False", f"len({xs}) > {self.rng.randint(3, 6)}") + \
                ((f"{xs}[0] < {xs}[-1]",) if kind != "text" else (f"' ' in {xs}",)) \
                + {"words": m(f"{xs}[0].endswith('e')"), "text": m(f"{xs}.startswith('a')")}.get(kind, ())
        if rt == "dict":
            return ("{}", f"{{len({xs}): {xs}[0]}}")
        if rt == "tuple":
            return ("()", f"({xs}[0], {xs}[-1])")
        return ("[]", f"{xs}[:2]", f"{xs}[-1:]", f"[{xs}[0]]") + m(f"sorted({xs})[:2]") if kind != "text" \
            else ("[]", f"{xs}.split()", f"[{xs}]") + m(f"{xs}.split(',')")

    def finish(self) -> str:
        """The result as the task reports it (the same at an early return)."""
        if self.result is None:
            self.result = self.report()
        return self.result

    result: str | None = None

    def report(self) -> str:
        acc, rng = self.acc, self.rng
        top = self.top_xs
        if self.closing:
            return self.closed()
        if self.acc_kind == "parts":
            sep = rng.choice((repr(' '), repr(', '), repr('-'), repr('|'), repr(''), repr('/'), repr('; ')))
            return rng.choice((f"{sep}.join({acc})", f"{sep}.join({acc})", f"{sep}.join(sorted({acc}))",
                               f"{sep}.join(reversed({acc}))"))
        if self.acc_kind == "number" and self.use.rtype == "float":
            return rng.choice((f"round({acc}, 2)", f"round({acc}, 2)", f"round({acc}, 1)", f"round({acc} / len({top}), 2)"
                               if top else f"round({acc}, 1)"))
        if self.acc_kind == "list":
            plain = (acc, f"{acc}[::-1]")
            ordered = (f"sorted({acc})", f"sorted({acc}, reverse=True)") if self.use.rtype in ("int", "float", "str") else ()
            if self.use.rtype == "str":  # words rank by their length, or by how often they recur
                ordered += (f"sorted({acc}, key=len)", f"max({acc}, key=len, default='')")
                ordered += self.methods(f"collections.Counter({acc}).most_common(1)")
            elif self.use.rtype == "int":  # the most frequent value
                ordered += (f"max({acc}, default=0)", f"sorted({acc}, key=abs)")
                ordered += self.methods(f"collections.Counter({acc}).most_common(1)")
            return rng.choice(plain + ordered + (acc,))
        if self.acc_kind == "counts":
            return rng.choice((acc, f"sorted({acc}.items())", f"max({acc}.values(), default=0)",
                               f"sorted({acc}.items(), key=lambda kv: kv[1])", f"max({acc}, key={acc}.get, default=None)",
                               f"sorted({acc}, key={acc}.get, reverse=True)")
                              + self.methods(f"collections.Counter({acc}).most_common(2)",
                                             f"max({acc}.items(), key=operator.itemgetter(1), default=None)"))
        if self.acc_kind == "set":
            if self.use.rtype in ("int", "str"):
                return rng.choice((f"sorted({acc})", f"sorted({acc})", f"sorted({acc}, reverse=True)")
                                  + (self.methods(f"', '.join(sorted({acc}))") if self.use.rtype == "str" else ())
                                  + ((f"max({acc}, default=0)", f"min({acc}, default=0)") if self.use.rtype == "int" else ()))
            return f"len({acc})"
        if self.acc_kind == "text":
            return rng.choice((acc, acc, f"{acc}[::-1]", f"{acc}.upper()") + self.methods(f"{acc}.capitalize()"))
        if self.acc_kind == "tally":  # the commonest keys, or the counts read back
            return rng.choice((f"{acc}.most_common({rng.choice((1, 2, 3))})", f"{acc}.most_common()",
                               f"sorted({acc}.items())", f"[k for k, c in {acc}.items() if c > 1]",
                               f"max({acc}.values(), default=0)", f"dict({acc})",
                               f"sorted({acc}, key={acc}.get)"))
        if self.acc_kind == "groups":  # each group's size, the largest group, the groups in key order
            whole = f"dict({acc})" if self.defaulted else acc
            return rng.choice((f"sorted({acc}.items())", whole, f"{{k: len(v) for k, v in sorted({acc}.items())}}",
                               f"max({acc}.values(), key=len, default=[])", f"[len({acc}[k]) for k in sorted({acc})]",
                               f"sorted({acc}, key=lambda k: len({acc}[k]))"))
        if self.acc_kind == "number" and top:
            # (the total, or per item: not a pair with the input's size, a value no line computed)
            # (its size only where a line takes from it: a total that only grows is its own size)
            lowered = any(re.search(rf"\b{acc} -=", line) for line in self.w.lines)
            return rng.choice((acc, acc, acc, f"round({acc} / len({top}), 1)") + ((f"abs({acc})",) if lowered else ()))
        if self.unset:  # no item set it
            return rng.choice((acc, f"{acc} if {acc} is not None else {'0.0' if self.use.rtype == 'float' else '0'}"))
        return acc

    def closed(self) -> str:
        """C6, the helper called at the end: its value on the whole input joined with what
        the walk gathered (the walk's total and the helper's, the items found and the
        helper's list, the parts with the helper's text in front)."""
        acc, rt, kind = self.acc, self.use.rtype, self.acc_kind
        call = self.called
        sep = repr(self.rng.choice((" ", ", ", "-", "|", "/")))
        options = {
            "number": {"int": (f"{acc} + {call}", f"{call} - {acc}", f"({acc}, {call})", f"max({acc}, {call})"),
                       "float": (f"round({acc} + {call}, 2)", f"round({call} - {acc}, 2)", f"(round({acc}, 2), {call})"),
                       "bool": (f"({acc}, {call})",)}.get(
                           rt, (f"{acc} + {self.totalled(call)}", f"({acc}, {self.totalled(call)})")),
            "list": {"list": (f"{acc} + {call}", f"{call} + {acc}", f"({acc}, {call})"),
                     "tuple": (f"{acc} + list({call})", f"({acc}, {call})"),
                     "set": (f"{acc} + sorted({call})", f"(sorted({call}), {acc})")}.get(rt, (f"({acc}, {call})",)),
            "parts": (f"{sep}.join([{call}, *{acc}])", f"{sep}.join({acc} + [{call}])",
                      f"{call} + {sep}.join({acc})"),
            "text": (f"{call} + {acc}", f"{acc} + {call}", f"({acc}, {call})"),
            "set": (f"sorted({acc} | {call})", f"sorted({acc} - {call})", f"len({acc} & {call})"),
        }[kind]
        return self.rng.choice(options)

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
            if not (env.spare and env.i is not None and _mentions(self.w.lines[mark:], env.i)):
                self.simple(env)

    def for_block(self, rest: tuple[str, ...], env: Env) -> None:
        w, rng = self.w, self.rng
        start = len(w.lines)
        env = replace(env, prev=None, seen=None)  # an inner loop's element has no predecessor of its own
        compared = None  # a letter an inner walk over a set of letters is compared with
        if env.x is None and self.walked and not self.walk_written:
            self.walk_written = True  # the helper's items, once, in the outer loop
            x = w.name(_ELEM_NAMES[self.walked])
            w.line(f"for {x} in {self.called}:")
            sub = replace(env, x=x, x_kind=self.walked, loop_depth=env.loop_depth + 1)
        elif env.x is None and env.kind == "stock":
            self.stock_walk(rest, env)
            return
        elif env.x is None:
            if env.kind == "text":
                x = w.name(_ELEM_NAMES["word"])
                # the words of a text (commas read as spaces: no empty word), compared without case
                split = self.words_of(env.xs)
                words = rng.choice((split,) * 2 + (f"{split}[::-1]",)
                                   + self.methods(f"{env.xs}.lower().split()" if split == f"{env.xs}.split()" else split,
                                                  f"sorted({split})", f"dict.fromkeys({split})"))
                w.line(f"for {x} in {words}:")
                sub = replace(env, x=x, x_kind="word", loop_depth=env.loop_depth + 1)
            else:
                self.walk(rest, env)
                return
        elif env.x_kind == "word":
            ch = w.name(_ELEM_NAMES["char"])
            letters = rng.choice((env.x, env.x, env.x, f"{env.x}[::-1]", f"{env.x}[1:]", f"{env.x}[:{self.span}]")
                                 + self.methods(f"sorted(set({env.x}))", f"dict.fromkeys({env.x})", f"reversed({env.x})",
                                                f"{env.x}.lower()"))
            w.line(f"for {ch} in {letters}:")
            sub = replace(env, x=ch, x_kind="char", word=env.x, loop_depth=env.loop_depth + 1)
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
            i, xs = env.i, env.xs
            window = rng.choice((f"{xs}[{i} + 1:{i} + 3]", f"{xs}[max(0, {i} - 2):{i}]", f"{xs}[:{i}]",
                                 f"{xs}[{i} + 1:{i} + {self.span}]", f"reversed({xs}[max(0, {i} - 2):{i}])",
                                 f"{xs}[{i} + 1:]") + self.methods(f"itertools.islice({xs}, {i} + 1, {i} + {self.span})"))
            w.line(f"for {y} in {window}:")
            sub = replace(env, x=y, x_kind="float" if env.kind == "prices" else "int", i=None,
                          loop_depth=env.loop_depth + 1)
        elif env.x_kind in _NUMERIC:
            whole = f"int({env.x})" if env.x_kind == "float" else env.x
            n = w.name(("place", "unit"))
            if rng.random() < 0.5:
                w.line(f"for {n} in map(int, str({self.magnitude(whole)})):")
            else:
                d = w.name(("digit", "figure"))
                w.line(f"for {d} in str({self.magnitude(whole)}):")
                w.indent += 1
                w.line(f"{n} = int({d})")
                w.indent -= 1
            sub = replace(env, x=n, x_kind="digit", loop_depth=env.loop_depth + 1)
        else:  # a single letter: the letters of a set it is compared with (`for vowel in 'aeiou'`)
            ch = w.name(("vowel", "mark", "other")) if env.x != "vowel" else w.name(("mark", "other"))
            letters = rng.choice(("'aeiou'", "'aeiou'", "'rstlne'", "'xyz'", "'bcdfg'")
                                 + self.methods("string.ascii_lowercase[:5]", "sorted('etaoin')"))
            w.line(f"for {ch} in {letters}:")
            sub = replace(env, x=ch, x_kind="char", prev=env.x, loop_depth=env.loop_depth + 1)
            compared = env.x
        w.indent += 1
        self.inner(rest, sub)
        w.indent -= 1
        if compared is not None and not _mentions(w.lines[start + 1:], compared):
            # a set of letters the body never compares with the letter: its neighbours in
            # the alphabet instead (the same work on every letter means nothing)
            head = w.lines[start]
            w.lines[start] = head[:head.index(" in ") + 4] + f"(chr(ord({compared}) - 1), chr(ord({compared}) + 1)):"
        header = w.lines[start]
        if sub.i is not None and " enumerate(" in header and not _mentions(w.lines[start + 1:], sub.i):
            w.lines[start] = header.replace(f"for {sub.i}, {sub.x} in enumerate({env.xs}):",
                                            f"for {sub.x} in {env.xs}:")

    def walk(self, rest: tuple[str, ...], env: Env) -> None:
        """A for loop over the items of a list: plain, in order or reversed, from the second
        on, with its index (0- or 1-based, or counted down), or with the item before it
        (neighbour pairs, xs[i - 1], or a name the loop keeps). A predecessor or an index the
        body does not read falls back to the plain loop."""
        w, rng = self.w, self.rng
        start = len(w.lines)
        xs = env.xs
        ek = "float" if env.kind == "prices" else "word" if env.kind == "words" else "int"
        x = w.name(_ELEM_NAMES[ek])
        indexed = self.whole_data or (self.loops > 1 and rng.random() < 0.6)
        styles = (("range", "enum", "enum", "enum1", "from1", "pairs1", "back") if indexed else
                  ("plain", "plain", "enum", "enum1", "pairs", "from1", "track", "track", "slice", "step")
                  + (("seen", "seen") if ek == "int" else ())
                  + (("sorted", "reversed", "ranked", "bykey", "half", "ends") if self.w.allow_calls else ())
                  + (("running", "fewest") if self.w.allow_calls and ek != "word" else ()))
        style = rng.choice(styles)
        i = w.name(_ELEM_NAMES["index"]) if style in ("range", "enum", "enum1", "from1", "pairs1", "back") else None
        prev = None
        header = f"for {x} in {xs}:"
        fetch = None
        # neighbour pairs: itertools.pairwise where calls are allowed, else zip with the slice
        pairs = (self.methods(f"itertools.pairwise({xs})") + (f"zip({xs}, {xs}[1:])",))[0]
        if style == "range":
            header, fetch = f"for {i} in range(len({xs})):", f"{x} = {xs}[{i}]"
        elif style == "back":
            down = (f"reversed(range(len({xs})))" if self.w.allow_calls and rng.random() < 0.5
                    else f"range(len({xs}) - 1, -1, -1)")
            header, fetch = f"for {i} in {down}:", f"{x} = {xs}[{i}]"
        elif style == "from1":
            header, fetch, prev = f"for {i} in range(1, len({xs})):", f"{x} = {xs}[{i}]", f"{xs}[{i} - 1]"
        elif style == "enum":
            header = f"for {i}, {x} in enumerate({xs}):"
        elif style == "enum1":
            header = f"for {i}, {x} in enumerate({xs}, {rng.choice(('1', 'start=1'))}):"
        elif style == "pairs1":  # the index of the later item of each neighbour pair
            prev = w.name(("before", "prev", "left"))
            header = f"for {i}, ({prev}, {x}) in enumerate({pairs}, 1):"
        elif style == "pairs":
            prev = w.name(("before", "prev", "left"))
            header = f"for {prev}, {x} in {pairs}:"
        elif style == "track":
            prev = w.name(("prev", "last", "before"))
        elif style == "slice":
            header = f"for {x} in {xs}[1:]:"
        elif style == "step":  # every other item, from the first or the second
            header = f"for {x} in {xs}[{rng.choice(('', '1'))}::2]:"
        elif style in ("sorted", "reversed"):
            header = f"for {x} in {style}({xs}):"
        elif style in ("ranked", "bykey", "half", "ends", "running", "fewest"):
            header = f"for {x} in {self.walk_source(style, xs, ek)}:"
        seen = w.name(("seen", "met", "earlier")) if style == "seen" else None
        w.line(header)
        w.indent += 1
        if fetch:
            w.line(fetch)
        sub = replace(env, x=x, x_kind=ek, i=i, prev=prev, seen=seen, loop_depth=env.loop_depth + 1,
                      spare=i is not None and style != "pairs1",  # (a pair's later item is read)
                      rising=sorted_order(self.w.lines, xs) if prev is not None else None)
        self.inner(rest, sub)
        if i is not None and style != "pairs1" and not _mentions(w.lines[start + 1 + bool(fetch):], x):  # the index reads the data
            if fetch:
                del w.lines[start + 1]
            else:
                w.lines[start] = w.lines[start].replace(header, f"for {i} in range(len({xs})):")
                header = w.lines[start].strip()
        body = w.lines[start + 1:]
        if seen is not None and _mentions(body, seen):
            w.line(f"{seen}.add({x})")
            w.lines.insert(start, "    " * (w.indent - 1) + f"{seen} = set()")
            start += 1
        if style == "track" and _mentions(body, prev):
            w.line(f"{prev} = {x}")
            first = {"int": "0", "float": "0.0", "word": "''"}[ek]
            w.lines.insert(start, "    " * (w.indent - 1) + f"{prev} = {first}")
            start += 1
        w.indent -= 1
        if i is not None and style in ("enum", "enum1") and not _mentions(body, i):
            w.lines[start] = w.lines[start].replace(header, f"for {x} in {xs}:")
        fetched = start + 1  # (a set of the items seen or a kept predecessor goes before the header)
        if style in ("range", "back") and fetched < len(w.lines) and w.lines[fetched].strip() == fetch \
                and _mentions(w.lines[fetched + 1:], x):
            # an index that fetches the item: the item itself (with its index where the body reads it)
            read = _mentions(w.lines[fetched + 1:], i)
            plain = (f"for {i}, {x} in enumerate({xs}):" if read else f"for {x} in {xs}:") if style == "range" \
                else None if read else f"for {x} in {xs}[::-1]:"
            if plain is not None:
                w.lines[start] = w.lines[start].replace(header, plain)
                del w.lines[fetched]
        if style == "pairs" and not _mentions(body, prev):
            w.lines[start] = w.lines[start].replace(header, f"for {x} in {xs}[1:]:")
        if style == "pairs1":
            plain = {(True, True): header, (True, False): f"for {i}, {x} in enumerate({xs}[1:], 1):",
                     (False, True): f"for {prev}, {x} in {pairs}:", (False, False): f"for {x} in {xs}[1:]:"}
            w.lines[start] = w.lines[start].replace(header, plain[_mentions(body, i), _mentions(body, prev)])

    def stock_walk(self, rest: tuple[str, ...], env: Env) -> None:
        """A for loop over a mapping: its names with their counts (as stored, by name, by
        count), written as a walk of the counts alone (`.values()`) or of the names alone
        where the body reads only one of them."""
        w, rng, xs = self.w, self.rng, env.xs
        key, x = (w.name(names) for names in _STOCK_NAMES)
        orders = {"stored": (f"{xs}.items()", f"{xs}.values()", xs),
                  "by name": (f"sorted({xs}.items())", f"sorted({xs}.values())", f"sorted({xs})"),
                  "by count": (f"sorted({xs}.items(), key=lambda kv: kv[1])", f"sorted({xs}.values())",
                               f"sorted({xs}, key={xs}.get)"),
                  "most first": (f"sorted({xs}.items(), key=lambda kv: kv[1], reverse=True)",
                                 f"sorted({xs}.values(), reverse=True)", f"sorted({xs}, key={xs}.get, reverse=True)")}
        usable = [o for o in orders.values() if self.methods(o[0]) and self.methods(o[1])]
        if not usable:  # (the target is items or values) the names, each looked up
            w.line(f"for {key} in {rng.choice((xs, f'sorted({xs})'))}:")
            w.indent += 1
            w.line(f"{x} = {xs}[{key}]")
            self.inner(rest, replace(env, x=x, x_kind="int", key=key, loop_depth=env.loop_depth + 1))
            w.indent -= 1
            return
        items, counts, names = rng.choice(usable)
        start = len(w.lines)
        w.line(f"for {key}, {x} in {items}:")
        w.indent += 1
        self.inner(rest, replace(env, x=x, x_kind="int", key=key, loop_depth=env.loop_depth + 1))
        w.indent -= 1
        body = w.lines[start + 1:]
        if not _mentions(body, key):
            w.lines[start] = w.lines[start].replace(f"for {key}, {x} in {items}:", f"for {x} in {counts}:")
        elif not _mentions(body, x) and self.methods(names):
            w.lines[start] = w.lines[start].replace(f"for {key}, {x} in {items}:", f"for {key} in {names}:")

    def stock_while(self, rest: tuple[str, ...], env: Env) -> None:
        """A while loop over a mapping: its names in order by index, each looked up; or, on
        `WORK_LISTS` of draws, a copy emptied one entry at a time (`popitem`), or its names
        sorted and taken off the end."""
        w, rng, xs = self.w, self.rng, env.xs
        key, x = (w.name(names) for names in _STOCK_NAMES)
        if rng.random() >= WORK_LISTS:  # the names in order, by index, each looked up
            names = w.name(("names", "keys", "ordered"))
            self.index_walk(names, rng.choice((f"sorted({xs})", f"list({xs})", f"sorted({xs}, key={xs}.get)")), key,
                            rest, replace(env, x=x, x_kind="int", key=key, loop_depth=env.loop_depth + 1),
                            looked_up=f"{x} = {xs}[{key}]")
            return
        todo = w.name(("pending", "left", "remaining", "todo"))
        popped = len(self.methods(f"{xs}.copy()", f"{todo}.popitem()")) == 2 and rng.random() < 0.5
        start = ((f'{xs}.copy()', f'dict({xs})') if popped
                 else (f'sorted({xs})', f'list({xs})', f'sorted({xs}, key={xs}.get)'))
        w.line(f"{todo} = {rng.choice(start)}")
        w.line(f"while {todo}:")
        w.indent += 1
        if popped:
            w.line(f"{key}, {x} = {todo}.popitem()")
        else:
            w.line(f"{key} = {todo}.pop()")
            w.line(f"{x} = {xs}[{key}]")
        fetched = len(w.lines)
        self.inner(rest, replace(env, x=x, x_kind="int", key=key, loop_depth=env.loop_depth + 1))
        w.indent -= 1
        if not _mentions(w.lines[fetched:], key):
            if popped:
                w.lines[fetched - 1] = w.lines[fetched - 1].replace(f"{key}, {x} =", f"_, {x} =")

    def index_walk(self, items: str, source: str, x: str, rest: tuple[str, ...], sub: Env,
                   looked_up: str | None = None) -> None:
        """`items = source`, then a while loop over it by index, fetching `x = items[i]`
        (and a value `looked_up` by it: a mapping's count filed under the name); the body
        is written at `sub` with the index."""
        w = self.w
        i = w.name(_ELEM_NAMES["index"])
        w.line(f"{items} = {source}")
        w.line(f"{i} = 0")
        w.line(f"while {i} < len({items}):")
        w.indent += 1
        w.line(f"{x} = {items}[{i}]")
        if looked_up is not None:
            w.line(looked_up)
        fetched = len(w.lines)
        self.inner(rest, replace(sub, i=i) if looked_up is None else sub)
        if looked_up is None:
            _read_once(w.lines, fetched, x)
        w.line(f"{i} += 1")
        w.indent -= 1

    def walk_source(self, style: str, xs: str, ek: str) -> str:
        """What a plain walk goes over besides the list itself: its items ranked (largest
        first), ordered by a key of each, its second half, its two ends inward, its running
        totals, or its few smallest or largest. None calls the target's own name."""
        a, rng = self.rng.randint(2, 4), self.rng
        keys = {"int": ("lambda v: v % 10", "lambda v: -v", "str"), "float": ("round", "lambda p: p % 1"),
                "word": ("len", "lambda w: w[-1]", "str.lower", "lambda w: (len(w), w)")}[ek]
        options = {"ranked": (f"sorted({xs}, reverse=True)",),
                   "bykey": tuple(f"sorted({xs}, key={k})" for k in keys),
                   "half": (f"{xs}[len({xs}) // 2:]", f"{xs}[:len({xs}) // 2]"),
                   "ends": (f"{xs}[:{a}] + {xs}[-{a}:]", f"[{xs}[0], {xs}[-1]]"),
                   "running": (f"itertools.accumulate({xs})",) if ek == "int" else (f"itertools.accumulate({xs}, max)",),
                   "fewest": (f"heapq.nsmallest({a}, {xs})", f"heapq.nlargest({a}, {xs})")}[style]
        return rng.choice(self.methods(*options) or (f"{xs}[::-1]",))

    def while_block(self, rest: tuple[str, ...], env: Env) -> None:
        w, rng = self.w, self.rng
        kept_before = env.prev is not None or env.seen is not None  # the walk reads the element after the body
        env = replace(env, prev=None, seen=None)
        if env.x is not None and env.x_kind in _SHRINKS and not kept_before and self.shrinks \
                and env.shrunk != env.x and rng.random() < SHRINK_WHILES:
            self.shrink_while(rest, env)
            return
        if env.x is None and env.kind == "stock":
            self.stock_while(rest, env)
            return
        if env.x is None and env.kind != "text":
            ek = "float" if env.kind == "prices" else "word" if env.kind == "words" else "int"
            x = w.name(_ELEM_NAMES[ek])
            base = env
            if rng.random() < PURPOSE_WHILES:
                self.purpose_while(rest, base, x, ek)
                w.indent -= 1
                return
            indexed = self.loops > 1 and rng.random() < 0.6
            listed = not indexed and rng.random() >= 0.4 and rng.random() < WORK_LISTS
            style = rng.choice(("list", "list", "sorted", "deque") if listed and self.w.allow_calls else
                               ("list",) if listed else ("walk", "ends", "back", "from1")
                               + (("sorted",) if self.w.allow_calls and not indexed else ()))
            if style == "ends":
                self.two_pointers(rest, base, x, ek)
            elif style in ("walk", "back", "from1"):
                i = w.name(_ELEM_NAMES["index"])
                first, test, step = {"walk": ("0", f"{i} < len({env.xs})", "+="),
                                     "from1": ("1", f"{i} < len({env.xs})", "+="),
                                     "back": (f"len({env.xs}) - 1", f"{i} >= 0", "-=")}[style]
                w.line(f"{i} = {first}")
                w.line(f"while {test}:")
                w.indent += 1
                w.line(f"{x} = {env.xs}[{i}]")
                fetched = len(w.lines)
                prev = f"{env.xs}[{i} - 1]" if style == "from1" else None
                self.inner(rest, replace(base, x=x, x_kind=ek, i=i, prev=prev, loop_depth=env.loop_depth + 1,
                                         spare=True, rising=sorted_order(self.w.lines, env.xs) if prev else None))
                _read_once(w.lines, fetched, x)  # (the fetch goes where only the index reads the data)
                w.line(f"{i} {step} 1")
            elif style == "sorted" and (rng.random() < 0.6 or not listed):  # taken off the large end while a test holds
                self.bounded_pops(rng.choice(("past", "fits")), rest, replace(base, loop_depth=env.loop_depth + 1),
                                  x, ek)
            else:
                todo = w.name(("pending", "queue", "todo", "stack"))
                if style == "deque":
                    self.w.imports.add("collections")
                    w.line(f"{todo} = collections.deque({env.xs})")
                    take = rng.choice(("popleft()", "pop()"))
                else:
                    source = {"list": rng.choice((f"list({env.xs})", f"{env.xs}[:]", f"{env.xs}[::-1]")
                                                 + self.methods(f"{env.xs}.copy()", f"{env.xs}.copy()")),
                              "sorted": f"sorted({env.xs})"}[style]
                    w.line(f"{todo} = {source}")
                    take = rng.choice(("pop()", "pop(0)", "unpack"))
                w.line(f"while {todo}:")
                w.indent += 1
                if take == "unpack":  # the first item off the front, the rest kept
                    w.line(f"{x}, *{todo} = {todo}")
                else:
                    w.line(f"{x} = {todo}.{take}")
                self.inner(rest, replace(base, x=x, x_kind=ek, loop_depth=env.loop_depth + 1,
                                         xs=todo if self.whole_data and style != "deque" else env.xs))
            w.indent -= 1
        elif env.x is None:  # a text: its words as a work list
            todo = w.name(("pending", "queue", "todo"))
            x = w.name(_ELEM_NAMES["word"])
            split = self.words_of(env.xs)
            words = rng.choice((split, split, f"sorted({split})", f"{split}[::-1]")
                               + self.methods(f"{env.xs}.lower().split()" if split == f"{env.xs}.split()" else split))
            style = rng.choice(("list", "iter", "last") + (("enough",) if self.stops_early else ())
                               + (("deque", "partition", "partition", "fits") if w.allow_calls else ())
                               if rng.random() < PURPOSE_WHILES else ("list",) if rng.random() < WORK_LISTS
                               else ("walk", "walk", "iter") + (("partition",) if w.allow_calls else ()))
            sub = replace(env, x=x, x_kind="word", loop_depth=env.loop_depth + 1)
            if style == "walk":  # the words by index
                words_at = w.name(("words", "tokens", "parts"))
                self.index_walk(words_at, words, x, rest, replace(sub, xs=words_at))
                return
            if style == "iter":  # the words one by one off an iterator
                self.iterator_walk(todo, words, x, rest, sub)
                w.indent -= 1
                return
            if style == "fits":  # the longest words taken off until the rest fit a width
                self.bounded_pops("fits", rest, sub, x, "word", words=split)
                w.indent -= 1
                return
            if style == "partition":  # the text parsed word by word off its front (or its back)
                left = w.name(("remaining", "rest", "unread"))
                sep = ", " if ", " in self.data_lit else "," if "," in self.data_lit else " "
                w.line(f"{left} = {env.xs}{rng.choice(('', '', '.strip()', '.lower()'))}")
                w.line(f"while {left}:")
                w.indent += 1
                if rng.random() < 0.7:
                    w.line(f"{x}, _, {left} = {left}.partition({sep!r})")
                else:
                    w.line(f"{left}, _, {x} = {left}.rpartition({sep!r})")
                self.inner(rest, sub)
                w.indent -= 1
                return
            if style == "deque":
                w.line(f"{todo} = collections.deque({words})")
            else:
                w.line(f"{todo} = {words}")
            test = {"last": f"len({todo}) > 1", "enough": f"{todo} and {self.enough()}"}.get(style, todo)
            w.line(f"while {test}:")
            w.indent += 1
            take = rng.choice(("popleft()", "pop()")) if style == "deque" else rng.choice(("pop()", "pop()", "pop(0)"))
            w.line(f"{x} = {todo}.{take}")
            self.inner(rest, sub)
            w.indent -= 1
        elif env.x_kind in ("int", "float") and env.i is not None and rng.random() < 0.35 * WORK_LISTS:
            # the next few, as a work list
            todo, y = w.name(("ahead", "upcoming", "rest")), w.name(("other", "later", "nxt"))
            queue = rng.random() < 0.4 and self.methods("collections.deque(")
            window = f"{env.xs}[{env.i} + 1:{env.i} + {self.span}]"
            w.line(f"{todo} = collections.deque({window})" if queue else f"{todo} = {window}")
            w.line(f"while {todo}:")
            w.indent += 1
            w.line(f"{y} = {todo}.popleft()" if queue else f"{y} = {todo}.pop({rng.choice(('', '0'))})")
            self.inner(rest, replace(env, x=y, i=None, loop_depth=env.loop_depth + 1))
            w.indent -= 1
        elif env.x_kind in ("int", "float") and env.i is not None and rng.random() < 0.3:
            j, y = w.name(("j", "ahead", "nxt_at")), w.name(("other", "later", "nxt"))
            w.line(f"{j} = {env.i} + 1")
            if rng.random() < 0.5:  # the run of items after it that keep rising (falling) past it
                w.line(f"while {j} < len({env.xs}) and {env.xs}[{j}] {rng.choice(('>', '<', '>=', '<='))} {env.x}:")
            else:
                w.line(f"while {j} < min({env.i} + 3, len({env.xs})):")
            w.indent += 1
            w.line(f"{y} = {env.xs}[{j}]")
            self.inner(rest, replace(env, x=y, i=None, loop_depth=env.loop_depth + 1))
            w.line(f"{j} += 1")
            w.indent -= 1
        elif env.x_kind == "digit":  # the digit's Collatz steps down to 1 (a count-down means nothing)
            if env.x == env.halved:
                raise _Miss("the Collatz steps of a number past one digit run long")
            left = w.name(("step", "value", "hop"))
            w.line(f"{left} = {env.x}")
            w.line(f"while {left} > 1:")
            w.indent += 1
            self.inner(rest, replace(env, x=left, x_kind="int", loop_depth=env.loop_depth + 1))
            w.line(f"{left} = {left} // 2 if {left} % 2 == 0 else 3 * {left} + 1")
            w.indent -= 1
        elif env.x_kind in _NUMERIC:  # its digits (by % and //, or divmod), or its halvings
            left = w.name(("left", "rest", "remaining"))
            w.line(f"{left} = {self.magnitude(env.x if env.x_kind == 'int' else f'int({env.x})')}")
            style = rng.choice(("mod", "divmod", "halve") if self.w.allow_calls else ("mod", "halve"))
            if style == "halve":
                w.line(f"while {left} > 1:")
                w.indent += 1
                self.inner(rest, replace(env, x=left, x_kind="digit", halved=left, loop_depth=env.loop_depth + 1))
                w.line(f"{left} //= 2")
            else:
                d = w.name(("digit", "figure"))
                w.line(f"while {left}:" if style == "divmod" else f"while {left} > 0:")
                w.indent += 1
                w.line(f"{left}, {d} = divmod({left}, 10)" if style == "divmod" else f"{d} = {left} % 10")
                self.inner(rest, replace(env, x=d, x_kind="digit", loop_depth=env.loop_depth + 1))
                if style == "mod":
                    w.line(f"{left} //= 10")
            w.indent -= 1
        elif env.x_kind == "char":  # a letter: its places in its word, found one after another
            if env.word is None:
                raise _Miss("while on a letter of no known word")
            at = w.name(("at", "spot", "where", "found_at"))
            if rng.random() < 0.6:
                w.line(f"{at} = {env.word}.find({env.x})")
                nxt = f"{env.word}.find({env.x}, {at} + 1)"
            else:  # from the back
                w.line(f"{at} = {env.word}.rfind({env.x})")
                nxt = f"{env.word}.rfind({env.x}, 0, {at})"
            w.line(f"while {at} != -1:")
            w.indent += 1
            self.inner(rest, replace(env, x=at, x_kind="int", i=None, prev=None, loop_depth=env.loop_depth + 1))
            w.line(f"{at} = {nxt}")
            w.indent -= 1
        elif rng.random() < 0.4:  # a word consumed from the front (or from the back)
            left, ch = w.name(("rest", "left", "remaining")), w.name(_ELEM_NAMES["char"])
            w.line(f"{left} = {env.x}")
            w.line(f"while {left}:")
            w.indent += 1
            back = rng.random() < 0.4
            w.line(f"{ch} = {left}[-1]" if back else f"{ch}, {left} = {left}[0], {left}[1:]")
            self.inner(rest, replace(env, x=ch, x_kind="char", word=env.x, loop_depth=env.loop_depth + 1))
            if back:
                w.line(f"{left} = {left}[:-1]")
            w.indent -= 1
        elif (roll := rng.random()) < PURPOSE_WHILES * (1 + WORK_LISTS) / 2:  # its letters off an iterator, a work list or a deque
            todo, ch = w.name(("letters", "chars", "pending")), w.name(_ELEM_NAMES["char"])
            style = rng.choice(("list",) + (("deque",) if w.allow_calls else ())) \
                if roll < PURPOSE_WHILES * WORK_LISTS else "iter"
            if style == "iter":
                w.line(f"{todo} = iter({env.x})")
                w.line(f"{ch} = next({todo}, '')")
                w.line(f"while {ch}:")
            else:
                w.line(f"{todo} = collections.deque({env.x})" if style == "deque" else f"{todo} = list({env.x})")
                w.line(f"while {todo}:")
            w.indent += 1
            if style != "iter":
                w.line(f"{ch} = {todo}.{rng.choice(('popleft()', 'pop()') if style == 'deque' else ('pop()', 'pop(0)'))}")
            self.inner(rest, replace(env, x=ch, x_kind="char", word=env.x, loop_depth=env.loop_depth + 1))
            if style == "iter":
                w.line(f"{ch} = next({todo}, '')")
            w.indent -= 1
        else:  # a word or a character string: walk its letters
            j, ch = w.name(("j", "at", "cursor")), w.name(_ELEM_NAMES["char"])
            w.line(f"{j} = 0")
            w.line(f"while {j} < len({env.x}):")
            w.indent += 1
            w.line(f"{ch} = {env.x}[{j}]")
            self.inner(rest, replace(env, x=ch, x_kind="char", word=env.x, loop_depth=env.loop_depth + 1))
            w.line(f"{j} += 1")
            w.indent -= 1

    def shrink_while(self, rest: tuple[str, ...], env: Env) -> None:
        """A loop that wears the element down until a test on it fails (a number halved or
        reduced to its digit sum, a price halved, a word losing its first letter or its
        trailing vowels): two lines of scaffolding, and each pass reads a new value."""
        w, x, rng = self.w, env.x, self.rng
        values = {"x": x, "a10": rng.randint(8, 12), "v": repr(rng.choice("aeo")), "k": rng.choice((2, 3))}
        forms = [(t.format(**values), step.format(**values)) for t, step in _SHRINKS[env.x_kind]
                 if self.w.allow_calls or not _calls(t + step)]
        forms = [f for f in forms if not any(re.search(rf"\b{b}\(", f[0] + f[1]) for b in self.banned)]
        if not forms:
            raise _Miss("shrink")
        test, step = rng.choice(forms)
        w.line(f"while {test}:")
        w.indent += 1
        self.inner(rest, replace(env, loop_depth=env.loop_depth + 1, shrunk=x))
        w.line(step)
        w.indent -= 1

    def words_of(self, text: str) -> str:
        """A text's words: split at commas too where the data has them (`'maple,stone'` is
        two words, not one): commas read as spaces, the runs of letters and digits found
        (`re.findall`), or, where a space follows every comma, each word's comma stripped."""
        if "," not in self.data_lit:
            return f"{text}.split()"
        options = self.methods(f"{text}.replace(',', ' ').split()", f"re.findall(r'\\w+', {text})")
        if ", " in self.data_lit and "," not in self.data_lit.replace(", ", ""):
            options += self.methods(f"[w.strip(',') for w in {text}.split()]")
        return self.rng.choice(options) if options else f"{text}.split()"

    def purpose_while(self, rest: tuple[str, ...], env: Env, x: str, ek: str) -> None:
        """A while loop whose test says why it stops: a jump walk (each item says how far
        to move), a walk that stops once the result holds enough, a hand-driven iterator,
        the smallest items first off a heap, or a stack worked down to its last item."""
        w, rng, xs = self.w, self.rng, env.xs
        order = self.acc_kind in ("list", "parts", "text")  # a result that keeps the items' order
        styles = ("jump", "iter", "shrink") + (("enough", "enough") if self.stops_early and not self.unset else ()) \
            + (("heap",) * 2 if order and w.allow_calls else ()) + (("past", "fits") if w.allow_calls else ())
        style = rng.choice(styles)
        sub = replace(env, x=x, x_kind=ek, loop_depth=env.loop_depth + 1)
        if style in ("past", "fits"):
            self.bounded_pops(style, rest, sub, x, ek)
            return
        if style in ("jump", "enough"):
            i = w.name(_ELEM_NAMES["index"])
            w.line(f"{i} = 0")
            if style == "enough":
                w.line(f"while {i} < len({xs}) and {self.enough()}:")
            else:
                w.line(f"while {i} < len({xs}):")
            w.indent += 1
            w.line(f"{x} = {xs}[{i}]")
            fetched = len(w.lines)
            self.inner(rest, replace(sub, i=i, spare=style == "enough"))
            if style == "jump":  # each item says how far to move on
                size = {"int": x, "float": f"int({x})", "word": f"len({x})"}[ek]
                w.line(rng.choice((f"{i} += {size} % {rng.choice((2, 3))} + 1", f"{i} += 1 + {size} % 2")))
            else:
                _read_once(w.lines, fetched, x)  # (the fetch goes where only the index reads the data)
                w.line(f"{i} += 1")
            return
        if style == "iter":
            self.iterator_walk(w.name(("it", "stream", "feed")), xs, x, rest, sub)
            return
        todo = w.name(("heap", "pending", "stack", "pile"))
        if style == "heap":
            w.line(f"{todo} = list({xs})")
            w.line(f"heapq.heapify({todo})")
            w.line(f"while {todo}:")
            w.indent += 1
            w.line(f"{x} = heapq.heappop({todo})")
        else:  # all but the last item left on the stack
            w.line(f"{todo} = {rng.choice((f'sorted({xs})', f'list({xs})'))}")
            w.line(f"while len({todo}) > {rng.choice((1, 1, 2))}:")
            w.indent += 1
            w.line(f"{x} = {todo}.pop()")
        self.inner(rest, replace(sub, xs=todo if self.whole_data else xs))

    def bounded_pops(self, style: str, rest: tuple[str, ...], sub: Env, x: str, ek: str,
                     words: str | None = None) -> None:
        """The data sorted, then taken off its large end while the test on the data holds:
        the items past a bound (`while pile and pile[-1] > limit`), or the largest ones
        until the rest fits a budget (`while sum(pile) > 40`, the longest words until the
        rest fit a width); the test says why the walk stops. Leaves the body's indent open."""
        w, rng, xs = self.w, self.rng, words or sub.xs  # words: a text's, the text itself stays the data
        todo = w.name(("pile", "ranked", "rest", "left"))
        a = rng.randint(3, 5) if words is None else rng.randint(2, 3)
        if ek == "word":
            w.line(f"{todo} = sorted({xs}, key=len)" if style == "fits" or rng.random() < 0.5 else f"{todo} = sorted({xs})")
            if style == "fits":
                test = rng.choice((f"sum(map(len, {todo})) > {a * 4}", f"len(''.join({todo})) > {a * 4}"))
            elif w.lines[-1].endswith("key=len)"):
                test = f"{todo} and len({todo}[-1]) > {rng.choice((4, 5))}"
            else:
                test = f"{todo} and {todo}[-1] > {rng.choice(_LETTER_BOUNDS)!r}"
        else:
            w.line(f"{todo} = sorted({xs})")
            bound = self.limit if self.limit is not None and rng.random() < 0.6 else \
                str(rng.randint(8, 12)) if ek == "int" else f"{rng.randint(8, 12)}.0"
            if style == "fits":
                test = f"sum({todo}) > {bound} * {a}" if bound == self.limit else \
                    f"sum({todo}) > {int(float(bound)) * a}"
            else:
                test = f"{todo} and {todo}[-1] > {bound}"
        w.line(f"while {test}:")
        w.indent += 1
        w.line(f"{x} = {todo}.pop()")
        self.inner(rest, replace(sub, xs=todo) if self.whole_data and words is None else sub)

    def enough(self) -> str:
        """A walk's stop: the result holds enough (a total past a bound, a few items found)."""
        acc, a = self.acc, self.rng.randint(3, 5)
        return {"number": f"{acc} < {self.n()} * {a * 3}", "best": f"{acc} < {self.n()} * {a}",
                "list": f"len({acc}) < {a}", "parts": f"len({acc}) < {a}", "set": f"len({acc}) < {a}",
                "counts": f"len({acc}) < {a}", "text": f"len({acc}) < {a * 4}",
                "tally": f"len({acc}) < {a}", "groups": f"len({acc}) < {a}"}.get(self.acc_kind, f"len({acc}) < {a}")

    def iterator_walk(self, it: str, source: str, x: str, rest: tuple[str, ...], sub: Env) -> None:
        """The items of `source` one by one off an iterator, `None` marking the end (the
        data here holds no None); leaves the body's indent open for the caller."""
        w = self.w
        w.line(f"{it} = iter({source})")
        w.line(f"{x} = next({it}, None)")
        w.line(f"while {x} is not None:")
        w.indent += 1
        self.inner(rest, sub)
        w.line(f"{x} = next({it}, None)")

    def two_pointers(self, rest: tuple[str, ...], env: Env, x: str, ek: str) -> None:
        """A walk from both ends to the middle: the item at the front is the element (its
        index the front pointer), the one at the back its partner (read as `prev`)."""
        w, xs = self.w, env.xs
        lo, hi = w.name(("lo", "left_at", "front")), w.name(("hi", "right_at", "back"))
        w.line(f"{lo}, {hi} = 0, len({xs}) - 1")
        w.line(f"while {lo} {self.rng.choice(('<', '<='))} {hi}:")
        w.indent += 1
        w.line(f"{x} = {xs}[{lo}]")
        fetched = len(w.lines)
        order = sorted_order(self.w.lines, xs)  # (the partner is the back item: the front never passes it)
        self.inner(rest, replace(env, x=x, x_kind=ek, i=lo, prev=f"{xs}[{hi}]", loop_depth=env.loop_depth + 1,
                                 rising=None if order is None else not order))
        _read_once(w.lines, fetched, x)  # (the fetch goes where only the index reads the data)
        if self.rng.random() < 0.5:
            w.line(f"{lo}, {hi} = {lo} + 1, {hi} - 1")
        else:
            w.line(f"{lo} += 1")
            w.line(f"{hi} -= 1")

    def condition(self, env: Env, families: set[str]) -> tuple[str, str]:
        """(test, family): a family no enclosing or earlier test on this value used."""
        if self.tested and env.x is None and not self.test_written:
            self.test_written = True
            return self.helper_test(), "helper"
        if self.subtask and self.sub_lines is None and env.x is not None and env.loop_depth == 1:
            split_off = self.split_test(env)
            if split_off is not None:
                return split_off, "helper"
        group = env.x_kind if env.x is not None else "data"
        if group == "data" and len(families) >= DATA_TESTS:
            raise _Miss("tests on the whole input nest this deep rarely run every arm")
        calls = self.w.allow_calls
        table = dict(_COND[group]) if not (group == "data" and env.kind == "stock") else {}
        if env.x is None:
            table.update(_DATA_COND[env.kind])
        elif self.top_xs is not None and env.loop_depth and self.kind == "stock":
            table.update(_STOCK_TOP_COND.get(group, {}))
        elif self.top_xs is not None and env.loop_depth and self.kind != "text":
            table.update(_TOP_COND.get(group, {}))
        if env.key is not None:  # a walk over a mapping's items: its name tested too
            table["key"] = _KEY_COND
        options = [(f, t) for f, ts in table.items() if f not in families for t in ts
                   if (calls or not _calls(t))
                   and not any(re.search(rf"\b{b}\(", t) for b in self.banned)]
        if env.prev is not None and "prev" not in families and group in _PREV_COND:
            decided = _ORDER_DECIDES.get(env.rising, ())  # a step against the data's own order never comes
            near = [("prev", t) for t in _PREV_COND[group] if t not in self.w.conds and t not in decided]
            if near and (self.rng.random() < 0.6 or not options):  # a loop that keeps the item before reads it
                options = near
            else:
                options += near
        if env.seen is not None and "seen" not in families:
            met = [("seen", t) for t in ("{x} in {s}", "{x} not in {s}") if t not in self.w.conds]
            if met and (self.rng.random() < 0.6 or not options):  # a loop that keeps a set of the items reads it
                options = met
        if env.x is not None and "acc" not in families and env.loop_depth:
            size = _size(env.x, env.x_kind)
            tests = ("{acc} is None or {acc} < {size}",) if self.unset else _ACC_COND[self.acc_kind]
            options += [("acc", t.replace("{size}", size)) for t in tests]
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
                .replace("{v}", repr(rng.choice("aeiou"))).replace("{m}", repr(rng.choice("hjkmnp")))
                .replace("{b}", repr(rng.choice("aopcsr"))).replace("{word}", repr(rng.choice(_WORDS))).replace("{e}", repr(rng.choice("ernt")))
                .replace("{p}", env.prev or "").replace("{s}", env.seen or "").replace("{top}", self.top_xs or "")
                .replace("{key}", env.key or ""))
        return self.render(env, text), family

    def if_block(self, rest: tuple[str, ...], env: Env, chained: bool) -> None:
        w, rng = self.w, self.rng
        key = env.x or ""
        outer = self.families.setdefault(key, set())
        marked = len(w.conds)
        first, fam = self.condition(env, outer)
        tests, fams = [first], {fam}
        if env.x is not None and rng.random() < JOINED_TESTS:  # two tests on the element joined
            try:
                other, fam2 = self.condition(env, outer | fams)
            except _Miss:
                pass
            else:
                tests[0] = f"{first} {rng.choice(('and', 'and', 'or'))} {other}"
                fams.add(fam2)
        if chained:
            second, fam2 = self.condition(env, outer | fams)
            tests.append(second)
            fams.add(fam2)
        outer |= fams
        deep = rng.randrange(len(tests))
        # an else under a test of the whole input needs one more input to run: rarer there
        with_else = rng.random() < ELSE_ARMS * (0.6 if chained else 1) * (0.3 if env.x is None else 1) \
            or (not rest and not chained and env.x is not None and self.use.split)  # the split's other side
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
                if not rest and env.loop_depth and rng.random() < EARLY_RETURN:  # a search: stop at the first find
                    if self.acc_kind in ("number", "list"):
                        w.line(f"return {self.finish()}")
            elif env.loop_depth and b > deep and rng.random() < STOP_ARMS:
                w.line("break")  # a walk that ends at the first item the later test finds
            else:
                self.simple(env, alternative=b % 2 == 1)
            w.indent -= 1
        self.open_tests |= not with_else
        if with_else:
            w.line("else:")
            w.indent += 1
            if deep == len(tests):
                self.inner(rest, env)
            else:
                self.simple(env, alternative=True)
            w.indent -= 1
        del w.conds[marked:]
        outer -= fams

    def split_test(self, env: Env) -> str | None:
        """C6: a test on the current element written as a helper of its own (one that
        tells the call's own items apart), or None where none fits."""
        pool = [h for h in TESTS.get(env.x_kind or "", ()) if h.name not in self.w.taken]
        data = ast.literal_eval(self.data_lit)
        words = data.replace(",", " ").split() if isinstance(data, str) else list(data)
        if isinstance(data, dict):  # a mapping walk's element is a count
            data = list(data.values())
        sample = {"int": data, "float": data, "word": words, "char": list("".join(map(str, words))),
                  "digit": [int(d) for v in data if isinstance(v, int) for d in str(abs(v))]}.get(env.x_kind or "")
        fits = [h for h in pool if sample and splits(h, sample)]
        if not fits:
            return None
        chosen = self.rng.choice(fits)
        self.w.taken.add(chosen.name)
        self.sub_lines = chosen.lines
        return f"{'not ' if self.rng.random() < 0.25 else ''}{chosen.name}({env.x})"

    def counted(self, e: str) -> str:
        """A number that seeds the result from a use that gives a collection: its size, or,
        when the use maps its items (`[p.strip() for p in parts]`, whose values `len` would
        throw away), the total of what it maps them to (`sum(len(p.strip()) for p in
        parts)`, `sum(sum(xs[:j]) for j in ...)`), as its value on the call's input says."""
        tree = ast.parse(e, mode="eval").body
        if e == self.called and self.helper_src:  # C6: the helper's list, when it maps, is totalled
            return self.totalled(e)
        if not isinstance(tree, ast.ListComp) or not discarded(tree):
            return f"len({e})"
        try:
            items = self.evaluate(e)
        except Exception:  # noqa: BLE001 - a value the params cannot give: left to the gate
            return f"len({e})"
        if items and all(type(v) in (int, float) for v in items):
            elt = tree.elt
        elif items and all(isinstance(v, (str, list, tuple)) for v in items):
            elt = ast.Call(ast.Name("len"), [tree.elt], [])
        else:
            return f"len({e})"
        return ast.unparse(ast.Call(ast.Name("sum"), [ast.GeneratorExp(elt, tree.generators)], []))

    def totalled(self, call: str) -> str:
        """The C6 helper's list as a number: the total of its items (their lengths, for
        texts) where its return maps values (`len(helper(...))` would throw them away, as
        `discarded` says of the same expression written in place), else its size."""
        returned = [n.value for n in ast.walk(ast.parse(self.helper_src)) if isinstance(n, ast.Return)]
        if not (returned and isinstance(returned[-1], ast.ListComp) and discarded(returned[-1])):
            return f"len({call})"
        try:
            items = self.evaluate(call)
        except Exception:  # noqa: BLE001 - a call on a loop's element: told by the data's kind
            items = None
        if isinstance(items, list) and items:
            numbers = all(type(v) in (int, float) for v in items)
            texts = all(isinstance(v, (str, list, tuple)) for v in items)
        else:  # (the self-check's runs tell a wrong guess: the sum raises)
            numbers, texts = self.kind in ("ints", "prices"), self.kind in ("text", "words")
        return f"sum({call})" if numbers else f"sum(map(len, {call}))" if texts else f"len({call})"

    def helper_value(self) -> object | None:
        """The C6 helper's value on the call's own input (None when it cannot be told)."""
        try:
            return self.evaluate(self.called)
        except Exception:  # noqa: BLE001 - a value the params cannot give
            return None

    def evaluate(self, text: str) -> object:
        """`text` on the call's own input, with the helper defined."""
        space = stdlib_space()
        exec(compile(self.helper_src, "<helper>", "exec"), space)  # noqa: S102 - our own lines
        space.update({n: ast.literal_eval(lit) for n, lit in self.w.params})
        return eval(text, space)  # noqa: S307 - our own text

    @staticmethod
    def item_kind(value: object) -> str | None:
        """The element kind of a helper's value a loop can walk in a fixed order (a list,
        tuple or text of numbers or words), else None."""
        if isinstance(value, str):
            return "char" if len(value) > 1 else None
        if not isinstance(value, (list, tuple)) or len(value) < 2:
            return None
        kinds = {type(v) for v in value}
        if kinds == {int}:
            return "int"
        if kinds <= {int, float} and float in kinds:
            return "float"
        if kinds == {str} and all(value):
            return "word" if any(len(v) > 1 for v in value) else "char"
        return None

    def helper_test(self) -> str:
        """A test on the helper's value over the whole input, its bound taken from the
        call's own input so that inputs near it fall on either side."""
        call, value, rng = self.called, self.helper_value(), self.rng
        if isinstance(value, bool):
            return rng.choice((call, f"not {call}"))
        if isinstance(value, (int, float)):
            bound = value + rng.choice((-1, 1)) if isinstance(value, int) else round(value, 1)
            return rng.choice((f"{call} > {bound}", f"{call} < {bound}", f"{call} >= {bound}"))
        size = len(value) if hasattr(value, "__len__") else 0  # type: ignore[arg-type]
        if size <= 1:  # an empty result or not
            return rng.choice((call, f"not {call}"))
        return rng.choice((f"len({call}) > {size - 1}", f"len({call}) < {size + 1}", f"len({call}) >= {size}"))

    def truth(self, test: str) -> bool | None:
        """The test's value on the call's own input (None when it cannot be told)."""
        if self.tested and self.called in test:  # the helper's own test
            try:
                return bool(self.evaluate(test))
            except Exception:  # noqa: BLE001 - a test on a name the params lack
                return None
        try:
            space = {n: ast.literal_eval(lit) for n, lit in self.w.params}
            builtins = {"len": len, "sum": sum, "max": max, "min": min, "set": set, "sorted": sorted, "any": any}
            return bool(eval(test, {"__builtins__": builtins}, space))  # noqa: S307 - our own test text
        except Exception:  # noqa: BLE001 - a test on a name the params lack
            return None

    def deep(self, env: Env) -> None:
        if self.direct_mode:
            e = self.expr(env)
            self.w.line(f"return {f'sorted({e})' if self.use.rtype == 'set' else e}")
            return
        if self.hoisted:
            self.simple(env, variant=len(self.w.lines))
            return
        if self.whole_data and env.loop_depth and self.kind != "stock":  # in a walk: the few items from here on
            if env.i is not None:
                env = replace(env, xs=f"{env.xs}[{env.i}:{env.i} + {self.span}]")
            else:
                env = replace(env, xs=f"{env.xs}[-{self.span}:]")
        e = self.expr(env)
        acc, rt, kind = self.acc, self.use.rtype, self.acc_kind
        if kind == "number":
            if rt == "int" and self.folding() != "sum":
                self.w.line(self.fold(e))
            elif rt in ("int", "float"):
                self.w.line(self.pick((f"{acc} += {e}", f"{acc} += {e}", f"{acc} -= {e}", f"{acc} = {acc} + {e}")))
            elif rt == "bool":
                self.w.line(f"{acc} += 1 if {e} else 0")
            elif rt == "list" and self.kind in ("ints", "prices") and "str" not in e and "'" not in e:
                self.w.line(f"{acc} += sum({e})")
            else:
                self.w.line(f"{acc} += {self.totalled(e) if self.helper_call is not None else f'len({e})'}")
        elif kind == "best":
            if self.unset and len(e) > 24:  # a long value is named once, then compared
                value = self.w.name(("value", "candidate", "measured"))
                self.w.line(f"{value} = {e}")
                e = value
            self.w.line(self.pick((f"{acc} = {e} if {acc} is None else max({acc}, {e})",
                                   f"{acc} = {e} if {acc} is None or {e} > {acc} else {acc}"))
                        if self.unset else f"{acc} = max({acc}, {e})")
        elif kind == "counts":
            key = env.x if env.x is not None else repr("all")
            self.w.line(f"{acc}[{key}] = {acc}.get({key}, 0) + {e}")
        elif kind in ("tally", "groups"):
            self.w.line(self.keyed(env, e, rt))
        elif kind == "set":
            self.w.line(self.pick((f"{acc} |= {e}", f"{acc}.update({e})")) if rt == "set" else f"{acc}.add({e})")
        elif kind == "text":
            self.w.line(f"{acc} += {e}" if rt == "str" else f"{acc} += str({e})")
        elif kind == "parts":
            tagged = f"f'{{{env.x}}}={{{e}}}'" if env.x is not None and not re.search(r"""['"{}\\]""", e) else None
            self.w.line(self.pick((f"{acc}.append({e})", f"{acc}.append({e})", f"{acc}.insert(0, {e})")
                                  + ((f"{acc}.append({tagged})",) if tagged else ())))
        elif rt == "set":
            self.w.line(f"{acc}.extend(sorted({e}))")
        else:
            if rt == "list" and self.rng.random() < 0.6:
                self.w.line(self.rng.choice((f"{acc}.extend({e})", f"{acc} += {e}")))
            else:
                pair = (f"{acc}.append(({env.i}, {e}))",) if env.i is not None else ()
                self.w.line(self.pick((f"{acc}.append({e})", f"{acc}.append({e})", f"{acc} += [{e}]",
                                       f"{acc}.insert(0, {e})") + pair))

    def pick(self, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def word_forms(self, x: str, count: int) -> tuple[str, ...]:
        """`count` ways a word is reshaped before it is kept: a cut (its vowels stripped off
        the ends, a letter removed, reversed, up to a letter) then a case or a padding
        (`word.strip('aeiou').upper()`, `word[::-1].ljust(8, '.')`). None where the level
        allows no other call."""
        rng = self.rng
        v, n = repr(rng.choice("aeo")), rng.randint(6, 9)
        cuts = (f"{x}.strip('aeiou')", f"{x}.rstrip('s')", f"{x}.replace({v}, '')", f"{x}[::-1]",
                f"{x}.partition({v})[0]", f"{x}.removeprefix({v})", f"{x}[1:]", f"{x}.split({v})[-1]")
        shapes = ("{c}.upper()", "{c}.title()", "{c}.capitalize()", "{c}.center(%d, '*')" % n,
                  "{c}.ljust(%d, '.')" % n, "{c}.rjust(%d)" % n, "{c}.zfill(%d)" % n)
        made = tuple(rng.choice(shapes).format(c=rng.choice(cuts)) for _ in range(count))
        return self.methods(*made)

    fold_style: str | None = None

    def folding(self) -> str:
        """How this program folds whole numbers into a number result (one way per program):
        summed, XORed into a checksum, hashed (`(h * 31 + v) % 1009`), or squared and summed."""
        if self.fold_style is None:
            self.fold_style = self.rng.choice(("sum",) * 3 + ("xor", "hash", "squares"))
        return self.fold_style

    def fold(self, value: str) -> str:
        acc = self.acc
        simple = re.fullmatch(r"[\w.]+(\([\w., ']*\))?(\[[\w-]+\])?", value) is not None  # (one operand: no parentheses)
        return {"xor": f"{acc} ^= {value}", "hash": f"{acc} = ({acc} * 31 + {value}) % 1009",
                "squares": (f"{acc} += {value} * {value}" if value.isidentifier() else f"{acc} += {value} ** 2")
                if simple else f"{acc} += ({value}) ** 2",
                "sum": f"{acc} += {value}"}[self.folding()]

    keys: dict[str, str] | None = None

    def key(self, env: Env) -> str:
        """What a keyed result files the current element under (one rule per kind of
        element in a program; every rule gives a number or a truth value, so keys sort)."""
        if self.keys is None:
            self.keys = {}
        xk = env.x_kind or "data"
        if xk not in self.keys:
            k = self.rng.choice((2, 3, 4, 5))
            rules = {"int": ("{x} % {k}", "{x} // 10", "{x} % 2 == 0", "{x} // {k}"),
                     "digit": ("{x} % 2", "{x}", "{x} % {k}"),
                     "float": ("round({x})", "int({x}) // {k}", "int({x}) % {k}"),
                     "word": ("len({x})", "len({x}) % {k}", "{x}.count('a')", "len(set({x}))"),
                     "char": ("{x} in 'aeiou'", "{x} < 'n'", "{x}.isupper()", "{x} in 'rstlne'"),
                     "data": ("len({x})",)}[xk]
            self.keys[xk] = self.rng.choice(self.methods(*rules) or rules[:1]).replace("{k}", str(k))
        return self.keys[xk].replace("{x}", env.x or env.xs)

    def group_add(self, key: str, value: str) -> str:
        acc = self.acc
        return f"{acc}[{key}].append({value})" if self.defaulted else f"{acc}.setdefault({key}, []).append({value})"

    def keyed(self, env: Env, e: str, rt: str) -> str:
        """The use's value filed under the current element's key (counted, or kept in its group)."""
        acc = self.acc
        key = env.key or (self.key(env) if env.x is not None else f"len({env.xs})")
        if self.acc_kind == "groups":
            return self.group_add(key, f"sorted({e})" if rt == "set" else e)
        if rt in ("int", "float", "bool"):
            return self.pick((f"{acc}[{key}] += {e}",) * 2 + ((f"{acc}[{e}] += 1",) if rt != "float" else ()))
        if rt == "str":
            return self.pick((f"{acc}[{e}] += 1",) + self.methods(f"{acc}.update({e}.split())", f"{acc}.update([{e}])"))
        return f"{acc}.update({e})"

    def other_arm(self, options: tuple[str, ...], v: int) -> str:
        """The v-th contribution (from this program's shift), never the line the arm before wrote."""
        k = (v + self.shift) % len(options)
        if options[k] in (t.strip() for t in self.w.lines[-3:]) and len(options) > 1:
            k = (k + 1) % len(options)
        return options[k]

    def simple(self, env: Env, alternative: bool = False, variant: int | None = None) -> None:
        """The current element's own contribution, as the accumulator takes it."""
        x, xk, acc, kind = env.x, env.x_kind, self.acc, self.acc_kind
        v = variant if variant is not None else (len(self.w.lines) + int(alternative))
        if self.direct_mode:
            self.w.line(f"return {self.returned(self.fallbacks(env.xs), v)}")
            return
        if x is None:
            xs = env.xs
            head, tail = f"{xs}[0]", f"{xs}[-1]"
            if self.kind == "text":
                head, tail = f"len({xs})", f"{xs}.count(' ')"
            elif self.kind == "stock":  # how many names, how many items in all
                head, tail = f"len({xs})", f"sum({xs}.values())" if self.w.allow_calls else f"len({xs})"
            pick = tail if v % 2 else head
            if self.kind == "words":
                pick = f"len({pick})"
            # a value of the whole input, as the accumulator takes it
            calls = self.w.allow_calls
            whole = {"ints": (f"len({xs})", f"{xs}[0] * 2") + ((f"max({xs})", f"min({xs})", f"sum({xs}[:2])") if calls else ()),
                     "prices": (f"{xs}[-1] - {xs}[0]",) + ((f"max({xs})", f"round(min({xs}))") if calls else ()),
                     "words": (f"len({xs})", f"len({xs}[-1]) - len({xs}[0])")
                     + ((f"len(max({xs}, key=len))", f"len(min({xs}))") if calls else ()),
                     "text": (f"len({xs})",) + ((f"len({xs}.split())", f"{xs}.count(',')") if calls else ()),
                     "stock": (f"len({xs})",) + self.methods(f"max({xs}.values())", f"min({xs}.values())",
                                                             f"list({xs}.values()).count(0)")}[self.kind]
            other = whole[v % len(whole)]
            parts = (f"min({xs})", f"max({xs}).upper()") if self.kind == "stock" else \
                (f"{xs}[0]", f"{xs}[-1].upper()") if self.kind == "words" else \
                ((f"{xs}[:{self.span}]", f"{xs}.split()[0]" if calls else f"{xs}[-2:]") if self.kind == "text" else
                 (f"str({pick})", f"str({other})"))
            options = {"number": (f"{acc} += {pick}", f"{acc} -= {pick}", f"{acc} += {other}", f"{acc} -= {other}"),
                       "best": (f"{acc} = max({acc}, {pick})", f"{acc} = min({acc}, {pick})")
                       if self.hoisted else (f"{acc} = {pick} if {acc} is None else max({acc}, {pick})",
                                             f"{acc} = {other} if {acc} is None else max({acc}, {other})")
                       if self.unset else (f"{acc} = max({acc}, {pick})", f"{acc} = max({acc}, {other})"),
                       "counts": (f"{acc}[len({xs})] = {pick}", f"{acc}[{pick}] = {other}"),
                       "parts": (f"{acc}.append(str({pick}))", f"{acc}.insert(0, str({pick}))")
                       + tuple(f"{acc}.append({o})" for o in parts),
                       "list": (f"{acc}.append({pick})", f"{acc}.insert(0, {pick})", f"{acc}.append({other})",
                                f"{acc}.insert(0, {other})"),
                       "set": ((f"{acc}.add(str({pick}))", f"{acc}.add(str({other}))") if self.use.rtype == "str"
                               else (f"{acc}.add({pick})", f"{acc}.add({other})")),
                       "text": (f"{acc} += str({pick})", f"{acc} += str({other})"),
                       "tally": (f"{acc}[len({xs})] += 1", f"{acc}[len({xs})] += {pick}"),
                       "groups": (self.group_add(f"len({xs})", pick), self.group_add(f"len({xs})", other))}[kind]
            self.w.line(self.other_arm(options, v))
            return
        size = _size(x, xk)
        a = self.rng.randint(2, 5)
        vowel = repr(self.rng.choice("aeo"))
        i, p = env.i, env.prev
        gap = (f"{x} - {p}" if xk in _NUMERIC else f"ord({x}) - ord({p})" if xk == "char"
               else f"len({x}) - len({p})") if p is not None else None
        if kind == "number" and xk != "float" and self.use.rtype != "float" and self.folding() != "sum":
            options = (self.fold(size), self.fold(f"{size} % {a}"))
            options += (self.fold(i),) if i is not None else ()
        elif kind == "number":
            options = (f"{acc} += {size}", f"{acc} -= {size}", f"{acc} += {size} // {a}" if xk != "float"
                       else f"{acc} += {x} / {a}", f"{acc} += {size} * {a}", f"{acc} -= {size} % {a}")
            options += ((f"{acc} += {gap}", f"{acc} += abs({gap})") if gap else ()) + \
                ((f"{acc} += {i} * {size}",) if i is not None else ())
            # a word's letters counted, a price rounded down or up to whole units
            options += (self.methods(f"{acc} += {x}.count({vowel})") if xk == "word" else
                        self.methods(f"{acc} += math.floor({x})", f"{acc} += math.ceil({x})") if xk == "float" else ())
        elif kind == "best":
            options = (f"{acc} = max({acc}, {size})", f"{acc} = {size} if {size} > {acc} else {acc}") + \
                ((f"{acc} = min({acc}, {size})",) if self.hoisted else ())  # (a best that starts at 0 only grows)
            options += (f"{acc} = max({acc}, {gap})",) if gap else ()
            if self.unset:
                options = (f"{acc} = {size} if {acc} is None or {size} > {acc} else {acc}",
                           f"{acc} = {size} if {acc} is None else max({acc}, {size})") + \
                    ((f"{acc} = {gap} if {acc} is None else max({acc}, {gap})",) if gap else ())
        elif kind == "counts":
            keys = (x, f"{x} % {a}") if xk in ("int", "digit") else (f"{x}[0]", x) if xk == "word" else (x,)
            options = (f"{acc}[{keys[0]}] = {acc}.get({keys[0]}, 0) + 1", f"{acc}[{keys[-1]}] = {acc}.get({keys[-1]}, 0) - 1")
            options += ((f"{acc}[{x}] = {i}",) if i is not None else ()) + \
                ((f"{acc}[{keys[-1]}] = {acc}.get({keys[-1]}, 0) + {size}",) if xk != "char" else ())
        elif kind == "set":  # items of the use's own type, so the set sorts
            if self.use.rtype == "str":
                items = ((x, f"{x}.upper()", f"{x}[:2]") + self.methods(f"{x}.capitalize()") if xk in ("word", "char")
                         else (f"str({x})",) + self.methods(f"str({x}).zfill(3)"))
            elif self.use.rtype == "int":
                items = (x, f"{x} % {a}", f"{x} // {a}") if xk in ("int", "digit") else (size,)
            else:
                items = (size,)
            options = tuple(f"{acc}.add({o})" for o in items)
        elif kind in ("tally", "groups"):
            key = env.key or self.key(env)
            if kind == "tally":
                options = (f"{acc}[{key}] += 1", f"{acc}[{key}] -= 1", f"{acc}[{key}] += {size}")
            else:
                options = (self.group_add(key, x), self.group_add(key, size))
        elif kind == "text":
            options = ((f"{acc} += {x}", f"{acc} += {x}.upper()")
                       + ((f"{acc} += {x}[0]",) + self.methods(f"{acc} += {x}.capitalize()") if xk == "word" else ())
                       if xk in ("word", "char") else (f"{acc} += str({x})", f"{acc} += str({x} % 10)"))
        elif kind == "parts":
            options = ((x, f"{x}.upper()", f"{x}[::-1]" if xk == "word" else f"{x} * {a}")
                       + ((f"{x}.title()", f"{x}[:{a}]") + self.methods(f"{x}.capitalize()", f"{x}.replace({vowel}, '')")
                          + self.word_forms(x, 3) if xk == "word" else ())
                       if xk in ("word", "char")
                       else (f"str({x})", f"str({x} * 2)", f"f'<{{{x}}}>'")
                       + self.methods(f"str({x}).zfill(3)" if xk != "float" else f"str(round({x})).rjust(3)"))
            options += (f"f'{{{i}}}:{{{x}}}'",) if i is not None else ()
            options += (f"f'{{{p}}}-{{{x}}}'",) if p is not None and xk in ("word", "char") else ()
            options = tuple(f"{acc}.append({o})" for o in options)
        else:
            numbers = ((x, f"-{x}", f"{x} * {a}", f"{x} - {a}") + (self.methods(f"math.floor({x})") if xk == "float" else ())
                       if xk in _NUMERIC else (size,) + self.methods(f"{x}.count({vowel})")) + ((gap,) if gap else ())
            texts = ((f"str({x})",) if xk in _NUMERIC else
                     (x, f"{x}.upper()", f"{x}[:{a}]" if xk == "word" else f"{x} * {a}")
                     + self.methods(f"{x}.capitalize()") + (self.word_forms(x, 2) if xk == "word" else ()))
            pairs = ((f"({i}, {x})",) if i is not None else ()) + ((f"({p}, {x})",) if p is not None else ())
            # the items keep the use's own type where the result is sorted (ints with words do not sort)
            options = {"int": numbers, "float": numbers, "str": texts}.get(self.use.rtype, numbers + texts + pairs)
            options = tuple(f"{acc}.append({o})" for o in options)
            if (xk in _NUMERIC) == (self.use.rtype in ("int", "float")) or self.use.rtype not in ("int", "float", "str"):
                options += (f"{acc}.insert(0, {x})",)
        if env.key is not None:  # a count in a mapping: the name it is filed under may be what is kept
            options += self.named_options(env)
        self.w.line(self.other_arm(options, v))

    def named_options(self, env: Env) -> tuple[str, ...]:
        """What a result takes of the name a mapping's count is filed under (the name, the
        two as a pair or a line), in the result's own type."""
        acc, key, x, rt = self.acc, env.key, env.x, self.use.rtype
        return {"list": (f"{acc}.append({key})",) if rt == "str" else (f"{acc}.append(({key}, {x}))",)
                if rt not in ("int", "float") else (),
                "parts": (f"{acc}.append({key})", f"{acc}.append(f'{{{key}}}:{{{x}}}')"),
                "set": (f"{acc}.add({key})",) if rt == "str" else (),
                "text": (f"{acc} += {key}[0]",)}.get(self.acc_kind, ())


_NUMERIC = ("int", "float", "digit")


def _size(x: str, kind: str | None) -> str:
    """How big the current element is: a number itself, a letter by its code (its len is
    always 1), anything else by its length."""
    return x if kind in _NUMERIC else f"ord({x})" if kind == "char" else f"len({x})"


def _calls(template: str) -> bool:
    """Whether a template calls anything but `len` (C1 allows no other call)."""
    return re.search(r"\b(?!len\()\w+\(|\.", template) is not None

# (test, step) of a loop that wears the element down; every test fails after a few passes
_SHRINKS = {"int": (("{x} > {a10}", "{x} //= {k}"), ("{x} >= 10", "{x} = sum(map(int, str({x})))"),
                    ("{x} and {x} % 2 == 0", "{x} //= 2"), ("{x} > {a10}", "{x} -= {a10}"),
                    ("{x} and {x} % 3 == 0", "{x} //= 3"),  # its factors of 3 divided out
                    ("bin({x}).count('1') > 1", "{x} &= {x} - 1"),  # its low bits cleared to a power of two
                    ("len(str({x})) > 1", "{x} //= 10")),  # its last digits dropped down to one
            "float": (("{x} > {a10}", "{x} /= {k}"), ("{x} >= 1", "{x} = round({x} / 2, 1)"),
                      ("{x} >= {a10}", "{x} -= {a10}"), ("{x} > {k}", "{x} = {x} ** 0.5")),
            "word": (("len({x}) > {k}", "{x} = {x}[1:]"), ("{x} and {x}[-1] in 'aeiou'", "{x} = {x}[:-1]"),
                     ("{v} in {x}", "{x} = {x}.replace({v}, '', 1)"), ("len({x}) > {k}", "{x} = {x}[:-1]"),
                     ("{x} and {x}[0] not in 'aeiou'", "{x} = {x}[1:]"),  # up to its first vowel
                     ("len({x}) > {k}", "{x} = {x}[1:-1]"),  # both ends peeled
                     ("{x}.endswith(('e', 'r'))", "{x} = {x}[:-1]"))}
_LETTER_BOUNDS = ("d", "g", "k", "m")  # a word past one of them (sorted words: the last ones)
_CLOSING = ("number", "list", "parts", "text", "set")  # accumulators the helper's value joins at the end


def _differs(param: str, plain: str, prep: list[str], readied: str, literal: str) -> bool:
    """Whether readying the data first (`prep`, then `readied`) changes the use's value on
    the call's own data: a step that changes nothing there reads as a deletable line."""
    def run(lines: list[str], value: str) -> object:
        body = "\n".join(f"    {t}" for t in [*lines, f"return {value}"])
        space = stdlib_space()
        exec(compile(f"def f({param}):\n{body}\n", "<helper>", "exec"), space)  # noqa: S102 - our own lines
        return space["f"](ast.literal_eval(literal))  # type: ignore[operator]
    def canon(value: object) -> object:  # a set compared by its items, not its hash order
        return sorted(map(repr, value)) if isinstance(value, (set, frozenset)) else value
    try:
        return canon(run([], plain)) != canon(run(prep, readied))
    except Exception:  # noqa: BLE001 - a use that fails on the readied data is not readied
        return False


_FORMATS = re.compile(r"\.(zfill|rjust|ljust|center|title|capitalize|upper|lower|casefold)\(|\bf'|\bf\"")
_HELPER_PARAMS = {"xs": (), "x": ("value", "current", "entry"), "n": ("limit", "cutoff"),
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
        self.stops_early = False  # the receiver is the result: a walk that stops at its size reads alike
        self.shrinks = False
        self.choices: dict[str, int] = {}
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
        recurs in the program. Groups labelled alike (`<<@k@a;;b>>`) take the same position:
        a word's first letter spelled `w[:1]` goes with its last spelled `w[-1:]`."""
        def pick(m: re.Match) -> str:
            label, group = m.group(1) or "", m.group(2)
            options = group.split(";;")
            key = f"@{label}" if label else group
            if key not in self.choices:
                self.choices[key] = self.rng.randrange(len(options))
            return options[self.choices[key]]
        return re.sub(r"<<(?:@(\w+)@)?(.+?)>>", pick, text)

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
        self.top_xs = env.xs
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
        if self.use.alt:  # the use's own other arms (a test on the whole input falls back to the receiver's)
            on_x = tuple(t for t in self.use.alt if "{xs}" not in t)
            on_data = tuple(t for t in self.use.alt if "{x}" not in t and "{key}" not in t) or on_data
        options = on_x if env.x is not None else on_data
        if not options:
            raise _Miss("no other arm")
        v = variant if variant is not None else (len(self.w.lines) + int(alternative))
        self.alt_written |= bool(self.use.alt) and env.x is not None
        self.put(env, options[v % len(options)])

    alt_written = False  # an arm on the current element did what `alt` says
    split_done = False  # the deepest block is an arm of a test whose other arm did

    def if_block(self, rest: tuple[str, ...], env: Env, chained: bool) -> None:
        before, self.alt_written = self.alt_written, False
        super().if_block(rest, env, chained)
        if not rest:  # the lines sit in an arm of this test, beside the arms doing `alt`
            self.split_done |= self.alt_written
        self.alt_written |= before


def _build_statement(entry: Entry, knobs: Knobs, rng: random.Random, fitting: list[Use],
                     entry_names: tuple[str, ...], depth0_share: bool = True) -> tuple[str, str, str] | None:
    loops = any(k in ("for", "while") for k in knobs.blueprint)
    fitting = [u for u in fitting if (u.stmt if loops else u.flat)
               and not (u.straight_only and knobs.control_flow_depth)]
    if not fitting or (not knobs.control_flow_depth and depth0_share
                       and rng.random() > min(0.25, STATEMENT_DEPTH0_SHARE * len(fitting))):
        return None
    if knobs.control_flow_depth and not loops and rng.random() < STATEMENT_TESTS_DECLINE:
        return None  # tests only: the same few straight bodies under them
    cell = Constraint(entry.type, entry.method, "idiom", knobs)
    for _ in range(STATEMENT_TRIES):
        use = rng.choice(fitting)
        try:
            program = _StmtProgram(entry, knobs, rng, use)
            made = program.build(entry_names)
        except _Miss:
            continue
        if use.split and not program.split_done:
            continue
        if made and statically_fit(made[0], made[1], cell):
            return made
    return None


def _unwrapped(code: str, func: str) -> str:
    """`code` with each call `func(arg)` written as `arg` (an argument with parentheses of
    its own too: `f(xs[g(i)])`)."""
    head = f"{func}("
    while (start := code.find(head)) >= 0:
        depth, end = 1, start + len(head)
        while depth:
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            end += 1
        code = code[:start] + code[start + len(head):end - 1] + code[end:]
    return code


def _names_read(lines: list[str]) -> set[str]:
    """The names a function body of `lines` reads (a parameter no line reads is dropped)."""
    tree = ast.parse("def _f():\n" + "\n".join(lines))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def sorted_order(lines: list[str], xs: str) -> bool | None:
    """True where `xs` holds the data sorted rising by value, False sorted falling (a name
    bound in `lines` to `sorted(...)`, `heapq.nsmallest(...)` or a slice of one, or that expression
    itself), else None."""
    source = xs
    for line in reversed(lines):
        bound = re.match(rf"\s*{re.escape(xs)} = (.+)$", line)
        if bound:
            source = bound.group(1)
            break
    try:
        node = ast.parse(source, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.step is None:
        node = node.value
    if not isinstance(node, ast.Call):
        return None
    name = ast.unparse(node.func)
    if name in ("heapq.nsmallest", "heapq.nlargest"):
        return None if node.keywords else name == "heapq.nsmallest"
    if name != "sorted" or any(k.arg == "key" for k in node.keywords):
        return None
    return not any(k.arg == "reverse" and ast.unparse(k.value) == "True" for k in node.keywords)


def _read_once(lines: list[str], fetched: int, name: str) -> None:
    """The fetch `x = xs[i]` of an index walk (`lines[fetched - 1]`), settled: dropped where
    no later line reads the element (the index reads the data), and where one line reads it
    once, read there as `xs[i]` (`if scores[i] > limit:`, not a name bound for one read); one
    read twice or rebound, or on a line with a string literal (the name may stand in it), keeps
    its name."""
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    body = lines[fetched:]
    reads = [k for k, t in enumerate(body) if pattern.search(t)]
    if not reads:
        del lines[fetched - 1]
        return
    if len(reads) != 1 or len(pattern.findall(body[reads[0]])) != 1:
        return
    line = body[reads[0]]
    if re.match(rf"\s*{re.escape(name)}\s*([-+*/%&|^]|//|\*\*)?=(?!=)", line) or "lambda" in line \
            or "'" in line or '"' in line \
            or re.search(rf"\bfor\s[^:]*\b{re.escape(name)}\b[^:]*\bin\b", line):
        return
    item = lines[fetched - 1].split(" = ", 1)[1]
    lines[fetched + reads[0]] = pattern.sub(item, line)
    del lines[fetched - 1]


def _mentions(lines: list[str], name: str) -> bool:
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    return any(pattern.search(t) for t in lines)


def fitting_uses(entry: Entry, knobs: Knobs) -> list[Use]:
    """The entry's uses a program of this level can hold: none without nesting; without
    other calls only those that call nothing else; statement uses alone where the entry
    has them (an entry's uses are statements or expressions, not both); depth-0 uses left
    out of loops and tests."""
    uses = USES.get((entry.type, entry.method))
    if not uses or not knobs.nested_calls:
        return []
    fitting = [u for u in uses if u.calls <= knobs.other_methods or knobs.call_chain]
    if not knobs.other_methods:
        fitting = [u for u in uses if not u.calls]
    if any(u.statement for u in fitting):
        return [u for u in fitting if u.statement]
    if knobs.control_flow_depth:
        fitting = [u for u in fitting if not u.straight_only]
    return fitting


def build_idiom(entry: Entry, knobs: Knobs, rng: random.Random,
                entry_names: tuple[str, ...], depth0_share: bool = True) -> tuple[str, str, str] | None:
    """(code, entry point, call arguments) from the idiom library, or None when it has no
    use for this entry or level. `depth0_share`: straight code (C1/C2) takes the library's
    forms on a share of draws only (False: on every draw, where the generic forms failed)."""
    fitting = fitting_uses(entry, knobs)
    if not fitting:
        return None
    if fitting[0].statement:
        return _build_statement(entry, knobs, rng, fitting, entry_names, depth0_share)
    if not knobs.control_flow_depth and depth0_share and rng.random() > min(0.25, DEPTH0_SHARE * len(fitting)):
        return None  # a straight pipeline has few surface variants: keep a cell's programs distinct
    use = rng.choice(fitting)
    try:
        return _Program(entry, knobs, rng, use).build(entry_names)
    except _Miss:
        return None
