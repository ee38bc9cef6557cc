"""Per-program generation state: the seeded RNG, parameters, locals, literal makers.

Values are tracked by a small set of type names (VALUE_TYPES); every expression the
generator writes has one, which is what lets forms and conversions stay type-correct.
"""

from __future__ import annotations

import ast
import importlib
import io
import random
import re
import string
import tokenize
from dataclasses import dataclass, field

# int lists/tuples/sets keep every ordering deterministic under any PYTHONHASHSEED
VALUE_TYPES = ("str", "int", "float", "bool", "list", "tuple", "set", "dict", "bytes", "none", "flist",
               "list_str", "tuple_str", "pairs", "pair", "ftuple", "itable")
KEYS = ("a", "b", "c", "x", "y", "id", "key", "n", "k", "m")
# of the while loops that would empty a copy of the items by pops (`while todo: x = todo.pop()`,
# a for loop written the long way: 0.8% of the standard library's functions with loops, 18%
# of seed 11's C3-C6 programs before session 31), the share kept; the rest walk by index or
# say in their test why they stop (both builders: `flow.Flow.while_block`, `idioms`)
WORK_LISTS = 0.25
# a str literal of n letters (Ctx.word): a letter, a common pair or affix of English, a short
# word; never a run of random letters ('hfaa'), which no text holds and no person writes
FRAGMENTS = {1: tuple("aeinorstl"),
             2: ("an", "er", "in", "on", "re", "th", "st", "es", "le", "ar", "or", "en", "at", "ed", "ly", "un"),
             3: ("ing", "ion", "ent", "ate", "est", "the", "and", "pre", "ous", "ers", "ten", "red"),
             4: ("data", "item", "note", "line", "code", "mark", "name", "list", "tree", "road", "blue", "gold"),
             5: ("apple", "river", "stone", "cloud", "tiger", "maple", "orbit", "pixel", "amber", "delta")}
_NAMES = {
    "str": ("text", "word", "name", "line", "title", "code", "label", "sentence", "message",
            "phrase", "entry", "token"),
    "list": ("scores", "prices", "values", "readings", "ages", "counts", "numbers", "weights",
             "steps", "marks", "heights", "votes"),
    "tuple": ("point", "record", "sizes", "coords", "dims", "grades", "sample"),
    "set": ("tags", "ids", "visited", "allowed", "seen", "members", "blocked"),
    "dict": ("stock", "ages", "inventory", "tally", "prices", "totals", "points"),
    "float": ("price", "rate", "amount", "temperature", "balance", "distance", "weight"),
    "flist": ("prices", "readings", "rates", "amounts", "temps", "distances"),
    "int": ("limit", "threshold", "width", "size", "offset", "target", "n"),
}
_LOCALS = ("result", "cleaned", "total", "found", "parts", "kept", "best", "matches", "pieces",
           "picked", "merged", "trimmed", "joined", "rest", "head", "tail", "current",
           "pending", "output", "summary", "pair", "chosen", "latest", "scaled")
_ELEMENT_NAMES = {
    "char": ("ch", "letter", "symbol", "char", "c"),  # an item of a text
    "word": ("word", "part", "piece", "item", "token", "term"),  # an item of a list of words
    "numeral": ("digit", "figure", "numeral"),  # a character of a number's text
    "int": ("x", "value", "score", "num", "item", "entry"),
    "float": ("p", "reading", "value", "amount", "price", "level", "rate", "share"),
    "index": ("i", "j", "k", "pos", "idx"),
}
_WORDS = ("apple", "river", "stone", "cloud", "tiger", "maple", "orbit", "candle", "pixel",
          "amber", "delta", "north", "lemon", "piano", "ocean", "silver", "garden", "rocket")


# targets that change letters' case: their data is written in mixed case (`'River'`,
# `'apple'`, `'OCEAN'`), else a `.lower()` of lowercase words changes nothing
CASE_METHODS = frozenset({"lower", "upper", "casefold", "swapcase", "title", "capitalize"})
_CASE_STYLES = (str.lower, str.title, str.upper)


