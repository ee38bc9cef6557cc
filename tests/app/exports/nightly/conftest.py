"""Scheduled exports over a database of their own (windows are computed over every sample in
the database, so another folder's batches must not land in them), a Redis server of their own
(restart-proof, and no other folder's worker consumes these queues), real worker and beat
processes (the Service helper of tests/e2e) and real `execsynth synth` batches."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.e2e.conftest import PrivateRedis, Service
from tests.support import service_env, throwaway_database


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new migrated Postgres database, dropped afterwards."""
    from app.db import migrate

    with throwaway_database("execsynth_n") as url:
        migrate.upgrade(url)
        yield url


@pytest.fixture()
def own_pg() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture()
def own_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def synth(database_url: str, data_dir: Path, seed: int, programs: int = 12) -> None:
    """One real batch through the CLI (builtin teacher, real sandbox) into `database_url`."""
    env = service_env(EXECSYNTH_DATABASE_URL=database_url, EXECSYNTH_DATA_DIR=str(data_dir),
                      EXECSYNTH_SANDBOX__WORKERS="1")
    done = subprocess.run([sys.executable, "-m", "execsynth", "synth", "--programs", str(programs), "--seed", str(seed)],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture()
def make_nightly(own_pg: str, own_redis: PrivateRedis, tmp_path: Path) -> Iterator:
    services: list[Service] = []

    def factory(**extra_env: str) -> Service:
        service = Service(own_pg, own_redis.url, tmp_path, extra_env)
        services.append(service)
        return service

    yield factory
    for service in services:
        service.stop()
