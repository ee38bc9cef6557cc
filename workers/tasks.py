"""Thin Celery tasks. Each takes ids and scalars, calls one stage's runner (which loads by id,
runs the pure stage outside any transaction and upserts on natural keys), and returns nothing:
state lives in the database. Names come from `app.core.task_names`, which `app.producer`
sends by name; the app never imports this module."""

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
from sqlalchemy.exc import ProgrammingError as DBProgrammingError

from app.core.config import get_settings
from app.core.task_names import PING, RESUME_STALLED, STAGE_QUEUES, START_BATCH, START_BATCHES, stage_task
from app.db.session import get_engine, session_scope
from app.synthesis import repository as repo
from workers.celery_app import celery_app
from workers.pipeline.lifecycle import BatchStatus
from workers.runner.common import RetryChunk
from workers.runner.deps import stage_deps
from workers.runner.stages import RUNNERS

# The broker, the database or the sandbox being away is never the batch's fault: such a task
# is retried, and if it still fails the stalled-batch check re-dispatches the chunk later.
TRANSIENT = (
    RetryChunk, ConnectionError, TimeoutError, OSError,
    KombuOperationalError, RedisConnectionError, RedisTimeoutError, DBOperationalError, DBInterfaceError,
)


def _scope():
    return session_scope(get_settings().database_url)


def dispatch_chunks(batch_id: int, chunks: list[tuple[int, int]], priority: int) -> None:
    """One chain of the stages per chunk, each stage on its own queue."""
    for start, end in chunks:
        chain(
            *(celery_app.signature(stage_task(stage), args=(batch_id, start, end), queue=queue, immutable=True, priority=priority)
              for stage, queue in STAGE_QUEUES.items())
        ).apply_async()


def chunk_ranges(slots: list[int], size: int, total: int) -> list[tuple[int, int]]:
    starts = sorted({slot // size * size for slot in slots})
    return [(start, min(total, start + size)) for start in starts]


@celery_app.task(name=START_BATCH, bind=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def start_batch(self: Task, batch_id: int) -> int:
    """Mark the batch running and fan it out: one chain of the stages per chunk of slots."""
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
        if batch is None or not repo.move_batch(session, batch_id, BatchStatus.RUNNING, started_at=repo.now()):
            return 0
        total = batch.programs_requested
        priority = batch.priority
    size = get_settings().worker.chunk_size
    dispatch_chunks(batch_id, chunk_ranges(list(range(0, total, size)), size, total), priority)
    return total


@celery_app.task(name=RESUME_STALLED)
def resume_stalled() -> list[int]:
    """Beat task: re-dispatch the unfinished chunks of running batches that made no progress
    for `worker.stall_after_s` (lost messages, e.g. a broker restarted without persistence), and
    start the batches still pending after that long. Safe to run any time: every stage is
    idempotent."""
    settings = get_settings()
    before = repo.now() - timedelta(seconds=settings.worker.stall_after_s)
    size = settings.worker.chunk_size
    resumed = []
    with _scope() as session:
        for batch_id in repo.stalled_batches(session, before):
            batch = repo.get_batch(session, batch_id)
            slots = repo.unfinished_slots(session, batch_id, batch.programs_requested)
            if not slots:
                repo.move_batch(session, batch_id, BatchStatus.COMPLETED, finished_at=repo.now())
                continue
            repo.touch(session, batch_id)
            resumed.append((batch_id, chunk_ranges(slots, size, batch.programs_requested), batch.priority))
        unstarted = repo.unstarted_batches(session, before)
    for batch_id, chunks, priority in resumed:
        dispatch_chunks(batch_id, chunks, priority)
    # pending for that long: the start message was lost (published, then the broker restarted)
    started = [batch_id for batch_id in unstarted if _start(batch_id)]
    return [batch_id for batch_id, _, _ in resumed] + started


def connection_left_in_transaction(exc: BaseException) -> bool:
    """psycopg refusing the pool's pre-ping (`can't change 'autocommit' now`): a pooled
    connection came back mid-transaction. Seen once, in a fresh-clone CI run, while Redis
    restarted under a running batch; the connection's state, not the batch's fault, so the
    chunk is retried on fresh connections instead of failing the batch."""
    return isinstance(exc, DBProgrammingError) and "can't change 'autocommit' now" in str(exc)


class StageTask(Task):
    """A stage that fails for good on an error that is not transient marks its batch failed
    with the reason, instead of leaving it running forever."""

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        if isinstance(exc, TRANSIENT):
            return
        batch_id = args[0] if args else kwargs.get("batch_id")
        with _scope() as session:
            repo.move_batch(session, batch_id, BatchStatus.FAILED, finished_at=repo.now(),
                            error=f"{self.name} slots {args[1:]}: {type(exc).__name__}: {exc}"[:2000])


def run_stage(runner, batch_id: int, start: int, end: int) -> int:  # noqa: ANN001 - a RUNNERS entry
    """One stage of slots [start, end); a pooled connection left mid-transaction retries the
    chunk on fresh connections (`RetryChunk`) instead of failing the batch."""
    try:
        return runner(_scope, stage_deps(get_settings()), batch_id, range(start, end))
    except DBProgrammingError as exc:
        if not connection_left_in_transaction(exc):
            raise
        get_engine(get_settings().database_url).dispose()  # (its pooled connections too)
        raise RetryChunk(f"a pooled database connection was left in a transaction: {exc}"[:500]) from exc


def _stage_task(stage: str):
    runner = RUNNERS[stage]

    @celery_app.task(name=stage_task(stage), bind=True, base=StageTask, autoretry_for=TRANSIENT,
                     retry_backoff=2, retry_backoff_max=120, retry_jitter=True, max_retries=12)
    def run(self: Task, batch_id: int, start: int, end: int) -> int:
        return run_stage(runner, batch_id, start, end)

    run.__doc__ = f"Stage `{stage}` of slots [start, end) of a batch."
    return run


STAGE_TASKS = {stage: _stage_task(stage) for stage in RUNNERS}


@celery_app.task(name=PING)
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
