"""Per-key request limits: fixed one-minute windows.

With a Redis broker the counters live in Redis (INCR + EXPIRE), so every API process behind a
load balancer shares one budget per key; otherwise (embedded mode) an in-process counter does.
A limiter that cannot reach Redis lets the request through and logs it: losing the limiter must
not take the API down (the broker outage shows up in /readyz).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)
WINDOW_S = 60


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    retry_after_s: int  # seconds until the window resets (0 when allowed)


class RateLimiter(Protocol):
    def hit(self, subject: str, limit: int) -> Decision: ...

    def hit_many(self, hits: list[tuple[str, int]]) -> list[Decision]:
        """One decision per (subject, limit), counted in order, as if hit() were called for
        each; a shared store is asked once for all of them."""
        ...


def _decide(count: int, limit: int, now: float) -> Decision:
    reset_in = max(1, math.ceil(WINDOW_S - (now % WINDOW_S)))
    if count > limit:
        return Decision(False, limit, 0, reset_in)
    return Decision(True, limit, limit - count, 0)


class MemoryRateLimiter:
    """One process's counters; old windows are dropped as new ones start."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._window = -1
        self._counts: dict[str, int] = {}

    def hit(self, subject: str, limit: int) -> Decision:
        now = self._clock()
        window = int(now // WINDOW_S)
        with self._lock:
            if window != self._window:
                self._window, self._counts = window, {}
            count = self._counts.get(subject, 0) + 1
            self._counts[subject] = count
        return _decide(count, limit, now)

    def hit_many(self, hits: list[tuple[str, int]]) -> list[Decision]:
        return [self.hit(subject, limit) for subject, limit in hits]


class RedisRateLimiter:
    def __init__(self, url: str, prefix: str = "execsynth:ratelimit", clock: Callable[[], float] = time.time) -> None:
        import redis

        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._prefix = prefix
        self._clock = clock

    def hit(self, subject: str, limit: int) -> Decision:
        return self.hit_many([(subject, limit)])[0]

    def hit_many(self, hits: list[tuple[str, int]]) -> list[Decision]:
        """One MULTI/EXEC round trip: an INCR per hit (a key hit twice counts twice, in order)
        and one EXPIRE per key."""
        now = self._clock()
        window = int(now // WINDOW_S)
        keys = [f"{self._prefix}:{subject}:{window}" for subject, _ in hits]
        try:
            pipe = self._redis.pipeline(transaction=True)
            for key in keys:
                pipe.incr(key)
            for key in dict.fromkeys(keys):
                pipe.expire(key, WINDOW_S + 5)
            counts = [int(c) for c in pipe.execute()[:len(keys)]]
        except Exception as exc:  # redis.RedisError and socket errors: fail open, loudly
            log.warning("rate limiter unavailable, %d request(s) allowed: %s", len(hits), exc)
            return [Decision(True, limit, limit, 0) for _, limit in hits]
        return [_decide(count, limit, now) for count, (_, limit) in zip(counts, hits)]


def limiter_for(broker_url: str) -> RateLimiter:
    if broker_url.startswith(("redis://", "rediss://")):
        return RedisRateLimiter(broker_url)
    return MemoryRateLimiter()
