"""Chunks built in worker processes, handed back in the order they were submitted.

Building rows (tasks, prompts, JSON, Arrow arrays) is most of an export's CPU and a pure
function of each chunk (`build.build_chunk`), so big exports fan it out: the exporting
process reads chunk after chunk from the database and writes finished chunks to the file in
submission order while `training.export.worker` processes build the chunks in between.
Jobs go round-robin and each worker answers in order, so result i is the next frame of
worker i mod n. At most two chunks per worker are in flight: memory stays bounded however
large the export. A sender thread per worker writes its jobs, so a worker blocked on
writing a big result can never stall the parent writing the next job.

Small exports, one-core machines and daemonic processes build in-process; the output is
the same bytes either way.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator

import pyarrow as pa

from training.export.build import ChunkJob, ChunkOutput, build_chunk
from training.export.errors import ExportError
from training.export.frames import read_frame, write_frame

MAX_WORKERS = 8
# below this many rows, starting workers (about a second of imports) costs more than it saves
PARALLEL_MIN_ROWS = 20_000
WORKERS: int | None = None  # None: one per core (at most MAX_WORKERS); 0: always in-process


class WorkerError(ExportError):
    """A worker process died or answered out of protocol (not a data problem)."""


def worker_count(rows: int) -> int:
    """How many worker processes an export of `rows` rows uses (0: build in-process)."""
    if rows < PARALLEL_MIN_ROWS or multiprocessing.current_process().daemon:
        return 0
    if WORKERS is not None:
        return WORKERS
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 0 if cores < 2 else min(cores, MAX_WORKERS)


class _Worker:
    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        self.proc = subprocess.Popen([sys.executable, "-m", "training.export.worker"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.jobs: queue.Queue[bytes | None] = queue.Queue()
        self.sender = threading.Thread(target=self._send, daemon=True)
        self.sender.start()

    def _send(self) -> None:
        stdin = self.proc.stdin
        try:
            while (frame := self.jobs.get()) is not None:
                write_frame(stdin, frame)
                stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the worker is gone; the reader reports it
        finally:
            try:
                stdin.close()
            except BrokenPipeError:
                pass

    def result(self) -> ChunkOutput:
        try:
            header_frame = read_frame(self.proc.stdout)
            body = read_frame(self.proc.stdout)
        except EOFError:
            header_frame = body = None
        if header_frame is None or body is None:
            code = self.proc.wait()
            raise WorkerError(f"export worker {self.proc.pid} exited (status {code}) before answering")
        header = json.loads(header_frame)
        if not header["ok"]:
            raise _rebuilt(header)
        counts = header.get("counts") or {}
        if header["kind"] == "text":
            return ChunkOutput(header["rows"], text=body.decode("utf-8"), counts=counts)
        return ChunkOutput(header["rows"], batch=pa.ipc.open_stream(body).read_next_batch(), counts=counts)

    def close(self, abort: bool) -> None:
        """Ends the worker: after its last answer it sees the end of its input and exits;
        on `abort` (the export failed) it is killed, whatever it was doing."""
        self.jobs.put(None)
        if abort:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.sender.join(timeout=10)
        self.proc.stdout.close()


def _rebuilt(header: dict) -> Exception:
    """The worker's exception as the same class when it is one of ours (`ItemError` is a
    permanent failure to the export runner), else a WorkerError naming it."""
    module, name, message = header.get("module", ""), header.get("type", ""), header.get("message", "")
    if module.split(".")[0] == "training":
        cls = getattr(importlib.import_module(module), name, None)
        if isinstance(cls, type) and issubclass(cls, Exception):
            try:
                return cls(message)
            except TypeError:
                pass
    return WorkerError(f"{module}.{name} in export worker: {message}")


class ChunkRunner:
    """`map(jobs)` yields each job's output in job order, built here or in `workers` processes."""

    def __init__(self, workers: int) -> None:
        self.workers = [_Worker() for _ in range(workers)]

    def __enter__(self) -> ChunkRunner:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.close(abort=exc_type is not None)

    def close(self, abort: bool = False) -> None:
        for w in self.workers:
            w.close(abort)
        self.workers = []

    def map(self, jobs: Iterable[ChunkJob]) -> Iterator[ChunkOutput]:
        if not self.workers:
            for job in jobs:
                yield build_chunk(job)
            return
        pending: deque[_Worker] = deque()
        window = 2 * len(self.workers)
        for i, job in enumerate(jobs):
            worker = self.workers[i % len(self.workers)]
            worker.jobs.put(pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL))
            pending.append(worker)
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
