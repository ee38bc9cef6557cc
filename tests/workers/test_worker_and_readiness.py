"""A real worker process consumes tasks over real Redis and over the embedded transport;
/readyz reflects the real database and broker."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from app.core.task_names import PING
from app.producer import send_now
from tests.support import WorkerProcess, service_env, wait_for


def _ping_roundtrip(settings: Settings, read_back, tmp_path: Path) -> str:
    env = service_env(
        EXECSYNTH_DATA_DIR=str(settings.data_dir),
        EXECSYNTH_DATABASE_URL=settings.database_url,
        EXECSYNTH_BROKER_URL=settings.broker_url,
    )
    worker = WorkerProcess(env, cwd=tmp_path)
    try:
        token = uuid.uuid4().hex
        send_now(settings, PING, token)
        record = wait_for(lambda: read_back(token), timeout=40, what=f"worker to consume ping; log:\n{worker.log()}")
        assert record.split()[0] == token
        assert int(record.split()[2]) != 0
        return record
    finally:
        worker.stop()


def test_worker_consumes_over_redis(redis_url: str, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", broker_url=redis_url)
    client = redis.Redis.from_url(redis_url)

    def read_back(token: str) -> str | None:
        value = client.get(f"execsynth:ping:{token}")
        return value.decode() if value else None

    record = _ping_roundtrip(settings, read_back, tmp_path)
    # the consumer was the child process, not this one
    import os

    assert int(record.split()[2]) != os.getpid()


@pytest.mark.slow  # starts a worker process
def test_worker_consumes_over_embedded_filesystem_transport(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d")
    assert settings.embedded

    def read_back(token: str) -> str | None:
        path = settings.data_dir / "pings" / token
        return path.read_text() if path.exists() else None

    _ping_roundtrip(settings, read_back, tmp_path)


def test_readyz_200_with_postgres_and_redis_up(migrated_pg: str, redis_url: str, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=migrated_pg, broker_url=redis_url)
    response = TestClient(create_app(settings)).get("/readyz")
    assert response.status_code == 200
    assert [c["name"] for c in response.json()["checks"] if c["ok"]] == ["database", "broker"]


def test_readyz_503_names_the_unreachable_database(redis_url: str, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url="postgresql+psycopg://nobody@127.0.0.1:1/none", broker_url=redis_url)
    response = TestClient(create_app(settings)).get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    database = next(c for c in body["checks"] if c["name"] == "database")
    assert database["ok"] is False
    assert "Connection refused" in database["detail"] or "connection failed" in database["detail"]
    broker = next(c for c in body["checks"] if c["name"] == "broker")
    assert broker["ok"] is True


def test_readyz_503_when_broker_is_down(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, broker_url="redis://127.0.0.1:1/0")
    from app.db import migrate

    migrate.upgrade(settings.database_url)
    response = TestClient(create_app(settings)).get("/readyz")
    assert response.status_code == 503
    broker = next(c for c in response.json()["checks"] if c["name"] == "broker")
    assert broker["ok"] is False
    assert "refused" in broker["detail"].lower() or "111" in broker["detail"]


def test_readyz_503_when_schema_is_not_migrated(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    response = TestClient(create_app(settings)).get("/readyz")
    assert response.status_code == 503
    database = next(c for c in response.json()["checks"] if c["name"] == "database")
    assert "execsynth db upgrade" in database["detail"]
