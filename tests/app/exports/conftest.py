"""The real app over a Postgres database of these tests' own, filled by a real `execsynth
synth` batch, and a Redis database of their own whose `pipeline` list shows what the API
queued (no worker consumes it). Keys come from the real key service."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from app.apikeys import service as keys
from app.apikeys.schemas import ApiKeyCreate
from app.core.config import Settings
from app.db.session import session_scope
from app.main import create_app
from tests.app.exports.nightly.conftest import fresh_database, synth


@pytest.fixture(scope="module")
def filled_pg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with fresh_database() as url:
        synth(url, tmp_path_factory.mktemp("synth"), seed=21)
        yield url


@pytest.fixture(scope="session")
def exports_redis_url(redis_url: str) -> str:
    return os.environ.get("EXECSYNTH_TEST_EXPORTS_REDIS_URL", redis_url.rsplit("/", 1)[0] + "/8")


@pytest.fixture()
def settings(filled_pg: str, exports_redis_url: str, tmp_path: Path) -> Settings:
    redis.Redis.from_url(exports_redis_url).delete("pipeline")
    return Settings(database_url=filled_pg, broker_url=exports_redis_url, data_dir=tmp_path / "data")


@pytest.fixture()
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture()
def auth(filled_pg: str) -> dict[str, str]:
    with session_scope(filled_pg) as session:
        key = keys.create(session, ApiKeyCreate(name="exports-tests")).key
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture()
def scope(filled_pg: str) -> Callable:
    return lambda: session_scope(filled_pg)
