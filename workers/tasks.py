"""Thin Celery tasks. Each takes ids and scalars, calls one runner stage (which loads by id,
runs the pure stage outside any transaction and upserts on natural keys), and returns nothing:
state lives in the database. Names are the contract with `app.producer`, which sends them by
name and never imports this module."""

from __future__ import annotations

import os
import socket
import time

from celery import Task, chain

from app.core.config import get_settings
from app.db.session import session_scope
from app.synthesis import repository as repo
from workers.celery_app import celery_app
from workers.runner import stages
from workers.runner.deps import stage_deps

START_BATCH = "execsynth.pipeline.start_batch"
STAGE_TASKS = {
    "generate": ("execsynth.teacher.generate", "teacher"),
    "inputs": ("execsynth.teacher.inputs", "teacher"),
    "execute": ("execsynth.sandbox.execute", "sandbox"),
    "finish": ("execsynth.pipeline.finish", "pipeline"),
}
DEFAULT_CHUNK = 32


def _scope():
    return session_scope(get_settings().database_url)


@celery_app.task(name=START_BATCH, bind=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=10)
def start_batch(self: Task, batch_id: int) -> int:
    """Mark the batch running and fan it out: one chain of the four stages per chunk of slots."""
    with _scope() as session:
        batch = repo.get_batch(session, batch_id)
        if batch is None or batch.status not in ("pending", "running"):
            return 0
        repo.set_batch_status(session, batch_id, "running", only_from=("pending", "running"),
                              started_at=batch.started_at or repo.now())
        total, chunk = batch.programs_requested, int(batch.spec.get("chunk_size", DEFAULT_CHUNK))
        priority = batch.priority
    for start in range(0, total, chunk):
        end = min(total, start + chunk)
        chain(
            *(celery_app.signature(name, args=(batch_id, start, end), queue=queue, immutable=True, priority=priority)
              for name, queue in STAGE_TASKS.values())
        ).apply_async()
    return total


def _stage_task(stage: str):
    name, _queue = STAGE_TASKS[stage]
    func = stages.STAGES[stage]

    @celery_app.task(name=name, bind=True, autoretry_for=(stages.SandboxUnavailable, ConnectionError, OSError),
                     retry_backoff=2, retry_backoff_max=120, retry_jitter=True, max_retries=12)
    def run(self: Task, batch_id: int, start: int, end: int) -> int:
        return func(_scope, stage_deps(get_settings()), batch_id, range(start, end))

    run.__doc__ = f"Stage `{stage}` of slots [start, end) of a batch."
    return run


generate = _stage_task("generate")
inputs = _stage_task("inputs")
execute = _stage_task("execute")
finish = _stage_task("finish")


@celery_app.task(name="execsynth.pipeline.ping")
def ping(token: str) -> None:
    """Health probe: records that a worker consumed a message (used by the broker tests).
    Writes to Redis when the broker is Redis, else to a file."""
    settings = get_settings()
    record = f"{token} {socket.gethostname()} {os.getpid()} {time.time():.3f}"
    if settings.broker_url.startswith(("redis://", "rediss://")):
        import redis

        redis.Redis.from_url(settings.broker_url).set(f"execsynth:ping:{token}", record, ex=600)
    else:
        folder = settings.data_dir / "pings"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / token).write_text(record)
