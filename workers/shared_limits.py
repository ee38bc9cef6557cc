"""Teacher limits shared by every worker process through Redis.

- `RedisRateLimiter` implements the pipeline's RateLimiter protocol (RPM and TPM) with a
  sliding one-minute window kept in Redis, so N workers together stay under the budget.
- `SharedConcurrencyTeacher` wraps any Teacher and holds a slot of a Redis semaphore (leases
  that expire, so a killed worker cannot leak a slot for long) around each request, so the
  configured concurrency holds across all workers, not per process.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import redis.asyncio as aioredis

from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.base import Teacher

# Atomically: drop entries older than the window, and take `amount` if the sum stays under
# `limit`; otherwise return how long until the oldest entry leaves the window.
_TAKE = """
local key, now, window, limit, amount, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = 0
for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
  used = used + tonumber(string.match(m, '^(%d+):'))
end
if used + amount <= limit or used == 0 then
  redis.call('ZADD', key, now, amount .. ':' .. member)
  redis.call('PEXPIRE', key, math.ceil(window * 1000) + 1000)
  return -1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return tostring(tonumber(oldest[2]) + window - now)
"""

_ACQUIRE_SLOT = """
local key, now, ttl, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - ttl)
if redis.call('ZCARD', key) < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, math.ceil(ttl * 1000) + 1000)
  return 1
end
return 0
"""


class RedisRateLimiter:
    def __init__(self, url: str, name: str, requests_per_minute: float | None, tokens_per_minute: float | None, window_s: float = 60.0) -> None:
        self._url = url
        self._name = name
        self._limits = [("requests", requests_per_minute), ("tokens", tokens_per_minute)]
        self._window = window_s

    async def acquire(self, requests: int = 1, tokens: int = 0) -> None:
        client = aioredis.Redis.from_url(self._url)
        try:
            for kind, limit in self._limits:
                amount = requests if kind == "requests" else tokens
                if not limit or amount <= 0:
                    continue
                key = f"execsynth:limit:{self._name}:{kind}"
                while True:
                    wait = await client.eval(_TAKE, 1, key, time.time(), self._window, limit, amount, uuid.uuid4().hex)
                    if int(float(wait)) == -1:
                        break
                    await asyncio.sleep(min(max(float(wait), 0.01), self._window))
        finally:
            await client.aclose()


class SharedConcurrencyTeacher:
    """A Teacher whose requests hold a global slot; `lease_s` bounds a dead holder's slot."""

    def __init__(self, inner: Teacher, url: str, limit: int, lease_s: float = 600.0, poll_s: float = 0.05) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self._url = url
        self._key = f"execsynth:inflight:{inner.name}"
        self._limit = limit
        self._lease = lease_s
        self._poll = poll_s

    async def complete(self, request: ChatRequest) -> Completion:
        client = aioredis.Redis.from_url(self._url)
        member = uuid.uuid4().hex
        try:
            while not await client.eval(_ACQUIRE_SLOT, 1, self._key, time.time(), self._lease, self._limit, member):
                await asyncio.sleep(self._poll)
            try:
                return await self.inner.complete(request)
            finally:
                await client.zrem(self._key, member)
        finally:
            await client.aclose()
