"""Which constraint each slot of a batch gets: a pure function of the spec and its seed."""

from __future__ import annotations

import math
from functools import lru_cache

from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.constraints import Catalog, select
from workers.pipeline.records import Constraint, Knobs


def batch_constraints(catalog: Catalog, spec: BatchSpec) -> list[Constraint]:
    """Slot i gets level i mod L (levels interleaved, so any prefix covers them all) and the
    (i div L)-th cell of that level's cycle through the matching (type, method) entries."""
    levels: list[str | Knobs] = [*spec.level_names, *(Knobs(**k.model_dump()) for k in spec.knobs)]
    per_level = max(1, math.ceil(spec.programs / len(levels)))
    cells = select(catalog, types=list(spec.types) or None, methods=list(spec.methods) or None,
                   levels=levels, count=per_level, seed=spec.run_seed)
    n_levels = len(levels)
    return [cells[(i % n_levels) * per_level + i // n_levels] for i in range(spec.programs)]


@lru_cache(maxsize=64)
def cached_constraints(catalog: Catalog, spec: BatchSpec) -> list[Constraint]:
    """Every chunk of a batch needs the same list; specs are frozen, so they key the cache."""
    return batch_constraints(catalog, spec)
