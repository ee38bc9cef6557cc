"""Type-directed input synthesis: infer each argument's type and shape from a known call and
draw new values of the same type and shape with a seeded generator under size bounds.

Fresh draws alone rarely relate two values: two drawn sets are almost never equal or one
inside the other, a drawn word seldom holds the letter the program looks for, so a program
that compares its arguments (`a <= b`, `d == other`, `text.find('o')`) gives one output on
every input. Past the first few (`FRESH_FIRST`), a share of the candidates
(`NEIGHBOUR_SHARE`) are therefore neighbours of the call, as a mutation fuzzer makes them:
its arguments grown to the reference lengths, then one edited by one item (dropped, added,
replaced; a character, a number moved by one), one made an item or a piece of another (the
word a list holds, a slice of a text), or one made a copy, or a one-item-changed copy, of
another of the same kind. The coverage-first choice downstream keeps the ones that
reach other outputs.

Neither kind reaches the cases a careful program guards (`if not xs: return 0`, `if
len(set(xs)) < 2: return None`, `word = word.lower()`): draws keep the reference lengths
and the call's alphabet. The probe would call such a guard deletable, though a person
writes it on purpose. `edge_inputs` therefore adds, after the drawn ones, the call with one
argument pushed to a boundary, as a fuzzer's list of interesting values does: a container
or text emptied, its items made all equal (numbers: all zero too), a text's case changed, outer blanks or a blank
inside added, a number made 0, negated or moved past a container's length or its largest
item, or made another item that another argument holds (the other keys of a mapping); a
text made title case, digits or blanks, and numbers made whole, the classes the predicates
tell apart (`istitle`, `isdigit`, `isspace`, `is_integer`). Given the program's code,
`literal_inputs` adds its texts with the pieces of text it tests for (`endswith(',')`,
`';' in line`, `word == 'stop'`).
They are offered, not forced: the choice keeps one only where it reaches an arm or an
output the others do not, and one that raises is never kept while others run."""

from __future__ import annotations

import ast
import random
import string
from itertools import chain
from typing import Any

from workers.pipeline.inputs import (InputCandidate, SizeBounds, UnsupportedArguments, distinct_inputs, format_args,
                                     parse_literal_args)

_ALPHABETS = (string.ascii_lowercase, string.ascii_letters + string.digits, "abcde", "xyz ,.-")


def _alphabet_like(text: str) -> str:
    """Characters in the style of the example (keeps separators a program may split on)."""
    chars = set(text)
    base = string.ascii_lowercase
    if any(c.isupper() for c in chars):
        base += string.ascii_uppercase
    if any(c.isdigit() for c in chars):
        base += string.digits
    extras = "".join(sorted(c for c in chars if not c.isalnum()))
    return base + extras * 3  # separators common enough to matter


def _new_int(example: int, rng: random.Random, bounds: SizeBounds) -> int:
    if example in (0, 1) and rng.random() < 0.3:
        return example
    low, high = example - bounds.int_span, example + bounds.int_span
    if example >= 0:
        low = max(0, low)  # keep non-negative values non-negative (indexes, counts)
    return rng.randint(low, high)


def _new_float(example: float, rng: random.Random, bounds: SizeBounds) -> float:
    magnitude = max(abs(example), 1.0)
    value = rng.uniform(-magnitude * 2, magnitude * 2) if example < 0 else rng.uniform(0, magnitude * 2)
    return round(value, rng.choice((1, 2, 3)))


def _new_str(example: str, rng: random.Random, bounds: SizeBounds) -> str:
    if not example:
        return "" if rng.random() < 0.5 else rng.choice(string.ascii_lowercase)
    alphabet = _alphabet_like(example)
    if len(example) == 1:
        length = 1  # a character stays a character
    else:
        low = max(bounds.min_str_len, min(len(example), bounds.max_str_len) - 2)
        length = rng.randint(low, max(low, min(bounds.max_str_len, len(example) + 4)))
    return "".join(rng.choice(alphabet) for _ in range(length))


def _length(example_len: int, rng: random.Random, bounds: SizeBounds) -> int:
    low = max(bounds.min_len, 1 if example_len else 0)
    return rng.randint(low, max(low, min(bounds.max_len, max(example_len, low) + 4)))


