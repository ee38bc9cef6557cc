"""The split builder: disjoint, stratified, seeded, and a pure function of its inputs.

1. Clusters (near-duplicate programs) are dealt to splits in a seeded order. Dealing is
   done per stratum (level x type): a cluster goes to a split still short of its share of
   that stratum, so each split mirrors the population's level/type mix and no cluster is
   ever in two splits; among those, the split holding the fewest samples wins (small
   splits are never starved by big ones). Open-ended splits (a quota without a count)
   only get clusters that no sized split needs.
2. Inside a split, each task quota takes a proportional, stratified pick of the samples
   still unused that are eligible for the task (white-box needs step questions; the
   split's result-length limit applies to all of its tasks).
3. Rows are ordered by a seeded hash, or easy -> hard when a curriculum is asked for.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TypeVar

from training.export.clusters import cluster_programs
from training.export.rows import Candidate
from training.export.spec import SplitSpec
from training.training_tasks import IO_WHITEBOX

T = TypeVar("T")
_SAMPLE_ID = attrgetter("sample_id")


def seeded_key(seed: int, tag: str, value: object) -> int:
    """A 64-bit hash of (seed, tag, value): stable across processes and Python versions."""
    digest = hashlib.blake2b(f"{seed}:{tag}:{value}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def seeded_keyer(seed: int, tag: str) -> Callable[[object], int]:
    """`seeded_key(seed, tag, ·)` for many values: the hash state of the common prefix is
    computed once and copied per value (same keys, about half the cost; a 1M-sample export
    computes over four million of them)."""
    base = hashlib.blake2b(f"{seed}:{tag}:".encode(), digest_size=8)
    from_bytes = int.from_bytes

    def key(value: object) -> int:
        h = base.copy()
        h.update(str(value).encode())
        return from_bytes(h.digest(), "big")

    return key


def eligible(c: Candidate, split: SplitSpec, task_type: str | None = None) -> bool:
    if split.max_result_chars is not None and c.result_chars > split.max_result_chars:
        return False
    if task_type == IO_WHITEBOX:
        return c.n_steps > 0
    if task_type is None:  # useful for at least one of the split's tasks
        return any(eligible(c, split, q.task_type) for q in split.tasks)
    return True


def _rule(split: SplitSpec, task_type: str | None = None) -> tuple[int | None, bool]:
    """`eligible(·, split, task_type)` as data for tight loops: (the result-length limit,
    whether step questions are needed)."""
    if task_type is None:
        return split.max_result_chars, all(q.task_type == IO_WHITEBOX for q in split.tasks)
    return split.max_result_chars, task_type == IO_WHITEBOX


def _usable(cs: list[Candidate], limit: int | None, steps: bool) -> list[Candidate]:
    """The candidates of `cs` that pass `_rule`'s (limit, steps), in order."""
    if limit is None:
        return [c for c in cs if c.n_steps > 0] if steps else cs
    if steps:
        return [c for c in cs if c.result_chars <= limit and c.n_steps > 0]
    return [c for c in cs if c.result_chars <= limit]


@dataclass(frozen=True, slots=True)
class Item:
    """One row to write: a sample asked as one task type."""

    sample_id: int
    task_type: str
    candidate: Candidate


@dataclass
class SplitPlan:
    items: dict[str, list[Item]]  # split name -> rows in write order
    cluster_of: dict[int, int]  # program id -> cluster key
    requested: dict[str, dict[str, int | None]]
    available: int = 0  # candidates that entered the builder
    unassigned_clusters: int = 0
    counts: dict[str, dict[str, int]] = field(default_factory=dict)


def build_splits(cands: Sequence[Candidate], splits: Sequence[SplitSpec], seed: int,
                 curriculum: bool = False) -> SplitPlan:
    programs = {c.program_id: (c.program_id, c.parent_id, c.normalized_hash) for c in cands}
    cluster_of = cluster_programs(programs[p] for p in sorted(programs))
    members: dict[int, list[Candidate]] = defaultdict(list)
    for c in cands:
        members[cluster_of[c.program_id]].append(c)
    assigned, unassigned = _deal(members, splits, seed)
    items = {s.name: _pick(assigned[s.name], s, seed) for s in splits}
    for name, rows in items.items():
        if curriculum:
            rows.sort(key=lambda it: _curriculum_key(it, seed))
        else:
            order = seeded_keyer(seed, "order")
            items[name] = _sorted_by([order(f"{it.sample_id}/{it.task_type}") for it in rows], rows)
    counts = {name: _count(rows) for name, rows in items.items()}
    requested = {s.name: {q.task_type: q.count for q in s.tasks} for s in splits}
    return SplitPlan(items, cluster_of, requested, len(cands), unassigned, counts)


def _stratum(c: Candidate) -> tuple[str, str]:
    return c.level, c.constraint_type


