"""/v1/stats: difficulty distributions and the funnel (cached for a few seconds).

The routes are `async`: a fresh snapshot is served from the event loop with no thread hop and
no database session; only a miss goes to the thread pool to query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.api.schemas import errors
from app.db.session import session_factory
from app.stats import service
from app.stats.cache import SnapshotCache
from app.stats.schemas import DifficultyStats, FunnelStats

router = APIRouter(prefix="/stats", tags=["stats"])
DEFAULT_TTL_S = 10.0


async def stats_cache(request: Request) -> SnapshotCache:
    state = request.app.state
    if getattr(state, "stats_cache", None) is None:
        state.stats_cache = SnapshotCache(getattr(state, "stats_ttl_s", DEFAULT_TTL_S))
    return state.stats_cache


@router.get("/difficulty", response_model=DifficultyStats,
            summary="Distributions by type, method, level and solver pass rate; level x pass-rate table",
            responses=errors(422))
async def difficulty(
    request: Request,
    batch_id: int | None = Query(default=None, ge=1, le=2**63 - 1),
    status: Literal["pending", "executed", "accepted", "rejected"] | None = None,
    cache: SnapshotCache = Depends(stats_cache),
) -> Response:
    body = cache.peek(service.difficulty_key(batch_id, status))
    if body is None:
        body = await _in_thread(request, lambda session: service.difficulty_json(session, cache, batch_id, status))
    return Response(body, media_type="application/json")


@router.get("/funnel", response_model=FunnelStats, summary="Funnel counts overall and per recent batch",
            responses=errors(422))
async def funnel(
    request: Request,
    batches: int = Query(default=50, ge=0, le=1000, description="how many recent batches to list"),
    cache: SnapshotCache = Depends(stats_cache),
) -> Response:
    body = cache.peek(service.funnel_key(batches))
    if body is None:
        body = await _in_thread(request, lambda session: service.funnel_json(session, cache, batches))
    return Response(body, media_type="application/json")


async def _in_thread(request: Request, work: Callable[[Session], bytes]) -> bytes:
    """Run `work` with its own session in the thread pool (it may query the database)."""

    def run() -> bytes:
        with session_factory(request.app.state.settings.database_url)() as session:
            return work(session)

    return await run_in_threadpool(run)
