"""The RPM/TPM token bucket on a virtual clock: exact pacing, no wall-clock waits."""

from __future__ import annotations

import asyncio

import pytest

from workers.pipeline.teachers.limits import NoLimit, RateLimiter, TokenBucketLimiter


class VirtualClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def grant_times(limiter: TokenBucketLimiter, clock: VirtualClock, takes: list[tuple[int, int]]) -> list[float]:
    async def run() -> list[float]:
        times = []
        for requests, tokens in takes:
            await limiter.acquire(requests=requests, tokens=tokens)
            times.append(round(clock.now, 6))
        return times

    return asyncio.run(run())


def test_requests_per_minute_allow_a_burst_then_pace() -> None:
    clock = VirtualClock()
    limiter = TokenBucketLimiter(requests_per_minute=120, clock=clock, sleep=clock.sleep)  # 2/s, burst 2
    assert grant_times(limiter, clock, [(1, 0)] * 6) == [0.0, 0.0, 0.5, 1.0, 1.5, 2.0]


def test_tokens_per_minute_pace_by_token_count() -> None:
    clock = VirtualClock()
    limiter = TokenBucketLimiter(tokens_per_minute=6000, clock=clock, sleep=clock.sleep)  # 100/s, burst 100
    assert grant_times(limiter, clock, [(1, 60), (1, 60), (1, 50), (1, 100)]) == [0.0, 0.2, 0.7, 1.7]


def test_oversized_take_waits_for_a_full_bucket_and_goes_into_debt() -> None:
    clock = VirtualClock()
    limiter = TokenBucketLimiter(tokens_per_minute=6000, clock=clock, sleep=clock.sleep)
    # 300 tokens > capacity 100: granted at once (bucket full), leaving a debt of 200 tokens (2 s)
    assert grant_times(limiter, clock, [(1, 300), (1, 100)]) == [0.0, 3.0]


def test_the_slower_of_both_limits_wins() -> None:
    clock = VirtualClock()
    limiter = TokenBucketLimiter(requests_per_minute=600, tokens_per_minute=600, clock=clock, sleep=clock.sleep)
    # 10 req/s but only 10 tokens/s with 10 tokens per request: 1 request per second after the burst
    assert grant_times(limiter, clock, [(1, 10)] * 3) == [0.0, 1.0, 2.0]


def test_waiters_are_served_in_arrival_order() -> None:
    clock = VirtualClock()
    limiter = TokenBucketLimiter(requests_per_minute=60, clock=clock, sleep=clock.sleep)
    order: list[int] = []

    async def one(index: int) -> None:
        await limiter.acquire()
        order.append(index)

    async def run() -> None:
        await asyncio.gather(*(one(i) for i in range(5)))

    asyncio.run(run())
    assert order == [0, 1, 2, 3, 4]
    assert clock.now == pytest.approx(4.0)


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="rate must be positive"):
        TokenBucketLimiter(requests_per_minute=-5)
    with pytest.raises(ValueError, match="burst_s"):
        TokenBucketLimiter(requests_per_minute=5, burst_s=0)
    with pytest.raises(ValueError, match="non-negative"):
        asyncio.run(TokenBucketLimiter(requests_per_minute=5).acquire(tokens=-1))


def test_both_limiters_satisfy_the_protocol() -> None:
    assert isinstance(TokenBucketLimiter(requests_per_minute=1), RateLimiter)
    assert isinstance(NoLimit(), RateLimiter)
