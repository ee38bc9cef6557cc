"""API keys on write endpoints and sample reads: 401, 403, 429; and the limiters themselves."""

from __future__ import annotations

import time
import uuid

import pytest
import redis

from app.apikeys import service as keys
from app.core.ratelimit import WINDOW_S, MemoryRateLimiter, RedisRateLimiter
from app.db.session import session_scope
from tests.app.api.test_batches import SPEC

GUARDED = [("post", "/v1/batches"), ("post", "/v1/batches/1/cancel"), ("get", "/v1/samples"), ("get", "/v1/samples/1")]


@pytest.mark.parametrize(("method", "path"), GUARDED)
def test_missing_key_is_401_with_a_clear_message(client, method, path) -> None:
    response = getattr(client, method)(path, **({"json": SPEC} if method == "post" else {}))
    assert response.status_code == 401
    assert response.json() == {"error": "unauthorized", "detail": "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"}
    assert response.headers["www-authenticate"] == "Bearer"


def test_unknown_key_is_401_and_revoked_key_is_403(client, new_key, migrated_pg) -> None:
    assert client.get("/v1/samples", headers={"X-API-Key": "esk_nope"}).json()["detail"] == "unknown API key"
    key = new_key("to-revoke")
    assert client.get("/v1/samples", headers={"X-API-Key": key}).status_code == 200
    with session_scope(migrated_pg) as session:
        row = keys.repo.by_hash(session, keys.hash_key(key))
        keys.revoke(session, row.id)
    response = client.get("/v1/samples", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 403 and response.json()["error"] == "forbidden"
    assert "was revoked" in response.json()["detail"] and key[:12] in response.json()["detail"]


def test_key_use_is_recorded_and_only_the_hash_is_stored(client, new_key, migrated_pg) -> None:
    key = new_key("recorded")
    client.get("/v1/samples", headers={"X-API-Key": key})
    with session_scope(migrated_pg) as session:
        row = keys.repo.by_hash(session, keys.hash_key(key))
        assert row.last_used_at is not None and row.key_hash != key and key not in (row.prefix, row.note)
        assert len(row.key_hash) == 64 and row.prefix == key[:12]


def test_reads_of_batches_stats_and_constraints_need_no_key(client) -> None:
    for path in ("/v1/batches", "/v1/stats/difficulty", "/v1/stats/funnel", "/v1/constraints"):
        assert client.get(path).status_code == 200, path


def test_keys_are_not_required_when_the_setting_is_off(make_client, settings) -> None:
    client = make_client(api=settings.api.model_copy(update={"require_api_key": False}))
    assert client.get("/v1/samples").status_code == 200
    assert client.post("/v1/batches", json=SPEC).status_code == 202


def test_per_key_rate_limit_is_429_with_retry_after(client, new_key) -> None:
    limited = {"X-API-Key": new_key("limited", rate_limit=3)}
    other = {"X-API-Key": new_key("other", rate_limit=3)}
    codes = [client.get("/v1/samples", headers=limited).status_code for _ in range(4)]
    assert codes[:3] == [200, 200, 200] and codes[3] == 429  # unless a minute boundary fell inside
    response = client.get("/v1/samples", headers=limited)
    assert response.status_code == 429 and response.json()["error"] == "rate_limited"
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert response.headers["x-ratelimit-limit"] == "3" and response.headers["x-ratelimit-remaining"] == "0"
    assert "3 requests per minute" in response.json()["detail"]
    assert client.get("/v1/samples", headers=other).status_code == 200  # budgets are per key


def test_the_redis_limit_is_shared_by_two_api_processes(make_client, new_key) -> None:
    """Two app instances (as two uvicorn processes would be) draw on one Redis budget."""
    key = {"X-API-Key": new_key("shared", rate_limit=4)}
    first, second = make_client(), make_client()
    left = WINDOW_S - time.time() % WINDOW_S
    if left < 20:  # five requests astride a window's end count in two windows: start in the next
        time.sleep(left + 0.1)
    codes = [c.get("/v1/samples", headers=key).status_code for c in (first, second, first, second, first)]
    assert codes.count(429) >= 1 and codes[:4].count(200) >= 3


def test_memory_limiter_windows_on_a_virtual_clock() -> None:
    now = [120.0]
    limiter = MemoryRateLimiter(clock=lambda: now[0])
    assert [limiter.hit("a", 2).allowed for _ in range(3)] == [True, True, False]
    assert limiter.hit("b", 2).remaining == 1
    now[0] = 150.0
    assert limiter.hit("a", 2).retry_after_s == 30
    now[0] = 180.0  # next window
    decision = limiter.hit("a", 2)
    assert (decision.allowed, decision.remaining) == (True, 1)


def test_redis_limiter_counts_in_redis_and_fails_open(api_redis_url) -> None:
    now = [600.0]
    prefix = f"test-rl-{uuid.uuid4().hex[:6]}"
    limiter = RedisRateLimiter(api_redis_url, prefix=prefix, clock=lambda: now[0])
    assert [limiter.hit("k", 2).allowed for _ in range(3)] == [True, True, False]
    assert int(redis.Redis.from_url(api_redis_url).get(f"{prefix}:k:10")) == 3
    dead = RedisRateLimiter("redis://127.0.0.1:1/0", prefix=prefix)
    assert dead.hit("k", 1).allowed is True
