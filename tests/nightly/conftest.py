"""Scheduled exports over a database of their own (windows are computed over every sample in
the database, so another folder's batches must not land in them), a Redis server of their own
(restart-proof, and no other folder's worker consumes these queues), real worker and beat
processes (the Service helper of tests/service) and real `execsynth synth` batches."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.conftest import PG_ADMIN_URL, ROOT
from tests.service.conftest import PrivateRedis, Service
from tests.support import service_env


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new migrated Postgres database, dropped afterwards."""
    from app.db import migrate
    from app.db.session import get_engine

    name = f"execsynth_n_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    try:
        migrate.upgrade(url)
        yield url
    finally:
        get_engine.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


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
