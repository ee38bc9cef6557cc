"""Shared fixtures: real Postgres (a throwaway database per test session), real Redis, real
worker processes. Nothing here fakes the database or the queue.

Tests that use a service (Postgres, Redis) are marked `services` here, from the fixtures they
ask for; `make test-fast` runs the others. Nothing of the service stack is imported at
collection time, so the pure tests start in a fraction of a second."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("EXECSYNTH_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
# the shared services, and the fixtures of sub-folders that open a Postgres database or a Redis
# server of their own (tests/app/exports, tests/app/exports/nightly)
SERVICE_FIXTURES = {"pg_url", "migrated_pg", "pg_session", "redis_url", "api_redis_url",
                    "own_pg", "own_redis", "filled_pg"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)


@pytest.fixture(autouse=True)
def _fresh_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test sees settings built from its own environment, never a developer's `.env`."""
    for name in list(os.environ):
        if name.startswith("EXECSYNTH_") and not name.startswith("EXECSYNTH_TEST_"):
            monkeypatch.delenv(name)
    config = sys.modules.get("app.core.config")  # only clear what a test has loaded
    if config is not None:
        config.get_settings.cache_clear()
    yield
    config = sys.modules.get("app.core.config")
    if config is not None:
        config.get_settings.cache_clear()


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """URL of a new, empty Postgres database, dropped at the end of the session."""
    from tests.support import throwaway_database

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
    from sqlalchemy import create_engine
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
