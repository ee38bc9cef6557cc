"""What a request carrying an API key is answered when it may not go on: the 401 with the
scheme to use, the 429 with Retry-After; and the per-key request budget."""

from __future__ import annotations

from app.apikeys.service import Principal
from app.core.config import Settings
from app.core.errors import DomainError, RateLimited
from app.core.ratelimit import Decision


def with_headers(exc: DomainError, headers: dict[str, str]) -> DomainError:
    exc.headers = headers  # type: ignore[attr-defined]  # rendered by the handler in app.main
    return exc


def auth_error(exc: DomainError) -> DomainError:
    """A 401 carries the scheme to answer with."""
    return with_headers(exc, {"WWW-Authenticate": "Bearer"}) if exc.status_code == 401 else exc


def key_limit(principal: Principal, settings: Settings) -> tuple[str, int]:
    """(rate-limit subject, requests per minute) of a key."""
    return f"key:{principal.key_hash_prefix}", principal.rate_limit_per_minute or settings.api.rate_limit_per_minute


def rate_check(principal: Principal, settings: Settings, decision: Decision) -> DomainError | None:
    """The 429 for a spent budget, None when the request may go on."""
    if decision.allowed:
        return None
    limit = key_limit(principal, settings)[1]
    headers = {"X-RateLimit-Limit": str(decision.limit), "X-RateLimit-Remaining": str(decision.remaining),
               "Retry-After": str(decision.retry_after_s)}
    return with_headers(RateLimited(
        f"rate limit of {limit} requests per minute exceeded for key {principal.name!r}; "
        f"retry in {decision.retry_after_s} s"), headers)
