"""The shared operator forms: what a dict lookup with a default and a chained comparison
compute, on values the pipeline's inputs take."""

from __future__ import annotations

import ast
import random
import re

import pytest

from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.forms_ops import compare, index


def test_a_dict_lookup_gives_the_inputs_own_value_before_the_default() -> None:
    g = Ctx(random.Random(3), False)
    text = index("dict")(g, "stock", 1).expr
    key = re.search(r"\[('\w+')\]$", text).group(1)
    assert text.startswith("({" + key + ": ")  # the default first: the input's value wins
    assert eval(text, {"stock": {eval(key): 42}}) == 42  # noqa: S307 - the form's own text
    assert eval(text, {"stock": {}}) == int(re.search(r": (\d+)\}", text).group(1))  # noqa: S307


def test_a_chained_comparison_holds_at_most_one_literal() -> None:
    literals = 0
    for seed in range(300):
        g = Ctx(random.Random(seed), False)
        name = g.param("set")
        chain = compare("<=", "set")(g, name, 3).expr
        operands = chain.split(" <= ")
        assert len(operands) == 4
        literals += sum(not o.isidentifier() for o in operands)
        assert sum(not o.isidentifier() for o in operands) <= 1, chain  # `{3, 2} <= {8}`: constant
    assert literals > 50


def test_a_strip_chain_peels_a_new_set_of_characters_at_each_call() -> None:
    from workers.pipeline.builtin.context import STRIP_SETS
    from workers.pipeline.builtin.forms_str import str_form
    for seed in range(40):
        g = Ctx(random.Random(seed), False)
        text = str_form("rstrip")(g, "code", 3).expr
        sets = re.findall(r"\.rstrip\(([^)]*)\)", text)
        assert len(sets) == 3 and len(set(sets)) == 3 and set(sets) <= set(STRIP_SETS), text


@pytest.mark.parametrize("method", ["strip", "lstrip", "rstrip", "removeprefix", "removesuffix", "replace"])
def test_a_peeling_chain_peels_something_at_each_call_off_the_programs_texts(method: str) -> None:
    """The texts of a program whose target peels (`Ctx.layers`) wear the chain's layers in
    its order, outermost first: every call of the chain changes the text (before, a chain
    of `.strip('#*').strip(';:')` ran on plain words and none did)."""
    from workers.pipeline.builtin.context import peel_layers
    from workers.pipeline.builtin.forms_str import str_form
    for seed in range(30):
        rng = random.Random(seed)
        g = Ctx(rng, True, layers=peel_layers(rng, method), peel=method)
        text = g.text()
        nest = 2 + seed % 2
        chain = str_form(method)(g, "text", nest).expr
        calls = [n for n in ast.walk(ast.parse(chain, mode="eval")) if isinstance(n, ast.Call)]
        assert len(calls) == nest
        value = text
        for call in reversed(calls):  # (the walk meets the outermost call first)
            peeled = getattr(value, method)(*[ast.literal_eval(a) for a in call.args])
            assert peeled != value, (text, chain)
            value = peeled


def test_a_fallback_lookup_falls_back_to_another_key() -> None:
    """`d.setdefault('key', d.setdefault('key', 9))` is one lookup written twice."""
    from workers.pipeline.builtin.forms_coll import dict_form
    for method in ("get", "pop", "setdefault"):
        for seed in range(60):
            g = Ctx(random.Random(seed), True)
            text = dict_form(method)(g, "stock", 3).expr
            keys = re.findall(rf"\.{method}\(('\w+'),", text)
            assert len(keys) == 3 and len(set(keys)) == 3, text
            space = {q.name: eval(q.literal) for q in g.params}  # noqa: S307 - the form's own literals
            space["stock"] = {eval(keys[0]): 7}  # noqa: S307 - the outer key is there: its value wins
            assert eval(text, space) == 7  # noqa: S307 - the form's own text


def test_a_tab_laid_row_widens_its_stops_column_by_column() -> None:
    from workers.pipeline.builtin.forms_str import str_form
    for seed in range(60):
        g = Ctx(random.Random(seed), seed % 2 == 0)
        text = str_form("expandtabs")(g, "word", 3).expr
        stops = [int(s) for s in re.findall(r"\.expandtabs\((\d+)\)", text)]
        assert len(stops) == 3 and stops == sorted(set(stops)), text
        row = eval(text, {"word": "maple"})  # noqa: S307 - the form's own text
        assert "\t" not in row and row.startswith("maple ")