def new_value(example: Any, rng: random.Random, bounds: SizeBounds, depth: int = 0) -> Any:
    """A fresh value with the example's type and shape (element types drawn from the example)."""
    if isinstance(example, bool) or example is None:
        return rng.choice((True, False)) if isinstance(example, bool) else None
    if isinstance(example, int):
        return _new_int(example, rng, bounds)
    if isinstance(example, float):
        return _new_float(example, rng, bounds)
    if isinstance(example, str):
        return _new_str(example, rng, bounds)
    if isinstance(example, bytes):
        return _new_str(example.decode("latin-1"), rng, bounds).encode("latin-1")
    if depth >= bounds.max_depth:
        return example
    if isinstance(example, tuple):
        # tuples are records more often than sequences: keep the arity and per-position types;
        # one of three or more items of one type may be a sequence too (its length, what
        # len() and slices of it give, then varies half the time)
        if len(example) >= 3 and len({type(item) for item in example}) == 1 and rng.random() < 0.5:
            return tuple(new_value(rng.choice(example), rng, bounds, depth + 1)
                         for _ in range(_length(len(example), rng, bounds)))
        return tuple(new_value(item, rng, bounds, depth + 1) for item in example)
    if isinstance(example, list):
        if not example:
            return []
        return [new_value(rng.choice(example), rng, bounds, depth + 1) for _ in range(_length(len(example), rng, bounds))]
    if isinstance(example, (set, frozenset)):
        items = list(example)
        if not items:
            return type(example)()
        drawn = {new_value(rng.choice(items), rng, bounds, depth + 1) for _ in range(_length(len(items), rng, bounds))}
        return type(example)(drawn)
    if isinstance(example, dict):
        if not example:
            return {}
        pairs = list(example.items())
        out: dict[Any, Any] = {}
        for _ in range(_length(len(pairs), rng, bounds)):
            key, value = rng.choice(pairs)
            out[new_value(key, rng, bounds, depth + 1)] = new_value(value, rng, bounds, depth + 1)
        return out
    return example


FRESH_FIRST = 4  # synthesized inputs that are always fresh draws: a few inputs taken alone vary most
NEIGHBOUR_SHARE = 0.5  # of the candidates past those, the share that edit the call's own arguments


def _edit(value: Any, rng: random.Random, bounds: SizeBounds) -> Any:
    """`value` changed by one step of its own kind: an item or character dropped, added or
    replaced (the new one drawn like the others), a number moved by one."""
    if isinstance(value, bool) or value is None:
        return value if value is None else not value
    if isinstance(value, int):
        return value + rng.choice((-1, 1)) if value or rng.random() < 0.5 else 1
    if isinstance(value, float):
        return round(value + rng.choice((-1.0, 1.0, -0.5, 0.5)), 2)
    if isinstance(value, tuple) and value and (len(value) < 3 or len({type(v) for v in value}) > 1):
        k = rng.randrange(len(value))  # a record: one field edited, its arity and types kept
        return value[:k] + (_edit(value[k], rng, bounds),) + value[k + 1:]
    if isinstance(value, (str, list, tuple)):
        items = list(value)
        if not items:
            return value
        k = rng.randrange(len(items))
        pool = _alphabet_like(value) if isinstance(value, str) else None
        fresh = rng.choice(pool) if pool is not None else new_value(rng.choice(items), rng, bounds, 1)
        roll = rng.random()
        shortest = bounds.min_str_len if isinstance(value, str) else bounds.min_len
        if roll < 0.35 and len(items) > max(1, shortest):  # (never under the reference lengths)
            del items[k]
        elif roll < 0.7 and len(items) < max(bounds.max_len, bounds.max_str_len):
            items.insert(k, fresh if rng.random() < 0.6 else items[k])  # a new item, or one repeated
        else:
            items[k] = fresh
        return "".join(items) if isinstance(value, str) else type(value)(items)
    if isinstance(value, (set, frozenset)):
        items = list(value)
        if len(items) > bounds.min_len and (rng.random() < 0.5 or len(items) >= bounds.max_len):
            items.remove(rng.choice(items))
        elif items:
            items.append(new_value(rng.choice(items), rng, bounds, 1))
        return type(value)(items)
    if isinstance(value, dict):
        out = dict(value)
        if not out:
            return out
        key = rng.choice(list(out))
        roll = rng.random()
        if roll < 0.35 and len(out) > bounds.min_len:
            del out[key]
        elif roll < 0.7:
            out[key] = new_value(out[key], rng, bounds, 1)
        else:
            out[new_value(key, rng, bounds, 1)] = new_value(out[key], rng, bounds, 1)
        return out
    return value


