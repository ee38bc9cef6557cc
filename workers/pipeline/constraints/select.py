"""Selecting a slice of the grid for a batch: filters, per-level counts, seeded blueprints.

The grid is stratified, uniform over types and then over methods: the cells of a level are
dealt in rounds, each round one cell per matching type in a seeded order, and each type
walks its own seeded permutation of its methods. So any 11 consecutive cells of a level
over all 11 types hold every type once (a 66-program C1-C6 batch holds all 66 (type, level)
cells), no type takes more than its 1/n share, and a type's methods all come up before one
repeats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import groupby

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
    """`count` cells per level, stratified over types then methods (`stratified_entries`);
    each cell's blueprint is drawn from a generator seeded by (seed, level, position), so
    the slice is a function of its spec."""
    if count < 1:
        raise SelectionError(f"count must be >= 1, got {count}")
    if not levels:
        raise SelectionError("at least one level is needed")
    entries = filter_entries(catalog, types, methods)
    cells: list[Constraint] = []
    for level in levels:
        name, knobs = resolve_level(level)
        for i, entry in enumerate(stratified_entries(entries, count, f"{seed}:{name}")):
            rng = random.Random(f"select:{seed}:{name}:{knobs}:{i}")
            cells.append(Constraint(entry.type, entry.method, name, with_blueprint(knobs, rng)))
    return cells


def stratified_entries(entries: Sequence[Entry], count: int, tag: str) -> list[Entry]:
    """`count` entries: round r holds one entry of every type, the types in an order
    seeded by (tag, r); a type's k-th entry is the k-th of its own seeded method order
    (a fresh permutation after each full pass)."""
    by_type = {t: list(group) for t, group in groupby(sorted(entries, key=lambda e: e.type),
                                                      key=lambda e: e.type)}
    types = sorted(by_type)
    walks: dict[tuple[str, int], list[Entry]] = {}
    out: list[Entry] = []
    for round_ in range(-(-count // len(types))):
        order = list(types)
        random.Random(f"grid:{tag}:types:{round_}").shuffle(order)
        for t in order[:count - len(out)]:
            lap, k = divmod(round_, len(by_type[t]))
            if (t, lap) not in walks:
                walks[(t, lap)] = list(by_type[t])
                random.Random(f"grid:{tag}:{t}:{lap}").shuffle(walks[(t, lap)])
            out.append(walks[(t, lap)][k])
    return out
