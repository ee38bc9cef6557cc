"""/v1/stats: difficulty distributions and the funnel (cached for a few seconds)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from sqlalchemy.orm import Session

from app.api.deps import db_session
from app.api.schemas import errors
from app.stats import service
from app.stats.cache import SnapshotCache
from app.stats.schemas import DifficultyStats, FunnelStats

router = APIRouter(prefix="/stats", tags=["stats"])
DEFAULT_TTL_S = 10.0


def stats_cache(request: Request) -> SnapshotCache:
    state = request.app.state
    if getattr(state, "stats_cache", None) is None:
        state.stats_cache = SnapshotCache(getattr(state, "stats_ttl_s", DEFAULT_TTL_S))
    return state.stats_cache


@router.get("/difficulty", response_model=DifficultyStats,
            summary="Distributions by type, method, level and solver pass rate; level x pass-rate table",
            responses=errors(422))
def difficulty(
    batch_id: int | None = Query(default=None, ge=1, le=2**63 - 1),
    status: Literal["pending", "executed", "accepted", "rejected"] | None = None,
    session: Session = Depends(db_session),
    cache: SnapshotCache = Depends(stats_cache),
) -> Response:
    return Response(service.difficulty_json(session, cache, batch_id, status), media_type="application/json")


@router.get("/funnel", response_model=FunnelStats, summary="Funnel counts overall and per recent batch",
            responses=errors(422))
def funnel(
    batches: int = Query(default=50, ge=0, le=1000, description="how many recent batches to list"),
    session: Session = Depends(db_session),
    cache: SnapshotCache = Depends(stats_cache),
) -> Response:
    return Response(service.funnel_json(session, cache, batches), media_type="application/json")
