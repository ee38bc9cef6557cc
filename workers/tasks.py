"""Thin Celery tasks. Each takes ids and scalars, calls one runner stage (which loads by id,
runs the pure stage outside any transaction and upserts on natural keys), and returns nothing:
state lives in the database. Names are the contract with `app.producer`, which sends them by
name and never imports this module."""

from __future__ import annotations

import os
import socket
import time
from datetime import timedelta

from celery import Task, chain
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import InterfaceError as DBInterfaceError
from sqlalchemy.exc import OperationalError as DBOperationalError

from app.core.config import get_settings
from app.db.session import session_scope
from app.synthesis import repository as repo
from workers.celery_app import celery_app
from workers.runner import stages
from workers.runner.deps import stage_deps

START_BATCH = "execsynth.pipeline.start_batch"
START_BATCHES = "execsynth.pipeline.start_batches"  # what the API sends: one message per group of new batches
STAGE_TASKS = {
    "generate": ("execsynth.teacher.generate", "teacher"),
    "inputs": ("execsynth.teacher.inputs", "teacher"),
    "execute": ("execsynth.sandbox.execute", "sandbox"),
    "finish": ("execsynth.pipeline.finish", "pipeline"),
}
RESUME_STALLED = "execsynth.pipeline.resume_stalled"


# The broker, the database or the sandbox being away is never the batch's fault: such a task
# is retried, and if it still fails the stalled-batch check re-dispatches the chunk later.
TRANSIENT = (
    stages.SandboxUnavailable, ConnectionError, TimeoutError, OSError,
    KombuOperationalError, RedisConnectionError, RedisTimeoutError, DBOperationalError, DBInterfaceError,
)


def _scope():
    return session_scope(get_settings().database_url)


def dispatch_chunks(batch_id: int, chunks: list[tuple[int, int]], priority: int) -> None:
    """One chain generate -> inputs -> execute -> finish per chunk, across the three queues."""
    for start, end in chunks:
        chain(
            *(celery_app.signature(name, args=(batch_id, start, end), queue=queue, immutable=True, priority=priority)
              for name, queue in STAGE_TASKS.values())
        ).apply_async()


def chunk_ranges(slots: list[int], size: int, total: int) -> list[tuple[int, int]]:
    starts = sorted({slot // size * size for slot in slots})
    return [(start, min(total, start + size)) for start in starts]


@celery_app.task(name=START_BATCH, bind=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def start_batch(self: Task, batch_id: int) -> int:
    """Mark the batch running and fan it out: one chain of the four stages per chunk of slots."""
    return _start(batch_id)


@celery_app.task(name=START_BATCHES, bind=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def start_batches(self: Task, batch_ids: list[int]) -> int:
    """start_batch for each of the batches one API request group created (a retry skips the
    ones already started)."""
    return sum(_start(batch_id) for batch_id in batch_ids)


def _start(batch_id: int) -> int:
    """Only the call that moves the batch from pending to running fans it out, so a retried or
    redelivered start never queues the chunks twice (nor pays the teacher twice); chunks lost
    after that are the stalled-batch check's job."""
    with _scope() as session:
        batch = repo.get_batch(session, batch_id)
        if batch is None or batch.status != "pending":
            return 0
        if not repo.set_batch_status(session, batch_id, "running", only_from=("pending",), started_at=repo.now()):
            return 0
        total = batch.programs_requested
        chunk = int(batch.spec.get("chunk_size") or get_settings().worker.chunk_size)
        priority = batch.priority
    dispatch_chunks(batch_id, chunk_ranges(list(range(0, total, chunk)), chunk, total), priority)
    return total


@celery_app.task(name=RESUME_STALLED)
def resume_stalled() -> list[int]:
    """Beat task: re-dispatch the unfinished chunks of running batches that made no progress
    for `worker.stall_after_s` (lost messages, e.g. a broker restarted without persistence), and
    start the batches still pending after that long. Safe to run any time: every stage is
    idempotent."""
    settings = get_settings()
    before = repo.now() - timedelta(seconds=settings.worker.stall_after_s)
    resumed = []
    with _scope() as session:
        for batch_id in repo.stalled_batches(session, before):
            batch = repo.get_batch(session, batch_id)
            slots = repo.unfinished_slots(session, batch_id, batch.programs_requested)
            if not slots:
                repo.store_counters(session, batch_id)
                repo.set_batch_status(session, batch_id, "completed", only_from=("running",), finished_at=repo.now())
                continue
            chunk = int(batch.spec.get("chunk_size") or settings.worker.chunk_size)
            repo.touch(session, batch_id)
            resumed.append((batch_id, chunk_ranges(slots, chunk, batch.programs_requested), batch.priority))
        unstarted = repo.unstarted_batches(session, before)
    for batch_id, chunks, priority in resumed:
        dispatch_chunks(batch_id, chunks, priority)
    # pending for that long: the start message was lost (published, then the broker restarted)
    started = [batch_id for batch_id in unstarted if _start(batch_id)]
    return [batch_id for batch_id, _, _ in resumed] + started


class StageTask(Task):
    """A stage that fails for good on an error that is not transient marks its batch failed
    with the reason, instead of leaving it running forever."""

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        if isinstance(exc, TRANSIENT):
            return
        batch_id = args[0] if args else kwargs.get("batch_id")
        with _scope() as session:
            repo.set_batch_status(
                session, batch_id, "failed", only_from=("pending", "running", "budget_exhausted"),
                error=f"{self.name} slots {args[1:]}: {type(exc).__name__}: {exc}"[:2000], finished_at=repo.now(),
            )


def _stage_task(stage: str):
    name, _queue = STAGE_TASKS[stage]
    func = stages.STAGES[stage]

    @celery_app.task(name=name, bind=True, base=StageTask, autoretry_for=TRANSIENT,
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