def cased_words(rng: random.Random, words: list[str]) -> list[str]:
    """`words` each written in a case style drawn for it: one word in title case or capitals,
    more with at least one in lower case and one not."""
    styles = [rng.choice(_CASE_STYLES) for _ in words]
    styles[:2] = [rng.choice(_CASE_STYLES[1:]), str.lower][:len(words)]
    rng.shuffle(styles)
    return [style(w) for style, w in zip(styles, words)]


# what a chain of strips peels off, as people write it: whitespace, punctuation, digits,
# separators; no set holds another, so no call in a chain is spent
STRIP_SETS = ("", "'.,!?'", "'0123456789'", "'-_'", "';:'", "'#*'")
# prefixes and suffixes people remove in turn (a quoted reply, a checked to-do, a backup
# of an archive): outermost first
PREFIX_CHAINS = (("'> '", "'Re: '", "'Fwd: '"), ("'- '", "'[x] '", "'done: '"),
                 ("'https://'", "'www.'", "'shop.'"), ("'$ '", "'sudo '", "'env '"),
                 ("'# '", "'TODO '", "'(later) '"))
SUFFIX_CHAINS = (("'.gz'", "'.tar'", "'-v2'"), ("'!'", "'?'", "' please'"), ("'/'", "'/index.html'", "'/docs'"),
                 ("' (copy)'", "'.txt'", "'_final'"), ("'.'", "' etc'", "', and more'"))
# replacements people chain (a slug, a sentence of symbols spelled out, a spaced-out
# file name): each old text outermost first, none made or undone by the ones before it
REPLACE_CHAINS = (("', ', ' '", "'-', ' '", "' ', '_'"), ("'&', ' and '", "'+', ' plus '", "'/', ' or '"),
                  ("'_', ' '", "'.', ''", "' ', '-'"), ("'\\t', ' '", "';', ','", "',', ''"))
PEELS = frozenset({"strip", "lstrip", "rstrip", "removeprefix", "removesuffix", "replace"})
PADS = frozenset({"ljust", "rjust", "center", "zfill"})  # (their widths start past a word's length)


def peel_layers(rng: random.Random, method: str) -> tuple[str, ...]:
    """The arguments of a chain of `method` calls, outermost first (three: a chain takes
    as many as it nests)."""
    if method in ("removeprefix", "removesuffix"):
        return rng.choice(PREFIX_CHAINS if method == "removeprefix" else SUFFIX_CHAINS)
    if method == "replace":
        return rng.choice(REPLACE_CHAINS)
    return tuple(rng.sample(STRIP_SETS, 3))


def dressed(rng: random.Random, core: str, method: str, layers: tuple[str, ...]) -> str:
    """`core` wearing `layers` as a chain of `method` calls peels them, outermost first: a
    prefix or suffix written out; for a strip, one or two characters of each set on both
    ends (mirrored, so a reversed text still has them; whitespace for the bare strip)."""
    if method == "replace":  # the words joined by each old text (one more word than them)
        olds = [ast.literal_eval(f"({layer},)")[0] for layer in layers]
        words = core.split() or [core]
        words += [_WORDS[rng.randrange(len(_WORDS))] for _ in range(len(olds) + 1 - len(words))]
        rng.shuffle(olds)
        return words[0] + "".join(sep + w for sep, w in zip(olds, words[1:]))
    values = [ast.literal_eval(layer) if layer else " " for layer in layers]
    if method == "removeprefix":
        return "".join(values) + core
    if method == "removesuffix":
        return core + "".join(reversed(values))
    ends = [rng.choice(v) * rng.randint(1, 2) if len(v) > 1 else v for v in values]
    return "".join(ends) + core + "".join(reversed(ends))


# modules the scaffolding and uses may call; each program imports those its lines name
STDLIB_MODULES = ("bisect", "collections", "heapq", "itertools", "math", "operator", "re", "statistics", "string")


def stdlib_space() -> dict[str, object]:
    """A fresh namespace holding the stdlib modules generated lines may call (for running
    the generator's own lines on the call's input)."""
    return {m: importlib.import_module(m) for m in STDLIB_MODULES}


