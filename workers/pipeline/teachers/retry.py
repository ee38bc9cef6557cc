"""When to retry a teacher call and how long to wait.

Kept apart from the client so the policy is a set of pure functions: which failures are
transient (429, 5xx, timeouts, connection errors, unusable bodies), full-jitter exponential
backoff, and Retry-After parsing (seconds or HTTP date, plus OpenAI's retry-after-ms).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

RETRYABLE_REASONS = frozenset({"rate_limited", "server_error", "timeout", "connection_error", "malformed_response"})


@dataclass(frozen=True)
class AttemptFailure:
    """Why one attempt failed. `retry_after_s` is the server's hint, if it sent one."""

    reason: str
    detail: str
    retry_after_s: float | None = None

    @property
    def retryable(self) -> bool:
        return self.reason in RETRYABLE_REASONS


def reason_for_status(status: int) -> str:
    if status == 429:
        return "rate_limited"
    if status >= 500:
        return "server_error"
    if status in (401, 403):
        return "auth_error"
    if status == 404:
        return "not_found"
    return "bad_request"


def parse_retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms`, or `retry-after` as seconds or an HTTP date.
    Unparseable or negative values count as no hint."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000.0
        except ValueError:
            value = -1.0
        if value >= 0:
            return value
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
        return max(0.0, seconds)
    return seconds if seconds >= 0 else None


def backoff_delay(
    retry_number: int, *, base_s: float, max_s: float, retry_after_s: float | None, rng: random.Random
) -> float:
    """Delay before retry `retry_number` (1 for the first retry).

    Without a hint: full jitter, uniform(0, min(max, base * 2**(n-1))), which spreads a burst of
    clients that failed together. With Retry-After: wait what the server asked, capped at `max_s`
    so one bad header cannot stall a batch.
    """
    if retry_after_s is not None:
        return min(retry_after_s, max_s)
    ceiling = min(max_s, base_s * (2 ** (retry_number - 1)))
    return rng.uniform(0.0, ceiling)