def _deal(members: dict[int, list[Candidate]], splits: Sequence[SplitSpec], seed: int
          ) -> tuple[dict[str, list[Candidate]], int]:
    """Clusters -> splits; returns the candidates of each split and the unused cluster count."""
    # a cluster's stratum is its first sample's; eligibility is counted per split
    by_stratum: dict[tuple[str, str], list[int]] = defaultdict(list)
    for key, cs in members.items():
        by_stratum[_stratum(min(cs, key=_SAMPLE_ID))].append(key)
    rules = [_rule(s) for s in splits]
    gains = {key: [len(_usable(cs, limit, steps)) for limit, steps in rules] for key, cs in members.items()}
    totals = [sum(g[i] for g in gains.values()) for i in range(len(splits))]
    targets = [s.target for s in splits]
    out: dict[str, list[Candidate]] = {s.name: [] for s in splits}
    global_filled = [0] * len(splits)

    def give(key: int, i: int) -> None:
        global_filled[i] += gains[key][i]
        out[splits[i].name].extend(members[key])

    def neediest(key: int, allowed) -> int | None:
        """The allowed sized split, short of its target, holding the fewest samples so far
        (water-filling: when the database is too small for every target, small splits are
        served in full and big ones share the rest)."""
        best, best_rank = None, None
        for i, gain in enumerate(gains[key]):
            t = targets[i]
            if gain and t and allowed(i) and global_filled[i] < t:
                rank = (-global_filled[i], (t - global_filled[i]) / t)
                if best_rank is None or rank > best_rank:
                    best, best_rank = i, rank
        return best

    leftover: list[int] = []
    cluster_key = seeded_keyer(seed, "cluster")
    # pass 1, per stratum: only splits still short of their share of this stratum
    for stratum in sorted(by_stratum):
        keys = sorted(by_stratum[stratum], key=cluster_key)
        supply = [sum(gains[k][i] for k in keys) for i in range(len(splits))]
        want = [0.0 if t is None or not totals[i] else t * supply[i] / totals[i] for i, t in enumerate(targets)]
        filled = [0] * len(splits)
        for key in keys:
            best = neediest(key, lambda i: filled[i] < want[i])
            if best is None:
                leftover.append(key)
                continue
            filled[best] += gains[key][best]
            give(key, best)
    # pass 2: rounding remainders go to sized splits still short overall, the rest to the
    # first open-ended split that can use them
    unassigned = 0
    for key in sorted(leftover, key=cluster_key):
        best = neediest(key, lambda i: True)
        if best is None:
            best = next((i for i, g in enumerate(gains[key]) if g and targets[i] is None), None)
        if best is None:
            unassigned += 1
            continue
        give(key, best)
    return out, unassigned


def _pick(pool: list[Candidate], split: SplitSpec, seed: int) -> list[Item]:
    """Each quota, in spec order, takes a proportional stratified pick of unused samples.

    A sample's rank is its relative position (i + 0.5) / n in its stratum's seeded order,
    ties broken by a seeded key, then by stratum order; the pick is the lowest ranks. The
    ranks are sorted as plain floats, and tie keys are only computed inside runs of equal
    ranks that the pick reaches (no per-sample tuples: they were the planning peak)."""
    used: set[int] = set()
    items: list[Item] = []
    tie = seeded_keyer(seed, "tie")
    for quota in split.tasks:
        task_type = quota.task_type
        strata: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        for c in _usable(pool, *_rule(split, task_type)):
            if c.sample_id not in used:
                strata[_stratum(c)].append(c)
        pick = seeded_keyer(seed, f"pick/{split.name}/{task_type}")
        ranked: list[Candidate] = []  # the strata one after another, each in its seeded order
        ranks: list[float] = []
        for group in strata.values():
            n = len(group)
            ranked += _sorted_by([pick(c.sample_id) for c in group], group)
            ranks += [(i + 0.5) / n for i in range(n)]
        wanted = len(ranked) if quota.count is None else min(quota.count, len(ranked))
        picked: list[int] = []
        # a stable sort keeps equal ranks in stratum order, so sorting such a run by its
        # tie keys gives the (rank, tie, stratum) order
        for _, run in itertools.groupby(sorted(range(len(ranked)), key=ranks.__getitem__), key=ranks.__getitem__):
            run_list = list(run)
            if len(run_list) > 1:
                run_list.sort(key=lambda i: tie(ranked[i].sample_id))
            picked += run_list
            if len(picked) >= wanted:
                break
        for i in picked[:wanted]:
            c = ranked[i]
            used.add(c.sample_id)
            items.append(Item(c.sample_id, task_type, c))
    return items


def _sorted_by(keys: list[int], values: list[T]) -> list[T]:
    """`values` stably sorted by `keys` (a C-level sort of positions, no key callbacks)."""
    return [values[i] for i in sorted(range(len(values)), key=keys.__getitem__)]


def _level_rank(level: str | None) -> tuple[int, str]:
    if level and len(level) == 2 and level[0] == "C" and level[1].isdigit():
        return int(level[1]), level
    return 99, level or ""


def _curriculum_key(it: Item, seed: int) -> tuple:
    c = it.candidate
    return (_level_rank(c.difficulty_level or c.level), _level_rank(c.level),
            c.difficulty_score if c.difficulty_score is not None else 0.0,
            seeded_key(seed, "order", f"{it.sample_id}/{it.task_type}"))


def _count(rows: list[Item]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for it in rows:
        counts[it.task_type] += 1
    return dict(sorted(counts.items()))
