"""The gate's verdict for one program: its static findings and, once its sample inputs ran
through the probe job, its dynamic ones; a batch may skip named checks."""

from __future__ import annotations

from collections.abc import Iterable

from workers.pipeline.naturalness.dynamic import DYNAMIC_REASONS, DynamicFacts
from workers.pipeline.naturalness.static import STATIC_REASONS, static_findings

REASONS = STATIC_REASONS + DYNAMIC_REASONS


class UnknownCheck(ValueError):
    """A skip list naming a check the gate does not have."""


def checked(skip: Iterable[str] = ()) -> frozenset[str]:
    skip = frozenset(skip)
    unknown = sorted(skip - set(REASONS))
    if unknown:
        raise UnknownCheck(f"unknown naturalness checks {unknown}; known: {list(REASONS)}")
    return frozenset(REASONS) - skip


def static_reasons(code: str, skip: Iterable[str] = (), entry_point: str | None = None) -> list[str]:
    """Named reasons to reject `code` (whose entry is `entry_point`) before it runs, in
    REASONS order (empty: passes)."""
    active = checked(skip)
    found = {f.reason for f in static_findings(code, entry_point)}
    return [r for r in STATIC_REASONS if r in found and r in active]


def dynamic_reasons(facts: DynamicFacts, skip: Iterable[str] = ()) -> list[str]:
    active = checked(skip)
    return [r for r in facts.reasons() if r in active]
