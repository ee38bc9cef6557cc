"""The rejection funnel: the one place that knows which stage each status and reason belongs
to. Counts are always recomputed from rows (exact under redelivery), never incremented.

Two views of the same classification:
- `funnel_stages`: teacher calls -> programs -> samples, each with passed / rejected / in
  progress and rejections by reason (`GET /v1/batches/{id}`, `GET /v1/stats/funnel`, the
  dashboard, the CLI's progress line);
- `funnel_by_level`: a stage-by-stage table per level (the CLI's final table):
  programs generated -> parsed -> constraint-checked -> deduplicated (kept), then samples
  inputs -> executed ok -> deterministic -> result usable -> accepted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.batches.schemas import FunnelStage
from app.db.models import Program, Sample
from workers.pipeline.lifecycle import ProgramStatus, SampleStatus

Counts = Iterable[tuple[str, str | None, int]]  # (status, reject reason, rows)

PASSED = {"programs": ProgramStatus.KEPT, "samples": SampleStatus.ACCEPTED}
CONSTRAINT_REASONS = {"constraint_mismatch", "constraint_check_failed"}
EXEC_PREFIX = "exec_"
RESULT_REASONS = {"result_not_literal", "result_too_large"}
NATURALNESS_PREFIX = "unnatural_"  # the naturalness gate (issue 15): counted with the constraint check

PROGRAM_STAGES = ("generated", "parsed", "constraint_checked", "deduplicated")
SAMPLE_STAGES = ("inputs", "executed_ok", "deterministic", "result_usable", "accepted")
STAGES = PROGRAM_STAGES + SAMPLE_STAGES


def stage(name: str, rows: Counts) -> FunnelStage:
    total = passed = rejected = 0
    reasons: dict[str, int] = {}
    for status, reason, n in rows:
        total += n
        if status == PASSED[name]:
            passed += n
        elif status == "rejected":
            rejected += n
            key = reason or "unspecified"
            reasons[key] = reasons.get(key, 0) + n
    return FunnelStage(stage=name, total=total, passed=passed, rejected=rejected,
                       in_progress=total - passed - rejected,
                       reasons=dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))))


def funnel_stages(teacher: Mapping[str, Any], programs: Counts, samples: Counts) -> list[FunnelStage]:
    errors = teacher["total"] - teacher["ok"]
    calls = FunnelStage(stage="teacher_calls", total=teacher["total"], passed=teacher["ok"], rejected=errors,
                        reasons={"error": errors} if errors else {})
    return [calls, stage("programs", programs), stage("samples", samples)]


def _program_stage_failed(reason: str | None) -> int:
    """Index of the first program stage this program did NOT pass (len = passed all)."""
    if reason is None:
        return len(PROGRAM_STAGES)
    if reason in CONSTRAINT_REASONS or reason.startswith(NATURALNESS_PREFIX):
        return 2
    if reason == "duplicate":
        return 3
    return 1  # teacher error or a parse rejection


def _sample_stage_failed(status: str, reason: str | None) -> int:
    if status == SampleStatus.ACCEPTED:
        return len(SAMPLE_STAGES)
    if status == SampleStatus.PENDING:
        return 1
    if status == SampleStatus.EXECUTED:
        return 4
    if reason and reason.startswith(EXEC_PREFIX):
        return 1
    if reason == "hash_order_dependent":
        return 2
    if reason in RESULT_REASONS:
        return 3
    return 4  # difficulty band, teacher check or question building


def funnel_by_level(session: Session, batch_id: int | None = None) -> dict[str, Any]:
    """{"levels": {level: {stage: count}}, "total": {stage: count}, "reasons": {reason: count}}."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(STAGES, 0))
    reasons: dict[str, int] = defaultdict(int)
    pq = select(Program.level, Program.status, Program.reject_reason, func.count()).where(Program.variant == 0)
    sq = select(Sample.level, Sample.status, Sample.reject_reason, func.count())
    if batch_id is not None:
        pq = pq.where(Program.batch_id == batch_id)
        sq = sq.where(Sample.batch_id == batch_id)
    for level, status, reason, n in session.execute(pq.group_by(Program.level, Program.status, Program.reject_reason)):
        failed = _program_stage_failed(reason if status == ProgramStatus.REJECTED else None)
        for name in PROGRAM_STAGES[:failed]:
            counts[level][name] += n
        if reason:
            reasons[reason] += n
    for level, status, reason, n in session.execute(sq.group_by(Sample.level, Sample.status, Sample.reject_reason)):
        failed = _sample_stage_failed(status, reason)
        for name in SAMPLE_STAGES[:failed]:
            counts[level][name] += n
        if reason:
            reasons[reason] += n
    total = dict.fromkeys(STAGES, 0)
    for per_stage in counts.values():
        for name, n in per_stage.items():
            total[name] += n
    return {"levels": {k: counts[k] for k in sorted(counts)}, "total": total, "reasons": dict(sorted(reasons.items()))}
