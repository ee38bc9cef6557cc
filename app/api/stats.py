"""/v1/stats: difficulty distributions and the funnel (cached for a few seconds).

The routes are `async`: a fresh snapshot is served from the event loop with no thread hop and
no database session; only a miss goes to the thread pool to query.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from app.api.schemas import errors
from app.core.errors import DomainError
from app.samples.schemas import NO_NUL
from app.db.session import session_factory
from app.stats import service
from app.stats.cache import SnapshotCache
from app.stats.schemas import DifficultyStats, FeatureStats, FunnelStats

router = APIRouter(prefix="/stats", tags=["stats"])
DEFAULT_FUNNEL_BATCHES = 50
log = logging.getLogger(__name__)


async def stats_cache(request: Request) -> SnapshotCache:
    return _cache_of(request.app)


def _cache_of(app: FastAPI) -> SnapshotCache:
    state = app.state
    if getattr(state, "stats_cache", None) is None:
        state.stats_cache = SnapshotCache(state.settings.api.stats_ttl_s)
    return state.stats_cache


def warm(app: FastAPI) -> threading.Thread:
    """Compute the dashboard's default snapshots in the background at startup, so the first
    visitors do not wait for a full-table aggregate (a failure only means they will)."""

    def run() -> None:
        cache = _cache_of(app)
        sessions = session_factory(app.state.settings.database_url)
        try:
            service.difficulty_json(sessions, cache, None, None)
            service.funnel_json(sessions, cache, DEFAULT_FUNNEL_BATCHES)
        except Exception as exc:  # an unmigrated or unreachable database: /readyz reports it
            log.warning("stats warm-up skipped: %s", exc)

    thread = threading.Thread(target=run, name="stats-warm-up", daemon=True)
    thread.start()
    return thread


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
        body = await _in_thread(request, lambda sessions: service.difficulty_json(sessions, cache, batch_id, status))
    return Response(body, media_type="application/json")


@router.get("/features", response_model=FeatureStats,
            summary="Mean difficulty score and difficulty features per level", responses=errors(400, 422))
async def features(
    request: Request,
    batch_id: int | None = Query(default=None, ge=1, le=2**63 - 1),
    type: str | None = Query(default=None, max_length=32, pattern=NO_NUL, description="constraint type"),
    method: str | None = Query(default=None, max_length=64, pattern=NO_NUL, description="constraint method"),
    level: str | None = Query(default=None, max_length=16, pattern=NO_NUL),
    status: Literal["pending", "executed", "accepted", "rejected"] | None = None,
    created_from: datetime | None = Query(default=None, description="samples created at or after (ISO 8601)"),
    created_to: datetime | None = Query(default=None, description="samples created before (ISO 8601)"),
    cache: SnapshotCache = Depends(stats_cache),
) -> Response:
    if created_from is not None and created_to is not None and created_from >= created_to:
        raise DomainError(f"created_from ({created_from.isoformat()}) must be before created_to ({created_to.isoformat()})")
    filters = {"batch_id": batch_id, "type_": type, "method": method, "level": level, "status": status,
               "created_from": _utc(created_from), "created_to": _utc(created_to)}
    body = cache.peek(service.features_key(filters))
    if body is None:
        body = await _in_thread(request, lambda sessions: service.features_json(sessions, cache, filters))
    return Response(body, media_type="application/json")


def _utc(moment: datetime | None) -> datetime | None:
    """A time without an offset is taken as UTC, like every time this API returns."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)


@router.get("/funnel", response_model=FunnelStats,
            summary="Funnel counts overall and per recent batch, of a type/method/level/date slice",
            responses=errors(422))
async def funnel(
    request: Request,
    batches: int = Query(default=DEFAULT_FUNNEL_BATCHES, ge=0, le=1000, description="how many recent batches to list"),
    type: str | None = Query(default=None, max_length=32, pattern=NO_NUL, description="only this constraint type"),
    method: str | None = Query(default=None, max_length=64, pattern=NO_NUL, description="only this constraint method"),
    level: str | None = Query(default=None, max_length=16, pattern=NO_NUL, description="only this level"),
    created_from: datetime | None = Query(default=None, description="rows created at or after (ISO 8601)"),
    created_to: datetime | None = Query(default=None, description="rows created before (ISO 8601)"),
    cache: SnapshotCache = Depends(stats_cache),
) -> Response:
    slice_ = {k: v for k, v in (("type_", type), ("method", method), ("level", level),
                                ("created_from", _utc(created_from)), ("created_to", _utc(created_to))) if v is not None}
    body = cache.peek(service.funnel_key(batches, slice_))
    if body is None:
        body = await _in_thread(request, lambda sessions: service.funnel_json(sessions, cache, batches, slice_))
    return Response(body, media_type="application/json")


async def _in_thread(request: Request, work: Callable[[service.Sessions], bytes]) -> bytes:
    """Run `work` in the thread pool (it may query the database through the sessions given)."""
    return await run_in_threadpool(work, session_factory(request.app.state.settings.database_url))
