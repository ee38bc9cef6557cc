"""The rejection funnel, per level, recomputed from rows (so it is exact under redelivery).

Program stages: generated -> parsed -> constraint-checked -> deduplicated (kept).
Sample stages: inputs -> executed ok -> deterministic -> result usable -> accepted.
Every generated program ends in exactly one of: kept or rejected with one reason.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Program, Sample

TEACHER_OR_PARSE = "teacher_or_parse"
CONSTRAINT_REASONS = {"constraint_mismatch", "constraint_check_failed"}
EXEC_PREFIX = "exec_"
RESULT_REASONS = {"result_not_literal", "result_too_large"}
NATURALNESS_PREFIX = "unnatural_"  # the naturalness gate (issue 15): counted with the constraint check

PROGRAM_STAGES = ("generated", "parsed", "constraint_checked", "deduplicated")
SAMPLE_STAGES = ("inputs", "executed_ok", "deterministic", "result_usable", "accepted")
STAGES = PROGRAM_STAGES + SAMPLE_STAGES


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
    if status == "accepted":
        return len(SAMPLE_STAGES)
    if status in ("pending",):
        return 1
    if status == "executed":
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
        failed = _program_stage_failed(reason if status == "rejected" else None)
        for stage in PROGRAM_STAGES[:failed]:
            counts[level][stage] += n
        if reason:
            reasons[reason] += n
    for level, status, reason, n in session.execute(sq.group_by(Sample.level, Sample.status, Sample.reject_reason)):
        failed = _sample_stage_failed(status, reason)
        for stage in SAMPLE_STAGES[:failed]:
            counts[level][stage] += n
        if reason:
            reasons[reason] += n
    total = dict.fromkeys(STAGES, 0)
    for stages in counts.values():
        for stage, n in stages.items():
            total[stage] += n
    return {"levels": {k: counts[k] for k in sorted(counts)}, "total": total, "reasons": dict(sorted(reasons.items()))}