def _grown(value: Any, rng: random.Random, bounds: SizeBounds) -> Any:
    """A container or text shorter than the reference lengths, its own items kept and more
    drawn like them; anything else as it is (a character stays a character, a record its
    arity)."""
    if isinstance(value, str) and 1 < len(value) < bounds.min_str_len:
        alphabet = _alphabet_like(value)
        return value + "".join(rng.choice(alphabet) for _ in range(bounds.min_str_len - len(value)))
    if isinstance(value, tuple) and (len(value) < 3 or len({type(v) for v in value}) > 1):
        return value
    if isinstance(value, (list, tuple)) and 0 < len(value) < bounds.min_len:
        extra = [new_value(rng.choice(value), rng, bounds, 1) for _ in range(bounds.min_len - len(value))]
        return type(value)([*value, *extra])
    if isinstance(value, (set, frozenset)) and 0 < len(value) < bounds.min_len:
        items, grown = list(value), set(value)
        for _ in range(bounds.min_len * 4):
            if len(grown) >= bounds.min_len:
                break
            grown.add(new_value(rng.choice(items), rng, bounds, 1))
        return type(value)(grown)
    if isinstance(value, dict) and 0 < len(value) < bounds.min_len:
        out, pairs = dict(value), list(value.items())
        for _ in range(bounds.min_len * 4):
            if len(out) >= bounds.min_len:
                break
            key, item = rng.choice(pairs)
            out.setdefault(new_value(key, rng, bounds, 1), new_value(item, rng, bounds, 1))
        return out
    return value


def _kind(value: Any) -> tuple:
    """A value's type with its items' types (a list of words is not a list of numbers)."""
    if isinstance(value, dict):
        return (dict, frozenset(map(type, value)), frozenset(map(type, value.values())))
    if isinstance(value, tuple):
        return (tuple, tuple(map(type, value)) if len(set(map(type, value))) > 1 else frozenset(map(type, value)))
    if isinstance(value, (list, set, frozenset)):
        return (type(value), frozenset(map(type, value)))
    return (type(value),)


def _parts(whole: Any, example: Any) -> list:
    """The items of `whole` (the keys of a mapping) of `example`'s type, or the pieces of a
    text as long as `example` where that is a shorter text: what `x in xs`, `d[k]`,
    `s.find(sub)` look for (none for other values)."""
    if isinstance(example, (bool, type(None), list, set, frozenset, dict, tuple)):
        return []
    if isinstance(whole, str):
        if not isinstance(example, str) or not 0 < len(example) < len(whole):
            return []
        return [whole[k:k + len(example)] for k in range(len(whole) - len(example) + 1)]
    if isinstance(whole, (list, tuple, set, frozenset, dict)):
        return [v for v in whole if type(v) is type(example)]
    return []


def _neighbour(values: tuple, rng: random.Random, bounds: SizeBounds) -> tuple:
    """The call's arguments (grown to the reference lengths) with one edited, one made an
    item or a piece of another (`_parts`), or (where two are of one kind) one made a copy
    of another, or that copy changed by one item."""
    values = [_grown(v, rng, bounds) for v in values]
    kinds = [_kind(v) for v in values]
    same = [(i, j) for i in range(len(values)) for j in range(len(values))
            if i != j and kinds[i] == kinds[j] and isinstance(values[i], (str, list, tuple, set, frozenset, dict))]
    parts = {(i, j): found for i in range(len(values)) for j in range(len(values))
             if i != j and (found := _parts(values[i], values[j]))}
    if (same or parts) and rng.random() < 0.75:
        i, j = rng.choice(same + list(parts))
        if (i, j) in parts:
            values[j] = rng.choice(parts[i, j])
            return tuple(values)
        copy = values[i]
        values[j] = copy if rng.random() < 0.5 or len(copy) < 2 else _edit(copy, rng, bounds)
        return tuple(values)
    k = rng.randrange(len(values))
    values[k] = _edit(values[k], rng, bounds)
    return tuple(values)


# boundary values offered per program, after the drawn candidates (session 30: 8 -> 12, for
# the texts of the predicates' classes)
EDGE_CANDIDATES = 12


