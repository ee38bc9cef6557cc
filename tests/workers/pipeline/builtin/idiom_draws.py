"""Draws of the idiom library over every entry that has a use, for one blueprint (shared by
the idiom shape tests)."""

from __future__ import annotations

import random

from workers.pipeline.builtin.idiom_uses import USES
from workers.pipeline.builtin.idioms import build_idiom
from workers.pipeline.constraints import load_catalog
from workers.pipeline.records import Knobs

CATALOG = load_catalog()
NAMES = ("process_batch",)


def blueprint_draws(blueprint: tuple[str, ...], per_entry: int, kinds: tuple[str, ...] | None,
                    salt: str) -> list[tuple[str, str, str]]:
    """(code, entry point, arguments) of up to `per_entry` draws of each entry (of the types
    in `kinds`, or every type) at C3-C5 knobs with `blueprint`; entries that decline are left out."""
    knobs = Knobs(True, True, False, len(blueprint), blueprint)
    out = []
    for t, method in USES:
        if kinds and t not in kinds:
            continue
        for i in range(per_entry):
            made = build_idiom(CATALOG.get(t, method), knobs, random.Random(f"{salt}:{t}:{method}:{i}"), NAMES)
            if made is not None:
                out.append(made)
    return out


def use_function(text: str, names: dict[str, str]) -> str:
    """A use's template written as a function `f` of the parameters it reads (an unread
    parameter is a finding of its own)."""
    params = [p for p in ("xs", "ys", "w", "x", "i", "n") if "{" + p + "}" in text]
    return f"def f({', '.join(params)}):\n    return {text.format(**names)}\n"