def program_text(lines: list[str], imports: set[str], target: str = "") -> str:
    """A program's source: `import m` for each module in `imports` or called in `lines`
    (`m.name`, so a line rewritten after it was written still gets its import), then the
    lines, with arithmetic on two literals folded (`fold_constants`; not the `target`
    operator's, whose uses the level counts) and without parentheses that change nothing
    (`tidy_parens`), laid out as PEP 8 lays out a module (`_spaced`)."""
    body = "\n".join(lines)
    used = set(imports) | {m for m in STDLIB_MODULES if re.search(rf"(?<![\w.]){m}\.", body)}
    heads = [f"import {m}" for m in sorted(used)]
    code = "\n".join(heads + lines) + "\n"
    return _spaced(tidy_parens(fold_constants(code, keep=target)))


def _spaced(code: str) -> str:
    """`code` with two blank lines before each top-level definition but a first line (PEP
    8: the imports, a helper and the entry each apart), as a person's module has them (the
    forms wrote a helper directly above the entry, and one blank line after the imports)."""
    out: list[str] = []
    for line in code.split("\n"):
        if out and line.startswith(("def ", "class ")):
            while out and not out[-1]:
                out.pop()
            out += ["", ""]
        out.append(line)
    return "\n".join(out)


def renamed(code: str, old: str, new: str) -> str:
    """`code` with every name `old` written `new` (names only: not an attribute after a dot,
    not text inside a string)."""
    lines = code.splitlines(keepends=True)
    tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    spots = [t.start for k, t in enumerate(tokens) if t.type == tokenize.NAME and t.string == old
             and not (k and tokens[k - 1].string == ".")]
    for row, col in reversed(spots):  # right to left, so earlier offsets stay put
        line = lines[row - 1]
        lines[row - 1] = line[:col] + new + line[col + len(old):]
    return "".join(lines)


_FOLDED = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
# two digits around one of those operators (a parenthesized literal too): a cheap look
# before the parse (`v1 + 2` is looked at and left)
_LITERAL_ARITHMETIC = re.compile(r"\d\)?\s*[-+*]\s*\(?\d")


def fold_constants(code: str, keep: str = "") -> str:
    """`code` with integer arithmetic on two literals written as its value (`xs[3:3 * 2]`
    -> `xs[3:6]`, `len(w) <= 2 + 3` -> `len(w) <= 5`): templates combine a drawn number
    with a fixed one, and a person writes the result. The operator `keep` is left alone
    (a program on `*` may nest it as `'-' * (2 * 5)`)."""
    if not _LITERAL_ARITHMETIC.search(code):  # most draws: no parse on this hot path
        return code
    ops = {op: fn for op, fn in _FOLDED.items() if _SYMBOLS[op] != keep}
    while True:
        folds: dict[int, list[tuple[int, int, str]]] = {}
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.BinOp) and type(node.op) in ops and node.lineno == node.end_lineno \
                    and all(isinstance(o, ast.Constant) and type(o.value) is int for o in (node.left, node.right)):
                value = ops[type(node.op)](node.left.value, node.right.value)
                if abs(value) < 10 ** 9:
                    folds.setdefault(node.lineno, []).append((node.col_offset, node.end_col_offset, repr(value)))
        if not folds:
            return code
        lines = code.splitlines(keepends=True)
        for number, spans in folds.items():  # offsets count UTF-8 bytes; right to left
            raw = lines[number - 1].encode()
            for start, end, text in sorted(spans, reverse=True):
                raw = raw[:start] + text.encode() + raw[end:]
            lines[number - 1] = raw.decode()
        code = "".join(lines)


def tidy_parens(code: str) -> str:
    """`code` without the parentheses that change nothing where forms put them: one pair
    directly inside another (`int((n * 1.5))`, `((xs[:3] * 2))[:2]`: forms compose texts,
    and a grouped operand placed in a call or a group of its own came out doubled) and a
    pair around a bare number (`'-' * (10)`, after a fold). A pair is dropped only where
    the program parses to the same tree without it (`f((a, b))` keeps its tuple)."""
    if not _REDUNDANT.search(code):
        return code
    tree = ast.dump(ast.parse(code))
    while (tidier := _drop_redundant(code, tree)) is not None:
        code = tidier
    return code


