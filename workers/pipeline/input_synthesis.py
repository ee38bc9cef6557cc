"""Type-directed input synthesis: infer each argument's type and shape from a known call and
draw new values of the same type and shape with a seeded generator under size bounds."""

from __future__ import annotations

import random
import string
from typing import Any

from workers.pipeline.inputs import InputCandidate, SizeBounds, distinct_inputs, format_args, parse_literal_args

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


def synthesize_inputs(args: str, count: int, seed: int, bounds: SizeBounds | None = None) -> list[InputCandidate]:
    """Up to `count` distinct new argument texts of the same types as `args` (deterministic in
    `seed`). Raises UnsupportedArguments when `args` are not literals."""
    bounds = bounds or SizeBounds()
    values = parse_literal_args(args)
    rng = random.Random(f"synth:{seed}:{args}")
    candidates = [InputCandidate(args, "teacher")]
    for _ in range(count * 4):
        fresh = tuple(new_value(v, rng, bounds) for v in values)
        candidates.append(InputCandidate(format_args(fresh), "synthesized"))
    return [c for c in distinct_inputs(candidates, count + 1) if c.origin == "synthesized"][:count]
