"""The scheduled exports' planning step, run on each beat tick.

Per format there is one chain of incremental runs: each exports the samples created in
[end of the last *successful* run, window end), so a failed or lost run's window is simply
covered again by the next one, and consecutive successful windows never share a sample.
The window key is the window's start: two beats (or a redelivered tick) that plan the same
window collide on the unique key and only one of them inserts a row. A full snapshot
([beginning, window end)) rides along every `full_every` incremental runs and/or on
`full_weekday`. A window with no accepted sample is not run (it stays open and is covered
by the next run that has something to export).

A window ends `settle_s` before now and never after the oldest sample that is still being
processed in a live batch: samples are created before they are accepted, so a window may
only close over rows that are final.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.core.config import ExportSettings
from app.db.models import Export
from app.exports import repository as repo

INCREMENTAL, FULL = "incremental", "full"


def window_end(session: Session, cfg: ExportSettings, now: datetime) -> datetime:
    end = now - timedelta(seconds=cfg.settle_s)
    oldest = repo.oldest_unfinished_sample(session, now - timedelta(seconds=cfg.hold_limit_s))
    return min(end, oldest) if oldest is not None else end


def expire_lost(session: Session, cfg: ExportSettings, now: datetime) -> list[int]:
    """Runs still pending/running after `stale_after_s` (a dead worker, a lost message) are
    recorded as failed, which frees their window for the next run."""
    lost = repo.stale_in_flight(session, now - timedelta(seconds=cfg.stale_after_s))
    for row in lost:
        repo.record_error(session, row.id, f"lost: still {row.status} after {cfg.stale_after_s:g} s "
                          f"(worker died or message lost); the next scheduled run covers its window", now, final=True)
    return [row.id for row in lost]


def scheduled_spec(cfg: ExportSettings, fmt: str, start: datetime | None, end: datetime) -> dict[str, Any]:
    spec = {**cfg.spec, "format": fmt, "created_before": end.isoformat()}
    if start is not None:
        spec["created_after"] = start.isoformat()
    return spec


def full_due(session: Session, cfg: ExportSettings, fmt: str, now: datetime) -> bool:
    last = repo.latest_not_failed(session, FULL, fmt)
    if last is not None and last.status in repo.IN_FLIGHT:
        return False
    since = last.created_at if last is not None else None
    if cfg.full_every and repo.successes_since(session, INCREMENTAL, fmt, since) >= cfg.full_every:
        return True
    on_weekday = cfg.full_weekday is not None and now.weekday() == cfg.full_weekday
    return on_weekday and (last is None or last.created_at.date() != now.date())


def tick(session: Session, cfg: ExportSettings, now: datetime) -> list[int]:
    """Plan this tick's runs (inserted as pending rows); returns their ids for the caller to
    queue after commit. Flushes, never commits."""
    expire_lost(session, cfg, now)
    end = window_end(session, cfg, now)
    created: list[int] = []
    for fmt in cfg.formats:
        last = repo.last_success(session, INCREMENTAL, fmt)
        start = last.window_end if last is not None else None
        if (start is not None and end <= start) or not repo.accepted_in_window(session, start, end):
            continue  # nothing new: no empty version folder evicts a real one from keep_last
        key = start.isoformat() if start is not None else "origin"
        want_full = full_due(session, cfg, fmt, now)
        row = repo.add_unless_key_taken(session, _run(cfg, INCREMENTAL, fmt, start, end, f"{INCREMENTAL}:{fmt}:{key}"))
        if row is None:
            continue  # another beat planned this window, or its run is still in flight
        created.append(row.id)
        if want_full:
            full = repo.add_unless_key_taken(session, _run(cfg, FULL, fmt, None, end, f"{FULL}:{fmt}:{key}"))
            if full is not None:
                created.append(full.id)
    return created


def _run(cfg: ExportSettings, kind: str, fmt: str, start: datetime | None, end: datetime, key: str) -> Export:
    return Export(kind=kind, format=fmt[:24], spec=scheduled_spec(cfg, fmt, start, end), status="pending",
                  window_key=key, window_start=start, window_end=end, files=[], sample_count=0, attempts=0)
