"""Difficulty distributions and the funnel, folded from one grouped query each and served
from a short-lived snapshot (see stats.cache)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import fields
from datetime import datetime, timezone

from sqlalchemy.orm import Session

from app.synthesis.funnel import funnel_stages
from app.db.models import Program, Sample
from app.stats import repository as repo
from app.stats.cache import SnapshotCache
from app.stats.schemas import (
    BatchFunnel, Bucket, DifficultyStats, FeatureStats, FunnelStats, LevelFeatures, MethodBucket, PassRateBucket,
)
from workers.pipeline.difficulty.features import Features
from workers.pipeline.lifecycle import SampleStatus

# Where a snapshot computation gets its session: it may run on a refresh thread after the
# request that triggered it has returned, so it opens (and closes) its own.
Sessions = Callable[[], Session]

# every feature the difficulty estimator reads, as stored in samples.features
FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Features))


def acceptance_rate(accepted: int, rejected: int) -> float | None:
    """Accepted over finished samples: those still pending or executed are not yet a verdict,
    so a running batch does not look worse than it is. None while nothing has finished."""
    finished = accepted + rejected
    return round(accepted / finished, 4) if finished else None


class _Acc:
    __slots__ = ("total", "accepted", "rejected", "solved", "rate_sum")

    def __init__(self) -> None:
        self.total = self.accepted = self.rejected = self.solved = 0
        self.rate_sum = 0.0

    def add(self, n: int, status: str, rate: float | None) -> None:
        self.total += n
        self.accepted += n if status == SampleStatus.ACCEPTED else 0
        self.rejected += n if status == SampleStatus.REJECTED else 0
        if rate is not None:
            self.solved += n
            self.rate_sum += rate * n

    def fields(self) -> dict:
        return {"total": self.total, "accepted": self.accepted, "rejected": self.rejected,
                "acceptance_rate": acceptance_rate(self.accepted, self.rejected), "solved_samples": self.solved,
                "mean_pass_rate": round(self.rate_sum / self.solved, 4) if self.solved else None}


def fold_difficulty(rows: Iterable[tuple], max_age_s: float) -> DifficultyStats:
    by_type: dict[str, _Acc] = defaultdict(_Acc)
    by_method: dict[tuple[str, str], _Acc] = defaultdict(_Acc)
    by_level: dict[str, _Acc] = defaultdict(_Acc)
    by_rate: dict[float, list[int]] = defaultdict(lambda: [0, 0])
    table: dict[str, dict[str, int]] = defaultdict(dict)
    overall = _Acc()
    for type_name, method, level, status, k, passes, n in rows:
        ok = status == SampleStatus.ACCEPTED
        rate = passes / k if k and passes is not None else None
        for acc in (by_type[type_name], by_method[(type_name, method)], by_level[level], overall):
            acc.add(n, status, rate)
        if rate is not None:
            bucket = round(rate, 1)
            by_rate[bucket][0] += n
            by_rate[bucket][1] += n if ok else 0
            table[level][f"{bucket:.1f}"] = table[level].get(f"{bucket:.1f}", 0) + n
    return DifficultyStats(
        total=overall.total, accepted=overall.accepted, rejected=overall.rejected,
        acceptance_rate=acceptance_rate(overall.accepted, overall.rejected),
        by_type=[Bucket(key=k, **a.fields()) for k, a in sorted(by_type.items())],
        by_method=[MethodBucket(key=f"{t}.{m}", type=t, method=m, **a.fields()) for (t, m), a in sorted(by_method.items())],
        by_level=[Bucket(key=k, **a.fields()) for k, a in sorted(by_level.items())],
        pass_rate=[PassRateBucket(pass_rate=r, total=v[0], accepted=v[1]) for r, v in sorted(by_rate.items())],
        level_pass_rate={lvl: dict(sorted(cells.items())) for lvl, cells in sorted(table.items())},
        computed_at=datetime.now(timezone.utc), max_age_s=max_age_s,
    )


def difficulty_key(batch_id: int | None, status: str | None) -> tuple:
    return ("difficulty", batch_id, status)


def difficulty_json(sessions: Sessions, cache: SnapshotCache, batch_id: int | None, status: str | None) -> bytes:
    """The snapshot is kept encoded: re-validating and re-encoding ~200 buckets per request
    would cost more than serving them."""

    def compute() -> bytes:
        with sessions() as session:
            rows = repo.difficulty_groups(session, batch_id, status)
        return fold_difficulty(rows, cache.ttl_s).model_dump_json().encode()

    return cache.get(difficulty_key(batch_id, status), compute)


def features_key(filters: dict) -> tuple:
    return ("features", *sorted(filters.items()))


def features_json(sessions: Sessions, cache: SnapshotCache, filters: dict) -> bytes:
    """Mean difficulty score and features per level over the samples matching `filters` (the
    keyword arguments of repository.feature_means)."""

    def compute() -> bytes:
        with sessions() as session:
            rows = repo.feature_means(session, FEATURE_NAMES, **filters)
        names = ("difficulty_score", *FEATURE_NAMES)
        levels = [LevelFeatures(level=level, samples=n, with_features=n_features,
                                means={name: None if v is None else float(v) for name, v in zip(names, means)})
                  for level, n, n_features, *means in rows]
        return FeatureStats(features=list(names), levels=levels, computed_at=datetime.now(timezone.utc),
                            max_age_s=cache.ttl_s).model_dump_json().encode()

    return cache.get(features_key(filters), compute)


def _funnel(session: Session, limit: int, max_age_s: float, slice_: dict | None = None) -> FunnelStats:
    programs: dict[int, list] = defaultdict(list)
    samples: dict[int, list] = defaultdict(list)
    for rows, into in ((repo.funnel_groups(session, Program, slice_), programs),
                       (repo.funnel_groups(session, Sample, slice_), samples)):
        for batch_id, status, reason, n in rows:
            into[batch_id].append((status, reason, n))
    teacher = {b: {"total": t, "ok": ok} for b, t, ok in repo.teacher_groups(session, slice_)}
    overall_teacher = {"total": sum(v["total"] for v in teacher.values()), "ok": sum(v["ok"] for v in teacher.values())}
    overall = funnel_stages(overall_teacher, [r for v in programs.values() for r in v], [r for v in samples.values() for r in v])
    batches = [
        BatchFunnel(batch_id=b, status=status, funnel=funnel_stages(teacher.get(b, {"total": 0, "ok": 0}), programs.get(b, []), samples.get(b, [])))
        for b, status in repo.recent_batches(session, limit)
    ]
    return FunnelStats(overall=overall, batches=batches, computed_at=datetime.now(timezone.utc), max_age_s=max_age_s)


def funnel_key(limit: int, slice_: dict | None = None) -> tuple:
    return ("funnel", limit, *sorted((slice_ or {}).items()))


def funnel_json(sessions: Sessions, cache: SnapshotCache, limit: int, slice_: dict | None = None) -> bytes:
    """The funnel overall and per recent batch, of the grid slice {type_, method, level,
    created_from, created_to} (values None: unfiltered)."""
    slice_ = {k: v for k, v in (slice_ or {}).items() if v is not None}

    def compute() -> bytes:
        with sessions() as session:
            return _funnel(session, limit, cache.ttl_s, slice_).model_dump_json().encode()

    return cache.get(funnel_key(limit, slice_), compute)
