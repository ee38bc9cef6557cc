"""The real app over the real test Postgres and Redis; keys made by the real key service."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.apikeys import service as keys
from app.apikeys.schemas import ApiKeyCreate
from app.core.config import Settings
from app.db.session import session_scope
from app.main import create_app


@pytest.fixture(scope="session")
def api_redis_url(redis_url: str) -> str:
    """A Redis database of its own: workers that other test folders start consume the shared
    one's `pipeline` list, and these tests read that list to see what the API queued."""
    import redis

    url = os.environ.get("EXECSYNTH_TEST_API_REDIS_URL", redis_url.rsplit("/", 1)[0] + "/9")
    redis.Redis.from_url(url).delete("pipeline")
    return url


@pytest.fixture()
def settings(migrated_pg: str, api_redis_url: str, tmp_path: Path) -> Settings:
    return Settings(database_url=migrated_pg, broker_url=api_redis_url, data_dir=tmp_path / "data")


@pytest.fixture()
def make_client(settings: Settings) -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []

    def build(stats_ttl_s: float = 0.0, **overrides) -> TestClient:
        api = settings.api.model_copy(update={"stats_ttl_s": stats_ttl_s})
        app = create_app(settings.model_copy(update={"api": api, **overrides}))
        client = TestClient(app)
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()


@pytest.fixture()
def client(make_client) -> TestClient:
    return make_client()


@pytest.fixture()
def new_key(migrated_pg: str) -> Callable[..., str]:
    def create(name: str = "tests", rate_limit: int | None = None) -> str:
        with session_scope(migrated_pg) as session:
            return keys.create(session, ApiKeyCreate(name=name, rate_limit_per_minute=rate_limit)).key
    return create


@pytest.fixture()
def auth(new_key) -> dict[str, str]:
    return {"Authorization": f"Bearer {new_key()}"}
