"""Choosing which candidates become questions: seeded, spread over lines, capped.

Round-robin over distinct lines so five questions are not five visits of one loop header;
lines with the most valuable candidates come first (ties in a seeded order) and each round
takes one of a line's most valuable remaining candidates. Constant answers (-1, Nil) are
what a guessing policy gives, so a sample asks at most `max_constant` of them per kind, only
beside at least one ordinary question, and only with a probability that keeps their
expected share of that kind's questions at `constant_share` or less. Same seed, same
questions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def spread(candidates: Sequence[T], cap: int, rng: random.Random, line_of: Callable[[T], int],
           priority_of: Callable[[T], int] = lambda c: 0) -> list[T]:
    """Up to `cap` candidates, one line at a time, the most valuable lines first, one of a
    line's most valuable remaining candidates per round."""
    by_line: dict[int, list[T]] = {}
    for cand in candidates:
        by_line.setdefault(line_of(cand), []).append(cand)
    keys = {line: (-max(priority_of(c) for c in pool), rng.random()) for line, pool in sorted(by_line.items())}
    lines = sorted(by_line, key=keys.__getitem__)
    pools = {line: list(by_line[line]) for line in lines}
    chosen: list[T] = []
    while len(chosen) < cap and any(pools.values()):
        for line in lines:
            pool = pools[line]
            if not pool or len(chosen) >= cap:
                continue
            best = max(priority_of(c) for c in pool)
            top = [i for i, c in enumerate(pool) if priority_of(c) == best]
            chosen.append(pool.pop(top[rng.randrange(len(top))]))
    return chosen


def choose(candidates: Sequence[T], cap: int, max_constant: int, constant_share: float, rng: random.Random,
           is_constant: Callable[[T], bool], line_of: Callable[[T], int],
           priority_of: Callable[[T], int] = lambda c: 0) -> list[T]:
    ordinary = spread([c for c in candidates if not is_constant(c)], cap, rng, line_of, priority_of)
    constants = [c for c in candidates if is_constant(c)]
    n = min(max_constant, len(constants), cap - 1)
    if not ordinary or n <= 0:
        return ordinary
    kept = ordinary[:cap - n]
    # asked with probability share * (questions of the kind) / n: expected share <= constant_share
    if rng.random() >= constant_share * (len(kept) + n) / n:
        return ordinary
    return kept + spread(constants, n, rng, line_of)