_REDUNDANT = re.compile(r"\(\(|\(\d+\)")


def _drop_redundant(code: str, tree: str) -> str | None:
    """`code` with the first such pair that changes nothing dropped, or None."""
    tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    opened, close_of = [], {}
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.OP and tok.string in "([{":
            opened.append(i)
        elif tok.type == tokenize.OP and tok.string in ")]}":
            close_of[opened.pop()] = i
    for o, c in sorted(close_of.items()):
        if tokens[o].string != "(":
            continue
        if tokens[o + 1].string == "(" and close_of.get(o + 1) == c - 1:
            pair = (tokens[o + 1].start, tokens[c - 1].start)
        elif c == o + 2 and tokens[o + 1].type == tokenize.NUMBER:
            pair = (tokens[o].start, tokens[c].start)
        else:
            continue
        (la, ca), (lb, cb) = pair  # tokenize counts characters
        a, b = starts[la - 1] + ca, starts[lb - 1] + cb
        tidier = code[:a] + code[a + 1:b] + code[b + 1:]
        try:
            if ast.dump(ast.parse(tidier)) == tree:
                return tidier
        except SyntaxError:
            continue
    return None


@dataclass
class Param:
    name: str
    type: str
    literal: str


@dataclass
class Ctx:
    rng: random.Random
    allow_calls: bool
    params: list[Param] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    pool: dict[str, list[str]] = field(default_factory=dict)  # type -> readable var names
    imports: set[str] = field(default_factory=set)
    max_params: int = 3
    avoid: set[str] = field(default_factory=set)  # e.g. the receiver: never `a.update(a)`
    hint: str | None = None  # the subject's literal, when the target needs a telling one
    straight: bool = False  # code without loops or tests (C1 / C2): each use runs once
    cased: bool = False  # the target changes letters' case: texts are written in mixed case
    # the target peels layers off a text (the strip family, removeprefix / removesuffix,
    # replace): the arguments of its chain, outermost first, and the texts carry those layers
    layers: tuple[str, ...] = ()
    peel: str = ""  # the target whose layers they are
    short: str = ""  # the target pads to a width: texts are one word ("word") or a number ("digits")

    # --- names -------------------------------------------------------------------------
    def fresh(self, kind: str = "local") -> str:
        choices = _NAMES.get(kind) or _ELEMENT_NAMES.get(kind[5:], ()) if kind.startswith("elem:") \
            else _NAMES.get(kind, _LOCALS)
        choices = choices or _LOCALS
        for name in self.rng.sample(choices, len(choices)):
            if name not in self.used:
                self.used.add(name)
                return name
        i = len(self.used)
        while f"v{i}" in self.used:
            i += 1
        self.used.add(f"v{i}")
        return f"v{i}"

    def param(self, type_name: str) -> str:
        name = self.fresh(type_name)
        literal = self.lit(type_name, for_param=True)
        if self.hint is not None and type_name == "str":
            literal, self.hint = self.hint, None
        self.params.append(Param(name, type_name, literal))
        self.pool.setdefault(type_name, []).append(name)
        return name

    def remember(self, name: str, type_name: str) -> None:
        self.pool.setdefault(type_name, []).append(name)

    def other(self, type_name: str) -> str:
        """A value of the type for an unconstrained slot: a known variable, a new
        parameter (while fewer than max_params), or a literal."""
        roll = self.rng.random()
        known = [v for v in self.pool.get(type_name, []) if v not in self.avoid]
        if known and roll < 0.5:
            return known[-1] if roll < 0.3 else self.rng.choice(known)  # the newest value first
        if roll < 0.55 and len(self.params) < self.max_params and type_name in _NAMES:
            return self.param(type_name)
        return self.lit(type_name)

    def variable(self, type_name: str) -> str | None:
        """A value of the type that is not a literal: a known variable not avoided, else a
        new parameter while there is room; None when neither is left."""
        known = [v for v in self.pool.get(type_name, []) if v not in self.avoid]
        if known:
            return self.rng.choice(known)
        if len(self.params) < self.max_params and type_name in _NAMES:
            return self.param(type_name)
        return None

    # --- literals ----------------------------------------------------------------------
    def int_(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq):  # noqa: ANN001, ANN201 - thin wrapper keeps call sites short
        return self.rng.choice(seq)

    def word(self, lo: int = 1, hi: int = 4) -> str:
        """A literal of lo..hi letters (exactly that many: maketrans pairs two of one length)."""
        n = self.int_(lo, hi)
        return self.rng.choice(FRAGMENTS[n]) if n else ""

    def real_word(self) -> str:
        return self.rng.choice(_WORDS)

    def text(self) -> str:
        if self.short == "digits":  # what a zfill pads: '7', '42', '305'
            return str(self.int_(1, 10 ** self.int_(1, 3) - 1))
        if self.short:  # a word a column is wider than
            return self.real_word()
        if self.layers:
            return dressed(self.rng, " ".join(self.real_word() for _ in range(self.int_(1, 3))), self.peel, self.layers)
        if self.cased:
            return " ".join(cased_words(self.rng, [self.real_word() for _ in range(self.int_(1, 3))]))
        style = self.rng.randrange(7)
        w = self.real_word()
        if style == 1:
            return w.title()
        if style == 2:
            return "".join(self.rng.choice(string.digits) for _ in range(self.int_(2, 6)))
        if style == 3:
            return " ".join(self.real_word() for _ in range(self.int_(2, 3)))
        if style == 4:
            return ",".join(self.real_word()[:self.int_(2, 4)] for _ in range(self.int_(2, 3)))
        if style == 5:
            return w.upper()
        if style == 6:
            return w + str(self.int_(0, 99))
        return w

    def key(self) -> str:
        return repr(self.rng.choice(KEYS))

    def ints(self, lo: int = 2, hi: int = 5) -> list[int]:
        return [self.int_(0, 9) for _ in range(self.int_(lo, hi))]

    def lit(self, type_name: str, for_param: bool = False) -> str:
        t = type_name
        if t == "str":
            return repr(self.text() if for_param or self.rng.random() < 0.4 else self.word())
        if t == "int":
            return str(self.int_(0, 9))
        if t == "float":
            return repr(round(self.rng.uniform(-9.5, 19.5), self.rng.choice((1, 2))))
        if t == "bool":
            return self.rng.choice(("True", "False"))
        if t == "list":
            return repr(self.ints())
        if t == "flist":
            return repr([round(self.rng.uniform(-5.0, 19.5), 1) for _ in range(self.int_(2, 4))])
        if t == "tuple":
            return repr(tuple(self.ints()))
        if t == "set":
            return "{" + ", ".join(map(str, dict.fromkeys(self.ints(2, 5)))) + "}"
        if t == "dict":
            keys = self.rng.sample(KEYS, self.int_(2, 4))
            return "{" + ", ".join(f"{k!r}: {self.int_(0, 9)}" for k in keys) + "}"
        if t == "bytes":
            return repr(self.word(2, 5).encode())
        if t == "list_str":
            return repr([self.word() for _ in range(self.int_(1, 3))])
        if t == "tuple_str":
            return repr(tuple(self.word() for _ in range(self.int_(1, 3))))
        raise ValueError(f"no literal for type {type_name}")


def is_atom(expr: str) -> bool:
    """True when `expr` can stand as an operand without parentheses."""
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return False
    if isinstance(node, ast.Constant):
        return not (isinstance(node.value, (int, float)) and expr.lstrip().startswith("-"))
    return isinstance(node, (ast.Name, ast.Call, ast.Subscript, ast.Attribute, ast.List,
                             ast.Set, ast.Dict, ast.ListComp)) or (
        isinstance(node, ast.Tuple) and expr.startswith("(") and expr.endswith(")"))


def p(expr: str) -> str:
    return expr if is_atom(expr) else f"({expr})"
