"""Requests- and tokens-per-minute limits for teacher calls.

Providers enforce RPM and TPM; staying under them locally turns a storm of 429s (wasted
attempts, long Retry-After waits) into smooth pacing. The `RateLimiter` protocol is the seam for
a shared limiter: one process uses `TokenBucketLimiter`; many workers against one API key need a
Redis-backed implementation of the same `acquire`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable


@runtime_checkable
class RateLimiter(Protocol):
    async def acquire(self, requests: int = 1, tokens: int = 0) -> None:
        """Wait until `requests` requests carrying `tokens` tokens may be sent, then take them."""
        ...


class _Bucket:
    """Continuous-refill token bucket. A take larger than the capacity waits for a full bucket
    and then goes into debt, so an oversized request is slowed, never stuck forever."""

    def __init__(self, per_minute: float, burst_s: float, now: float) -> None:
        if per_minute <= 0:
            raise ValueError(f"rate must be positive, got {per_minute}")
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate * burst_s)
        self.level = self.capacity
        self.stamp = now

    def refill(self, now: float) -> None:
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait_for(self, amount: float) -> float:
        needed = min(amount, self.capacity)
        return 0.0 if self.level >= needed else (needed - self.level) / self.rate


class TokenBucketLimiter:
    """In-process RPM/TPM limiter; waiters are served first come, first served.

    `burst_s` sets the bucket size as seconds of rate (1 s: at 600 RPM up to 10 requests may go
    at once). `clock`/`sleep` are injectable so the pacing is testable on a virtual clock.
    """

    def __init__(
        self,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        *,
        burst_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if burst_s <= 0:
            raise ValueError(f"burst_s must be positive, got {burst_s}")
        now = clock()
        self._requests = _Bucket(requests_per_minute, burst_s, now) if requests_per_minute else None
        self._tokens = _Bucket(tokens_per_minute, burst_s, now) if tokens_per_minute else None
        self._clock = clock
        self._sleep = sleep
        self._locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}

    async def acquire(self, requests: int = 1, tokens: int = 0) -> None:
        if requests < 0 or tokens < 0:
            raise ValueError("requests and tokens must be non-negative")
        async with self._lock():
            while True:
                now = self._clock()
                wait = 0.0
                for bucket, amount in ((self._requests, requests), (self._tokens, tokens)):
                    if bucket is not None:
                        bucket.refill(now)
                        wait = max(wait, bucket.wait_for(amount))
                if wait <= 0:
                    if self._requests is not None:
                        self._requests.level -= requests
                    if self._tokens is not None:
                        self._tokens.level -= tokens
                    return
                await self._sleep(wait)

    def _lock(self) -> asyncio.Lock:
        """One lock per event loop: `complete_all_sync` runs a fresh loop per call, and an
        asyncio.Lock may only be used on one loop; the bucket levels carry across loops."""
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            self._locks = {k: v for k, v in self._locks.items() if not k.is_closed()}
            lock = self._locks[loop] = asyncio.Lock()
        return lock


class NoLimit:
    """The limiter used when neither RPM nor TPM is configured."""

    async def acquire(self, requests: int = 1, tokens: int = 0) -> None:
        return None
