"""Which constraint each slot of a batch gets: a pure function of (spec, seed)."""

from __future__ import annotations

import json
import math

from workers.pipeline.constraints import Catalog, select
from workers.pipeline.plan import BatchPlan
from workers.pipeline.records import Constraint, Knobs


def batch_constraints(catalog: Catalog, plan: BatchPlan) -> list[Constraint]:
    """Slot i gets level i mod L (levels interleaved, so any prefix covers them all) and the
    (i div L)-th cell of that level's cycle through the matching (type, method) entries."""
    levels: list[str | Knobs] = [*plan.levels, *(_knobs(k) for k in plan.knobs)]
    per_level = max(1, math.ceil(plan.programs / len(levels)))
    cells = select(catalog, types=plan.types, methods=plan.methods, levels=levels, count=per_level, seed=plan.seed)
    n_levels = len(levels)
    return [cells[(i % n_levels) * per_level + i // n_levels] for i in range(plan.programs)]


_cache: dict[str, list[Constraint]] = {}


def cached_constraints(catalog: Catalog, spec: dict, seed: int) -> list[Constraint]:
    key = json.dumps([spec, seed], sort_keys=True)
    if key not in _cache:
        if len(_cache) > 64:
            _cache.clear()
        _cache[key] = batch_constraints(catalog, BatchPlan.from_spec(spec, seed))
    return _cache[key]


def _knobs(spec: dict) -> Knobs:
    return Knobs(**{**spec, "blueprint": tuple(spec.get("blueprint") or ())})
