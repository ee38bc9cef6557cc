"""Builtin answer to "mutate_inputs": new arguments of the same types, built from the
reference values (METHOD.md section 2), instead of asking an LLM to rewrite the call.

Type-directed: each literal argument is replaced by a value of its own type (str from the
reference strings, ints from the reference integers, containers of length L > 5 with
elements of the original element type), so the program's type expectations still hold.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Mapping
from typing import Any

from workers.pipeline.inputs import literal_source


class MutationError(ValueError):
    """The context lacks a field, or an argument is not a literal."""


def _refs(context: Mapping[str, Any]) -> tuple[int, list[int], list[str]]:
    refs = context.get("reference_values") or {}
    ints = [int(i) for i in refs.get("integers", [])] or list(range(5, 21))
    strs = [str(s) for s in refs.get("strings", [])] or ["abcdef", "zzzzzz", "a1,b2;c3"]
    length = max(6, int(refs.get("length", 6)))
    return length, ints, strs


class _Mutator:
    def __init__(self, rng: random.Random, length: int, ints: list[int], strs: list[str]) -> None:
        self.rng, self.length, self.ints, self.strs = rng, length, ints, strs

    def like(self, value: Any) -> Any:
        rng = self.rng
        if isinstance(value, bool):
            return rng.random() < 0.5
        if isinstance(value, int):
            return rng.choice(self.ints)
        if isinstance(value, float):
            return round(rng.choice(self.ints) * rng.choice((1, -1)) + rng.choice((0.25, 0.5, 0.75)), 2)
        if isinstance(value, str):
            return rng.choice(self.strs)
        if isinstance(value, bytes):
            return rng.choice(self.strs).encode("ascii", "replace")
        if isinstance(value, (list, tuple)):
            sample = value[0] if value else 0
            items = [self.like(sample) for _ in range(self.length)]
            return items if isinstance(value, list) else tuple(items)
        if isinstance(value, (set, frozenset)):
            sample = next(iter(sorted(value, key=repr)), 0)
            items = {self.like(sample) for _ in range(self.length * 3)}
            return items if isinstance(value, set) else frozenset(items)
        if isinstance(value, dict):
            key, val = next(iter(value.items()), ("k", 0))
            out = {}
            for _ in range(self.length * 3):
                out[self.like(key)] = self.like(val)
                if len(out) >= self.length:
                    break
            return out
        return value  # None and other singletons stay


def mutate_arguments(context: Mapping[str, Any], seed: int, variant: int = 0) -> str:
    """A completion (one fenced block: the program and the new call) for the context
    {"code", "entry_point", "args", "reference_values"}."""
    try:
        code, entry, args = context["code"], context["entry_point"], context["args"]
    except KeyError as exc:
        raise MutationError(f"mutate_inputs context lacks {exc.args[0]!r}") from None
    try:
        call = ast.parse(f"_f({args})", mode="eval").body
        assert isinstance(call, ast.Call)
        positional = [ast.literal_eval(a) for a in call.args]
        keywords = [(k.arg, ast.literal_eval(k.value)) for k in call.keywords]
    except (SyntaxError, ValueError, AssertionError) as exc:
        raise MutationError(f"arguments are not all literals: {args!r}") from exc
    rng = random.Random(f"mutate:{seed}:{entry}:{args}:{variant}")
    m = _Mutator(rng, *_refs(context))
    parts = [literal_source(m.like(v)) for v in positional]
    parts += [f"{k}={literal_source(m.like(v))}" for k, v in keywords if k is not None]
    return f"```python\n{code.rstrip()}\n\nprint({entry}({', '.join(parts)}))\n```"
