"""Thin Celery tasks: load by id, call a stage, upsert. Names are the contract with
`app.producer`, which sends them by name and never imports this module."""

from __future__ import annotations

import os
import socket
import time

from app.core.config import get_settings
from workers.celery_app import celery_app


@celery_app.task(name="execsynth.pipeline.ping")
def ping(token: str) -> None:
    """Health probe: records that a worker consumed a message (used by readiness checks and
    the broker tests). Writes to Redis when the broker is Redis, else to a file."""
    settings = get_settings()
    record = f"{token} {socket.gethostname()} {os.getpid()} {time.time():.3f}"
    if settings.broker_url.startswith(("redis://", "rediss://")):
        import redis

        redis.Redis.from_url(settings.broker_url).set(f"execsynth:ping:{token}", record, ex=600)
    else:
        folder = settings.data_dir / "pings"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / token).write_text(record)