def _edges_of(value: Any, others: list) -> list:
    """`value` pushed to the boundaries a program may guard, most telling first (`others`:
    the call's other arguments, which a number may be compared with)."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float)):
        zero = type(value)(0)
        out = [zero, -value] if value else [type(value)(1)]
        if isinstance(value, float) and not value.is_integer():
            out.append(float(round(value)))  # a whole number (`is_integer`)
        for other in others:
            if isinstance(other, (str, list, tuple, set, frozenset, dict)) and not isinstance(value, float):
                out.append(len(other) + 1)  # past the end: a clamp, a too-large k
            numbers = [v for v in other if isinstance(v, (int, float)) and not isinstance(v, bool)] \
                if isinstance(other, (list, tuple, set, frozenset)) else []
            if numbers:
                out.append(type(value)(max(numbers) + 1))  # above every item: a filter that keeps none
        return out
    if isinstance(value, str):
        if len(value) < 2:
            return [value.swapcase()] if value.isalpha() else []
        out = [""]
        if any(c.islower() for c in value):
            out.append(value.upper())
        elif any(c.isupper() for c in value):
            out.append(value.lower())
        out.append(f" {value} ")
        if " " not in value:
            out.append(value[:len(value) // 2] + " " + value[len(value) // 2:])
        out.append(value[0] * len(value))
        return out
    if isinstance(value, tuple) and (len(value) < 3 or len({type(v) for v in value}) > 1):
        return []  # a record: its arity is its type
    if isinstance(value, (list, tuple)):
        out = [type(value)()]
        if len(value) >= 2:
            out.append(type(value)([value[0]] * len(value)))
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value) and any(value):
                out.append(type(value)([type(value[0])(0)] * len(value)))  # all zero: a total that is 0
            try:
                ordered = sorted(value)
            except TypeError:
                ordered = None
            if ordered is not None and ordered != list(value):
                out.append(type(value)(ordered))
        if any(isinstance(v, float) and not v.is_integer() for v in value):
            out.append(type(value)(float(round(v)) if isinstance(v, float) else v for v in value))  # whole
        return out
    if isinstance(value, (set, frozenset)):
        return [type(value)()]
    if isinstance(value, dict):
        out: list = [{}]
        if len(value) >= 2:
            first = next(iter(value.values()))
            out.append({k: first for k in value})
        return out
    return []


def _classes_of(value: Any) -> list:
    """A text made one of the classes the string predicates tell apart (`istitle`, `isdigit`,
    `isspace`): drawn texts keep the call's alphabet, so a test of them gives one answer."""
    if not isinstance(value, str) or len(value) < 2:
        return []
    out = [value.title()] if value.title() != value else []
    out.append("".join(str(ord(c) % 10) for c in value))
    if value[0] != " ":
        out.append(" " * len(value))
    return out


def edge_inputs(args: str, limit: int = EDGE_CANDIDATES) -> list[InputCandidate]:
    """Up to `limit` boundary inputs for the call `args` (see the module's doc): each changes
    one argument of the call, taken in turn over the arguments so that every argument gets
    its most telling ones first. Deterministic; raises UnsupportedArguments when `args` are
    not literals."""
    values = list(parse_literal_args(args))  # (not grown: a text grown would lose what it matched)
    per_argument = [_edges_of(v, values[:k] + values[k + 1:]) for k, v in enumerate(values)]
    for k, v in enumerate(values):  # last: the other items another argument holds (`d[k]` of each key)
        held = [part for i, other in enumerate(values) if i != k for part in _parts(other, v) if part != v]
        per_argument[k] += list(dict.fromkeys(held))[:2] + _classes_of(v)
    found = []
    for rank in range(max(map(len, per_argument), default=0)):
        for k, edges in enumerate(per_argument):
            if rank < len(edges):
                found.append(InputCandidate(format_args((*values[:k], edges[rank], *values[k + 1:])), "boundary"))
    return distinct_inputs((c for c in found if c.args != args), limit)


AFFIX_TESTS = {"startswith": "prefix", "removeprefix": "prefix", "endswith": "suffix", "removesuffix": "suffix"}
# methods whose first argument is a piece a text may hold (`line.count(',')`, `s.split(';')`)
PIECE_TESTS = frozenset({"count", "find", "rfind", "index", "rindex", "split", "rsplit", "partition",
                         "rpartition", "replace"})
LITERAL_CANDIDATES = 6  # texts given a piece of text the program tests for, per program
MAX_LITERAL = 8  # characters: longer literals are messages, not what a text is tested for