def test_remove_takes_items_the_receiver_holds_where_it_can_name_one() -> None:
    """`scores.remove(max(scores))`, `xs.remove(xs[0])`: not literals added just to be
    removed again (`xs += [5, 8]` / `xs.remove(5)`), except in a C1 set, which can name
    no item without a call."""
    from workers.pipeline.builtin.forms_coll import list_form, set_form
    held = 0
    for seed in range(80):
        for form, calls, items in ((list_form("remove"), True, [4, 9, 1, 7]), (list_form("remove"), False, [4, 9, 1, 7]),
                                   (set_form("remove"), True, {4, 9, 1, 7})):
            g = Ctx(random.Random(seed), calls)
            piece = form(g, "scores", 2)
            lines = piece.pre + [piece.expr]
            if not any("+=" in line or "|=" in line for line in lines):
                held += 1
                assert all(re.fullmatch(r"scores\.remove\(((max|min)\(scores\)|scores\[(0|1|-1)\])\)", line)
                           for line in lines), lines
                space = {"scores": items.copy()}
                exec("\n".join(lines), space)  # noqa: S102 - the form's own lines
                assert len(space["scores"]) == 2
    assert held > 120  # most draws name held items (the rest are the literal-first draws)


def test_a_list_pop_in_straight_code_draws_by_the_item_it_took() -> None:
    """`deck.pop(deck.pop(0) % len(deck))`, not `(deck + [deck.pop()]).pop()`, whose outer
    pop gives the inner value straight back."""
    from workers.pipeline.builtin.forms_coll import list_form
    for seed in range(40):
        g = Ctx(random.Random(seed), seed % 2 == 0, straight=True)
        piece = list_form("pop")(g, "deck", 2)
        assert piece.pre == [] and "+ [" not in piece.expr, piece
        deck = [4, 9, 1, 7]
        taken = eval(piece.expr, {"deck": deck})  # noqa: S307 - the form's own text
        assert len(deck) == 2 and taken in (4, 9, 1, 7)


def test_a_list_pop_that_may_repeat_gives_what_it_takes_and_draws_from_the_front() -> None:
    """In a loop or a helper called in one, the list is given as many items as the draw
    takes, so repeated uses do not empty it, and the draw starts at the front: before, the
    item just given was popped straight back (`deck += [2]; total += deck.pop()` is 2 on
    every input, `(deck + [deck.pop()]).pop()` the gate's identity_operation)."""
    from workers.pipeline.builtin.forms_coll import list_form
    from workers.pipeline.naturalness.static import static_findings
    for seed in range(60):
        nest = 1 + seed % 3
        g = Ctx(random.Random(seed), seed % 2 == 0)
        piece = list_form("pop")(g, "deck", nest)
        (given,) = piece.pre
        assert given.startswith("deck += [") and "+ [" not in piece.expr, piece
        assert piece.expr.count("deck.pop(0)") == 1, piece
        deck = [40, 90, 10, 70]
        for turn in range(5):  # the use, again and again
            exec(given, {"deck": deck})  # noqa: S102 - the form's own text
            taken = eval(piece.expr, {"deck": deck})  # noqa: S307
            assert len(deck) == 4 + (not g.allow_calls) * (turn + 1), (piece, deck)
        assert static_findings(f"def f(deck):\n    {given}\n    return {piece.expr}\n") == []
    # the first value taken is the data's, not the item just given
    g = Ctx(random.Random(1), True)
    piece = list_form("pop")(g, "deck", 1)
    deck = [40, 90]
    exec(piece.pre[0], {"deck": deck})  # noqa: S102
    assert eval(piece.expr, {"deck": deck}) == 40  # noqa: S307


def test_str_literals_are_english_fragments_of_the_asked_length() -> None:
    """Ctx.word wrote runs of random letters ('hfaa', 'bhbh') that no input text holds:
    each literal is now a letter, a common pair or affix, or a short word, of exactly the
    length asked (maketrans pairs two of one length)."""
    from workers.pipeline.builtin.context import FRAGMENTS
    from workers.pipeline.builtin.forms_ops import pad
    seen = set()
    for seed in range(200):
        g = Ctx(random.Random(seed), True)
        for n in range(6):
            w = g.word(n, n)
            assert len(w) == n and (n == 0 or w in FRAGMENTS[n]), (n, w)
            seen.add(w)
        text, size = pad(g, "str")
        assert eval(text) in FRAGMENTS[size]  # noqa: S307 - a literal the form wrote
    assert {"ing", "th", "data", "apple"} <= seen and "hfaa" not in seen


