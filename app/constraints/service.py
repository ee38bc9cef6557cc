"""Reads of the constraint catalog and validation of a batch's grid slice against it.

The catalog is derived from the interpreter once per process (it never changes while the
process runs), so validation of a POST costs a dictionary walk, not a rebuild.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from functools import lru_cache

from workers.pipeline.constraints import (
    CONTROL_KINDS, LEVELS, Catalog, SelectionError, filter_entries, load_catalog,
)

from app.constraints.schemas import ConstraintEntryRead, ConstraintsRead, LevelRead


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    return load_catalog()


def known_types() -> list[str]:
    return list(catalog().types())


def known_methods(types: Sequence[str] = ()) -> list[str]:
    wanted = set(types)
    return sorted({e.method for e in catalog().entries if not wanted or e.type in wanted})


def suggestions(bad: Sequence[str], known: Sequence[str]) -> str:
    """`" (did you mean 'split'?)"` for near misses, else the valid names when there are few."""
    close = sorted({m for name in bad for m in difflib.get_close_matches(name, known, n=3, cutoff=0.6)})
    if close:
        return f" (did you mean {', '.join(repr(c) for c in close)}?)"
    return f" (known: {', '.join(known)})" if len(known) <= 40 else " (see GET /v1/constraints or `execsynth constraints list`)"


def unknown_types(types: Sequence[str]) -> list[str]:
    return list(_unknown_types(tuple(types)))


def unknown_methods(types: Sequence[str], methods: Sequence[str]) -> list[str]:
    """Methods that match no catalog entry of `types` (all types when empty)."""
    return list(_unknown_methods(tuple(types), tuple(methods)))


# Researchers post the same few slices of the grid over and over; a method lookup walks the
# whole catalog, so the answers are remembered (the catalog never changes in a process).
@lru_cache(maxsize=4096)
def _unknown_types(types: tuple[str, ...]) -> tuple[str, ...]:
    known = set(catalog().types())
    return tuple(t for t in dict.fromkeys(types) if t not in known)


@lru_cache(maxsize=4096)
def _unknown_methods(types: tuple[str, ...], methods: tuple[str, ...]) -> tuple[str, ...]:
    missing = []
    for method in dict.fromkeys(methods):
        try:
            filter_entries(catalog(), list(types) or None, [method])
        except SelectionError:
            missing.append(method)
    return tuple(missing)


def list_constraints(type_name: str | None = None, method: str | None = None) -> ConstraintsRead:
    entries = catalog().entries
    if type_name is not None:
        entries = tuple(e for e in entries if e.type == type_name)
    if method is not None:
        entries = tuple(e for e in entries if method in (e.method, f"{e.type}.{e.method}", e.method.removesuffix("()")))
    return ConstraintsRead(
        total=len(entries),
        types=catalog().types(),
        levels=[
            LevelRead(name=name, nested_calls=k.nested_calls, other_methods=k.other_methods,
                      call_chain=k.call_chain, control_flow_depth=k.control_flow_depth)
            for name, k in LEVELS.items()
        ],
        control_kinds=list(CONTROL_KINDS),
        entries=[ConstraintEntryRead(type=e.type, method=e.method, syntax=e.syntax.kind, origin=e.origin) for e in entries],
    )
