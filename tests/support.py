"""Helpers for tests that run real child processes (workers, servers)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PG_ADMIN_URL = os.environ.get("EXECSYNTH_TEST_PG_ADMIN_URL", "postgresql+psycopg://127.0.0.1:5432/test")


@contextmanager
def throwaway_database(prefix: str = "execsynth_t") -> Iterator[str]:
    """URL of a new, empty Postgres database, dropped (with any open connections) afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from app.db.session import get_engine

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        admin.dispose()
        raise RuntimeError(f"Postgres is required at {PG_ADMIN_URL}: {exc}") from exc
    try:
        yield make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        get_engine.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def service_env(**values: str) -> dict[str, str]:
    """Environment for a child process: the parent's minus EXECSYNTH_*, plus `values`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXECSYNTH_")}
    env.update(values)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


class WorkerProcess:
    """A real `execsynth worker` child process."""

    def __init__(self, env: dict[str, str], cwd: Path, queues: str = "teacher,sandbox,pipeline", pool: str = "solo", concurrency: int | None = None) -> None:
        argv = [sys.executable, "-m", "execsynth", "worker", "-Q", queues, "--pool", pool]
        if concurrency:
            argv += ["-c", str(concurrency)]
        self.log_path = cwd / f"worker-{uuid.uuid4().hex[:6]}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        self.stopped = False  # stopped (or killed) on purpose by the test

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, timeout: float = 20) -> None:
        self.stopped = True
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait()
        self._log.close()

    def kill9(self) -> None:
        self.stopped = True
        os.killpg(self.proc.pid, 9)
        self.proc.wait()
        self._log.close()


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what() if callable(what) else what}")