def _text_literals(code: str) -> list[tuple[str, str]]:
    """(where, text) for each short text literal the program tests a text for, once each:
    "prefix" / "suffix" for its ends (`w.startswith('re')`, `line.endswith((',', ';'))`,
    `removesuffix('.gz')`), "inside" for a piece it looks for (`',' in line`,
    `line.count('o')`, `s.split(';')`), "whole" for a value it is compared with
    (`word == 'stop'`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []

    def add(where: str, node: ast.AST) -> None:
        for lit in node.elts if isinstance(node, ast.Tuple) else [node]:
            if isinstance(lit, ast.Constant) and isinstance(lit.value, str) and 0 < len(lit.value) <= MAX_LITERAL:
                found.append((where, lit.value))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in AFFIX_TESTS:
                add(AFFIX_TESTS[node.func.attr], node.args[0])
            elif node.func.attr in PIECE_TESTS:
                add("inside", node.args[0])
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            if isinstance(node.ops[0], (ast.In, ast.NotIn)) and not isinstance(node.left, ast.Tuple):
                add("inside", node.left)
            elif isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                add("whole", node.left)
                add("whole", node.comparators[0])
    return list(dict.fromkeys(found))


def _worn(text: str, where: str, piece: str) -> str:
    """`text` given `piece` where a test looks for it."""
    if where == "prefix":
        return piece + text
    if where == "suffix":
        return text + piece
    if where == "inside":
        return text[:len(text) // 2] + piece + text[len(text) // 2:]
    return piece


def literal_inputs(args: str, code: str, limit: int = LITERAL_CANDIDATES) -> list[InputCandidate]:
    """Up to `limit` inputs that give a text argument of the call a piece of text the
    program tests for (`_text_literals`): a test for a piece the call's alphabet never makes
    gives one answer on every drawn input, as a fuzzer's dictionary of the program's own
    constants knows. Deterministic; raises UnsupportedArguments when `args` are not
    literals."""
    values = list(parse_literal_args(args))
    found = []
    for where, piece in _text_literals(code):
        for k, v in enumerate(values):
            if isinstance(v, str) and v and piece != v:
                made = _worn(v, where, piece)
                found.append(InputCandidate(format_args((*values[:k], made, *values[k + 1:])), "boundary"))
    return distinct_inputs((c for c in found if c.args != args), limit)


def candidate_pool(call: str, count: int, seed: int, bounds: SizeBounds | None = None,
                   mutated: str | None = None, edges: int = EDGE_CANDIDATES, code: str = "") -> list[InputCandidate]:
    """The distinct inputs a program's kept ones are chosen from, in priority order: the
    teacher's call, the LLM's mutation of it, `count` type-directed draws, then up to `edges`
    boundary inputs and, given the program's `code` (and `edges`), its texts with the pieces
    of text it tests for. Arguments that are not literals give the call and the mutation alone."""
    pool = [InputCandidate(call, "teacher")]
    if mutated:
        pool.append(InputCandidate(mutated, "llm_mutation"))
    try:
        pool += synthesize_inputs(call, count, seed=seed, bounds=bounds)
        pool += edge_inputs(call, edges) if edges else []
        pool += literal_inputs(call, code) if edges and code else []
    except UnsupportedArguments:
        pass
    return distinct_inputs(pool, len(pool))


def synthesize_inputs(args: str, count: int, seed: int, bounds: SizeBounds | None = None) -> list[InputCandidate]:
    """Up to `count` distinct new argument texts of the same types as `args` (deterministic in
    `seed`). Raises UnsupportedArguments when `args` are not literals."""
    bounds = bounds or SizeBounds()
    values = parse_literal_args(args)
    rng = random.Random(f"synth:{seed}:{args}")
    call = InputCandidate(args, "teacher")
    # drawn lazily, as the choice asks for them: fresh draws first (the first few taken alone
    # stay as varied as before), then the neighbours' share, then whatever is left
    fresh = (InputCandidate(format_args(tuple(new_value(v, rng, bounds) for v in values)), "synthesized")
             for _ in range(count * 4))
    near = (InputCandidate(format_args(_neighbour(tuple(values), rng, bounds)), "synthesized")
            for _ in range(count * 4 if values else 0))
    neighbours = max(0, int((count - FRESH_FIRST) * NEIGHBOUR_SHARE))
    chosen = distinct_inputs(chain([call], fresh), count - neighbours + 1)
    chosen = distinct_inputs(chain(chosen, near), count + 1)
    chosen = distinct_inputs(chain(chosen, fresh, near), count + 1)
    return [c for c in chosen if c.origin == "synthesized"][:count]
