"""Funnel stages from grouped (status, reason, count) rows; shared by batch detail and stats."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.batches.schemas import FunnelStage

PASSED = {"programs": "kept", "samples": "accepted"}


def stage(name: str, rows: Iterable[tuple[str, str | None, int]]) -> FunnelStage:
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


def funnel_stages(teacher: Mapping[str, Any], programs: Iterable[tuple[str, str | None, int]],
                  samples: Iterable[tuple[str, str | None, int]]) -> list[FunnelStage]:
    errors = teacher["total"] - teacher["ok"]
    calls = FunnelStage(stage="teacher_calls", total=teacher["total"], passed=teacher["ok"], rejected=errors,
                        reasons={"error": errors} if errors else {})
    return [calls, stage("programs", programs), stage("samples", samples)]
