"""Retry-After parsing and full-jitter backoff as pure functions."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from workers.pipeline.teachers.retry import AttemptFailure, backoff_delay, parse_retry_after, reason_for_status

NOW = datetime(2026, 1, 5, 12, 0, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"retry-after": " 2.5 "}, 2.5),
        ({"retry-after": "Mon, 05 Jan 2026 12:00:30 GMT"}, 30.0),
        ({"retry-after": "Mon, 05 Jan 2026 11:59:00 GMT"}, 0.0),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "-3"}, None),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after-ms": "junk", "retry-after": "9"}, 9.0),
        ({}, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers, now=NOW) == expected


def test_full_jitter_stays_under_the_exponential_ceiling() -> None:
    rng = random.Random(3)
    for retry in range(1, 8):
        ceiling = min(4.0, 0.5 * 2 ** (retry - 1))
        delays = [backoff_delay(retry, base_s=0.5, max_s=4.0, retry_after_s=None, rng=rng) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in delays)
        assert max(delays) > 0.8 * ceiling  # it really spreads over the whole range


def test_retry_after_wins_but_is_capped() -> None:
    rng = random.Random(0)
    assert backoff_delay(1, base_s=0.5, max_s=30.0, retry_after_s=12.0, rng=rng) == 12.0
    assert backoff_delay(1, base_s=0.5, max_s=30.0, retry_after_s=600.0, rng=rng) == 30.0


def test_status_reasons_and_retryability() -> None:
    reasons = {status: reason_for_status(status) for status in (400, 401, 403, 404, 408, 422, 429, 500, 503)}
    assert reasons == {
        400: "bad_request", 401: "auth_error", 403: "auth_error", 404: "not_found", 408: "bad_request",
        422: "bad_request", 429: "rate_limited", 500: "server_error", 503: "server_error",
    }
    assert [AttemptFailure(r, "").retryable for r in ("rate_limited", "server_error", "timeout", "bad_request")] == [
        True, True, True, False,
    ]
