"""Selecting a slice of the grid for a batch: filters, per-level counts, seeded blueprints."""

from __future__ import annotations

import random
from collections.abc import Sequence

from workers.pipeline.constraints.catalog import Catalog, Entry
from workers.pipeline.constraints.levels import resolve_level, with_blueprint
from workers.pipeline.constraints.syntax import canonical_method
from workers.pipeline.records import Constraint, Knobs


class SelectionError(ValueError):
    """Filters that match nothing, or a non-positive count."""


def filter_entries(catalog: Catalog, types: Sequence[str] | None = None,
                   methods: Sequence[str] | None = None) -> list[Entry]:
    """Entries whose type is in `types` and method in `methods` (None: all). A method may be
    given bare ("split"), as written in the grid ("len()"), or as "type.method"."""
    entries = list(catalog.entries)
    if types:
        known = set(catalog.types())
        unknown = [t for t in types if t not in known]
        if unknown:
            raise SelectionError(f"unknown types {unknown}; known: {sorted(known)}")
        entries = [e for e in entries if e.type in set(types)]
    if methods:
        wanted = set(methods)
        entries = [e for e in entries if _matches(e, wanted)]
    if not entries:
        raise SelectionError(f"no catalog entry matches types={types} methods={methods}")
    return entries


def _matches(entry: Entry, wanted: set[str]) -> bool:
    names = {entry.method, f"{entry.type}.{entry.method}"}
    if entry.method.endswith("()"):
        names.add(entry.method[:-2])
    return bool(names & wanted) or canonical_method(entry.type, entry.method) in {
        canonical_method(entry.type, w) for w in wanted}


def select(catalog: Catalog, types: Sequence[str] | None = None,
           methods: Sequence[str] | None = None,
           levels: Sequence[str | Knobs] = ("C1",), count: int = 1, seed: int = 0) -> list[Constraint]:
    """`count` cells per level, cycling through the matching entries in catalog order (as
    the reference run cycles through every pair); each cell's blueprint is drawn from a
    generator seeded by (seed, level, position), so the slice is a function of its spec."""
    if count < 1:
        raise SelectionError(f"count must be >= 1, got {count}")
    if not levels:
        raise SelectionError("at least one level is needed")
    entries = filter_entries(catalog, types, methods)
    cells: list[Constraint] = []
    for level in levels:
        name, knobs = resolve_level(level)
        for i in range(count):
            entry = entries[i % len(entries)]
            rng = random.Random(f"select:{seed}:{name}:{knobs}:{i}")
            cells.append(Constraint(entry.type, entry.method, name, with_blueprint(knobs, rng)))
    return cells
