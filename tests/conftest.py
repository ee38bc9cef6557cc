"""Shared fixtures: real Postgres (a throwaway database per test session), real Redis, real
worker processes. Nothing here fakes the database or the queue."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from app.core.config import get_settings
from tests.support import throwaway_database

ROOT = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("EXECSYNTH_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


@pytest.fixture(autouse=True)
def _fresh_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test sees settings built from its own environment, never a developer's `.env`."""
    for name in list(os.environ):
        if name.startswith("EXECSYNTH_") and not name.startswith("EXECSYNTH_TEST_"):
            monkeypatch.delenv(name)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """URL of a new, empty Postgres database, dropped at the end of the session."""
    try:
        with throwaway_database() as url:
            yield url
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def migrated_pg(pg_url: str) -> str:
    from app.db import migrate

    migrate.upgrade(pg_url)
    return pg_url


@pytest.fixture()
def pg_session(migrated_pg: str):
    """A session inside a transaction that is rolled back after the test."""
    from sqlalchemy.orm import Session

    engine = create_engine(migrated_pg)
    conn = engine.connect()
    trans = conn.begin()
    session = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        yield session
    finally:
        session.close()
        trans.rollback()
        conn.close()
        engine.dispose()


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except Exception as exc:
        pytest.fail(f"Redis is required at {REDIS_URL}: {exc}")
    client.flushdb()
    return REDIS_URL
