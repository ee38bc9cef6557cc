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


class RedisRateLimiter:
    def __init__(self, url: str, prefix: str = "execsynth:ratelimit", clock: Callable[[], float] = time.time) -> None:
        import redis

        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._prefix = prefix
        self._clock = clock

    def hit(self, subject: str, limit: int) -> Decision:
        now = self._clock()
        key = f"{self._prefix}:{subject}:{int(now // WINDOW_S)}"
        try:
            pipe = self._redis.pipeline(transaction=True)
            pipe.incr(key)
            pipe.expire(key, WINDOW_S + 5)
            count = int(pipe.execute()[0])
        except Exception as exc:  # redis.RedisError and socket errors: fail open, loudly
            log.warning("rate limiter unavailable, request allowed: %s", exc)
            return Decision(True, limit, limit, 0)
        return _decide(count, limit, now)


def limiter_for(broker_url: str) -> RateLimiter:
    if broker_url.startswith(("redis://", "rediss://")):
        return RedisRateLimiter(broker_url)
    return MemoryRateLimiter()
