"""Choosing which candidates become questions: seeded, spread over lines, capped.

Round-robin over distinct lines (in a seeded order) so five questions are not five visits
of one loop header; at most `max_never_run` questions about never-run lines per kind, so a
sample's questions are mostly about what did happen. Same seed, same questions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def spread(candidates: Sequence[T], cap: int, rng: random.Random, line_of: Callable[[T], int]) -> list[T]:
    """Up to `cap` candidates, one line at a time in a shuffled line order, a random visit
    of each line per round."""
    by_line: dict[int, list[T]] = {}
    for cand in candidates:
        by_line.setdefault(line_of(cand), []).append(cand)
    lines = sorted(by_line)
    rng.shuffle(lines)
    pools = {line: list(by_line[line]) for line in lines}
    chosen: list[T] = []
    while len(chosen) < cap and any(pools.values()):
        for line in lines:
            pool = pools[line]
            if not pool or len(chosen) >= cap:
                continue
            chosen.append(pool.pop(rng.randrange(len(pool))))
    return chosen


def choose(candidates: Sequence[T], cap: int, max_never_run: int, rng: random.Random,
           is_never: Callable[[T], bool], line_of: Callable[[T], int]) -> list[T]:
    never = [c for c in candidates if is_never(c)]
    ran = [c for c in candidates if not is_never(c)]
    picked_never = spread(never, min(cap, max_never_run), rng, line_of)
    picked = spread(ran, cap - len(picked_never), rng, line_of)
    if len(picked) + len(picked_never) < cap:  # not enough executed material: more never-run
        rest = [c for c in never if c not in picked_never]
        picked_never += spread(rest, cap - len(picked) - len(picked_never), rng, line_of)
    return picked + picked_never