def test_a_nested_predicate_falls_back_on_the_data_not_a_literal() -> None:
    """`(code if code.isalpha() else 'red').isalpha()` is one test and a fixed answer (the
    gate's predicate_fallback): a predicate nests by falling back on another input or a
    part of its receiver (`code[1:]`, `price * 2`)."""
    from workers.pipeline.builtin.forms_misc import float_form
    from workers.pipeline.builtin.forms_str import PREDICATES, str_form
    from workers.pipeline.naturalness.static import static_findings
    parts = 0
    for seed in range(120):
        for form, t, name in ((str_form(PREDICATES[seed % len(PREDICATES)]), "str", "code"),
                              (float_form("is_integer"), "float", "price"),
                              (float_form("bool()"), "float", "price")):
            g = Ctx(random.Random(seed), seed % 2 == 0)
            g.param(t)
            expr = form(g, g.params[-1].name, 2).expr
            assert " else " in expr, expr
            fallback = expr.split(" else ")[1].split(")")[0]
            assert not re.fullmatch(r"'[^']*'|-?[\d.]+", fallback), expr
            code = f"def f({g.params[-1].name}):\n    return {expr}\n"
            assert not static_findings(code), (static_findings(code), code)
            parts += g.params[-1].name in fallback
    assert parts > 100  # (the receiver's part where no other input is known)


def test_an_equality_chain_compares_values_of_the_program_not_literals() -> None:
    """`ordered == sentence == 'pi,ti' == title` is False on every drawn input: where the
    program holds another value of the type, an equality chain takes no literal."""
    for op in ("==", "!="):
        for t in ("str", "list", "tuple"):
            for seed in range(60):
                g = Ctx(random.Random(seed), False)
                name, other = g.param(t), g.param(t)
                g.remember(f"{name}_part", t)
                chain = compare(op, t)(g, name, 3).expr
                operands = chain.split(f" {op} ")
                assert len(operands) == 4 and all(o.isidentifier() for o in operands), chain


def test_a_texts_parts_become_text_by_joining_or_taking_one_not_by_their_repr() -> None:
    """`str(text.split()).split(',')` split the repr of a list (`"['a', 'b']"`), and
    `rest.rpartition(f"{rest.rpartition(' ')}")` took a tuple's repr as its separator: 20
    of seeds 11-14's 2,400 programs. A partition's parts give their head or tail, a list of
    parts is joined back, or gives its first part ('' when there is none) where no call may
    be added."""
    from workers.pipeline.builtin.convert import to_str
    text = "north gate, 12 elm"
    for seed in range(40):
        for calls in (True, False):
            g = Ctx(random.Random(seed), calls)
            parts = to_str(g, "text.partition(' ')", "tuple_str")
            assert eval(parts, {"text": text}) in ("north", "gate, 12 elm"), parts  # noqa: S307
            words = to_str(g, "text.split()", "list_str")
            value = eval(words, {"text": text})  # noqa: S307
            assert value in (("north",) if not calls else ("north gate, 12 elm", "north,gate,,12,elm",
                                                             "north-gate,-12-elm")), words
            assert eval(words, {"text": "   "}) == "", words  # noqa: S307 - no parts, no error
            assert "str(" not in parts + words and 'f"' not in parts + words


def test_a_pad_nests_as_a_wider_pad_so_every_pad_changes_a_short_text() -> None:
    """`code.zfill(12).zfill(5)` and `format(format(s, '-<5'), '-<5')` pad a text that is
    already that wide (23 of seeds 11-14's 2,400 programs, the gate's idempotent_chain):
    each pad of the chain is wider than the one inside it."""
    import ast

    from workers.pipeline.builtin.forms_str import str_form
    from workers.pipeline.naturalness.static import static_findings
    for method in ("center", "ljust", "rjust", "zfill", "format()"):
        for seed in range(30):
            g = Ctx(random.Random(seed), True)
            expr = str_form(method)(g, "code", 2 + seed % 2).expr
            assert static_findings(f"def f(code):\n    return {expr}\n") == [], expr
            calls = [ast.unparse(n) for n in ast.walk(ast.parse(expr)) if isinstance(n, ast.Call)]
            changed = []
            for code in ("7a", "7abcdef"):  # every pad (or cut) changes one of them
                texts = [code] + [eval(c, {"code": code}) for c in reversed(calls)]  # noqa: S307
                changed.append([a != b for a, b in zip(texts, texts[1:])])
            assert all(map(any, zip(*changed))), (expr, changed)
