"""Forms for the str methods and the str-specific calls (format, str.format)."""

from __future__ import annotations

from workers.pipeline.builtin import context
from workers.pipeline.builtin.context import Ctx, p
from workers.pipeline.builtin.forms_ops import element
from workers.pipeline.builtin.piece import Form, Piece, via_self, via_slot

PREDICATES = ("isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier",
              "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper")
CASES = ("capitalize", "casefold", "lower", "upper", "swapcase", "title")
SEPS = ("','", "' '", "'a'", "'-'", "'b'", "', '")


def nonempty(a: str) -> str:
    """Separators must not be empty: literals are checked, expressions guarded with `or`."""
    if a[:1] in "'\"" and len(a) > 2:
        return a
    return f"{p(a)} or {SEPS[len(a) % len(SEPS)]}"


def _peel(m: str) -> Form:
    """A strip nests as people chain them: each call peels another set of characters
    (`line.strip().strip('.,!?')`, `code.rstrip('0123456789').rstrip('-_')`), so no call
    repeats the one inside it (an idempotent chain); a removeprefix / removesuffix removes
    one affix after another (`reply.removeprefix('> ').removeprefix('Re: ')`,
    `name.removesuffix('.gz').removesuffix('.tar')`); a replace rewrites one separator after
    another (`title.replace(', ', ' ').replace(' ', '_')`). The chain takes the program's layers
    (`Ctx.layers`) in the order its texts wear them, outermost first, so each call peels
    something off them."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        expr = p(r)
        layers = g.layers if g.peel == m else context.peel_layers(g.rng, m)
        for chars in layers[:nest]:
            expr = f"{expr}.{m}({chars})"
        return Piece(expr, "str")
    return make


TAB_STOPS = (6, 8, 10, 12, 16, 20, 24)


def _columns(g: Ctx, r: str, nest: int) -> Piece:
    """A row of a text table, as people lay one out with tabs: each call adds a column (the
    text's length, its head or tail, a label) and sets the tab stops, wider for each column
    further right (`((word + '\\t' + str(len(word))).expandtabs(8) + '\\t' + word[:3]).expandtabs(16)`).
    Before, a random word after a tab at a random stop, narrower as often as wider."""
    fields = [repr(label) for label in g.rng.sample(("total", "ok", "todo", "done", "n/a", "low", "high"), 2)]
    if r.isidentifier():
        fields += [f"{r}[:3]", f"{r}[-2:]", f"{r}[::-1]"]
        if g.allow_calls:
            fields += [f"str(len({r}))", f"{r}.upper()", f"str({r}.count('a'))", f"{r}.title()"]
    expr = p(r)
    nest = min(nest, len(fields))
    for stop, field in zip(sorted(g.rng.sample(TAB_STOPS, nest)), g.rng.sample(fields, nest)):
        expr = f"({expr} + '\\t' + {field}).expandtabs({stop})"
    return Piece(expr, "str")


PADS = ("center", "ljust", "rjust", "zfill", "format()")  # the text padded to a width


def _pad(method: str) -> Form:
    """A pad nests as a wider pad of the padded text (`label.ljust(8, '.').ljust(12)`: a dot
    leader, then the column): a pad no wider than the one inside it changes nothing (the
    gate's idempotent_chain; `code.zfill(12).zfill(5)`, `format(format(s, '-<5'), '-<5')`
    were 23 of 2,400 programs). `format()` may first cut the text to a few letters (`'.3'`)."""
    def make(g: Ctx, r: str, nest: int) -> Piece:
        # (a program padding its own texts writes them a word long: the widths start past it)
        expr, width = r, g.int_(7, 9) if g.short else g.int_(3, 8)
        for level in range(nest):
            if method == "format()":
                cut = level == 0 and nest > 1 and g.rng.random() < 0.3
                spec = f".{g.int_(2, 4)}" if cut else f"{g.choice(('', '*', '-', '_', '.'))}{g.choice('<>^')}{width}"
                expr = f"format({expr}, {spec!r})"
            else:
                fill = f", {g.choice(('*', '-', '.', '#', '='))!r}" \
                    if method != "zfill" and g.rng.random() < 0.6 else ""
                expr = f"{p(expr)}.{method}({width}{fill})"
            width += g.int_(2, 5)
        return Piece(expr, "str")
    return make


def _translate_table(g: Ctx) -> str:
    pairs = [f"{ord(c)}: {g.choice((repr(g.word(1, 2)), 'None'))}"
             for c in dict.fromkeys(g.word(1, 3))]
    return "{" + ", ".join(pairs) + "}"


def _maketrans(g: Ctx, r: str, nest: int) -> Piece:
    n = g.int_(1, 3)
    a, b = g.word(n, n), g.word(n, n)
    form = g.rng.randrange(3)
    recv = g.choice(("str", p(r), "''"))
    if form == 0:
        expr = f"{recv}.maketrans({r}, {p(r)}[::-1])"
    elif form == 1:
        expr = f"{recv}.maketrans({a!r}, {b!r})"
    else:
        expr = f"{recv}.maketrans({a!r}, {b!r}, {g.word(1, 2)!r})"
    for _ in range(nest - 1):
        expr = f"{g.choice(('str', p(r)))}.maketrans({expr})"
    return Piece(expr, "itable")


def _splitlines(g: Ctx, r: str, nest: int) -> Piece:
    """Lines of the text with a line added; a nested use splits the lines joined again in
    reverse order (a call, where allowed) or the first line with another one added."""
    expr = f"({p(r)} + '\\n' + {g.word()!r}).splitlines()"
    for _ in range(nest - 1):
        if g.allow_calls and g.rng.random() < 0.6:
            expr = f"'\\n'.join({expr}[::-1]).splitlines()"
        else:
            expr = f"({expr}[{g.choice(('0', '-1'))}] + '\\n' + {g.word()!r}).splitlines()"
    return Piece(expr, "list_str")


def str_form(method: str) -> Form | None:
    t = "str"
    any_str = lambda g, r: g.other("str")  # noqa: E731
    if method in CASES:
        return via_self(lambda g, r: f"{p(r)}.{method}()", t, t, idempotent=True)
    if method in context.PEELS:
        return _peel(method)
    if method in PREDICATES:
        return via_self(lambda g, r: f"{p(r)}.{method}()", "bool", t)
    if method in PADS:
        return _pad(method)
    if method == "expandtabs":
        return _columns
    if method in ("count", "find", "rfind"):
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({a})", "int", t,
                        lambda g, r: element(g, "str", r))
    if method in ("index", "rindex"):
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({p(r)}[{a}:][:{g.int_(1, 3)}])",
                        "int", "int", lambda g, r: str(g.int_(0, 3)))
    if method in ("startswith", "endswith"):
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({a})", "bool", t,
                        lambda g, r: element(g, "str", r))
    if method in ("split", "rsplit"):
        def split(g: Ctx, r: str) -> str:
            sep = g.choice(("",) + SEPS)
            limit = f", {g.int_(1, 2)}" if sep and g.rng.random() < 0.3 else ""
            return f"{p(r)}.{method}({sep}{limit})"
        return via_self(split, "list_str", t)
    if method == "splitlines":
        return _splitlines
    if method in ("partition", "rpartition"):
        return via_slot(lambda g, r, a: f"{p(r)}.{method}({nonempty(a)})", "tuple_str", t,
                        lambda g, r: g.choice(SEPS))
    if method == "join":
        return via_slot(lambda g, r, a: f"{g.choice(('-', '', ', ', '|', ':', 'ab'))!r}.join({a})",
                        t, t, lambda g, r: g.choice((r, g.lit("list_str"))))
    if method == "encode":
        return via_self(lambda g, r: f"{p(r)}.encode({g.choice(('', repr('utf-8')))})", "bytes", t)
    if method == "format":
        return via_slot(lambda g, r, a: f"{g.choice(('{}-{}', '{1}{0}', '<{}|{}>', '{0}{1}{0}'))!r}"
                        f".format({r}, {a})", t, t, any_str)
    if method == "format_map":
        return via_slot(lambda g, r, a: f"{g.choice(('{a}:{b}', '{b}{a}', '[{a}] {b}'))!r}"
                        f".format_map({{'a': {r}, 'b': {a}}})", t, t, any_str)
    if method == "translate":
        return via_self(lambda g, r: f"{p(r)}.translate({_translate_table(g)})", t, t)
    if method == "maketrans":
        return _maketrans
    if method == "str.format":
        return via_slot(lambda g, r, a: f"str.format({g.choice(('{}{}', '{} {}', '{1}:{0}'))!r}, "
                        f"{r}, {a})", t, t, any_str)
    return None
