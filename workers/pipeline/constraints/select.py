"""Selecting a slice of the grid for a batch: filters, per-level counts, seeded blueprints.

The grid is dealt uniformly over catalog entries, with a floor per type (the policy the
paper's released run approximates by cycling through every (type, method) pair): a level's
first cells hold one entry of every matching type, in a seeded order, so a 66-program
C1-C6 batch holds all 66 (type, level) cells; the rest walk seeded permutations of all the
matching entries, each entry once per pass, so every method comes up before any repeats and
a type's share follows its number of methods (`str`, 65 of 186 entries, about 35%). No type
takes more than MAX_TYPE_SHARE of a level's cells (its 1/n share where fewer than three
types match, so a two-type batch splits evenly). Uniform over types instead gave each of the
five one-entry types (`zip`, `enumerate` ...) as many programs as all 65 `str` methods
together: 45% of a batch on five functions.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import groupby

from workers.pipeline.constraints.catalog import Catalog, Entry
from workers.pipeline.constraints.levels import resolve_level, with_blueprint
from workers.pipeline.constraints.syntax import canonical_method
from workers.pipeline.records import Constraint, Knobs


MAX_TYPE_SHARE = 0.4  # of a level's cells, for any one type (the issue-15 bound)


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
    """`count` cells per level, uniform over entries with a floor per type (`stratified_entries`);
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
    """`count` entries: first one of every type (the types in an order seeded by `tag`,
    each its seeded pick), then seeded permutations of all `entries` (the floor's entries
    sit out the first pass), each entry once per pass, skipping a type at its cap."""
    by_type = {t: list(group) for t, group in groupby(sorted(entries, key=lambda e: e.type),
                                                      key=lambda e: e.type)}
    order = sorted(by_type)
    random.Random(f"grid:{tag}:types").shuffle(order)
    out = [random.Random(f"grid:{tag}:{t}").choice(by_type[t]) for t in order[:count]]
    floor = set(out)
    cap = max(math.ceil(MAX_TYPE_SHARE * count), math.ceil(count / len(by_type)))
    taken = Counter(e.type for e in out)
    everything = [e for group in by_type.values() for e in group]
    lap = 0
    while len(out) < count:
        walk = list(everything)
        random.Random(f"grid:{tag}:entries:{lap}").shuffle(walk)
        for entry in walk:
            if len(out) == count:
                break
            if (lap == 0 and entry in floor) or taken[entry.type] >= cap:
                continue
            out.append(entry)
            taken[entry.type] += 1
        lap += 1
    return out
