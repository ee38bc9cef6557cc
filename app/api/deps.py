"""Request dependencies: settings, the per-request database session (the route commits), the
caller's API key and its rate limit."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.apikeys.service import Principal, authenticate
from app.core.config import Settings
from app.core.errors import DomainError, RateLimited
from app.core.ratelimit import RateLimiter, limiter_for
from app.db.session import session_factory


# Dependencies that do no I/O are `async def`: FastAPI runs a plain `def` dependency in the
# thread pool, and each such hop costs more than the work itself under concurrent load.
async def settings_dep(request: Request) -> Settings:
    return request.app.state.settings


def db_session(request: Request) -> Iterator[Session]:
    session = session_factory(request.app.state.settings.database_url)()
    try:
        yield session
    finally:
        session.close()


async def rate_limiter(request: Request) -> RateLimiter:
    state = request.app.state
    if getattr(state, "rate_limiter", None) is None:
        state.rate_limiter = limiter_for(state.settings.broker_url)
    return state.rate_limiter


_bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <API key>")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="the API key")


def _with_headers(exc: DomainError, headers: dict[str, str]) -> DomainError:
    exc.headers = headers  # type: ignore[attr-defined]  # rendered by the handler in app.main
    return exc


async def api_key(
    bearer: HTTPAuthorizationCredentials | None = Depends(_bearer),
    header_key: str | None = Depends(_header),
    settings: Settings = Depends(settings_dep),
    limiter: RateLimiter = Depends(rate_limiter),
) -> Principal | None:
    """The caller's key when keys are required (401 missing/unknown, 403 revoked, 429 over
    its per-minute limit); None when the deployment does not require keys.

    The lookup, the last-used stamp and the rate-limit counter run in one thread-pool hop with
    a session of their own, so a route's own session never waits on them."""
    if not settings.api.require_api_key:
        return None
    presented = bearer.credentials if bearer is not None else header_key
    return await run_in_threadpool(_authorize, settings, limiter, presented)


def _authorize(settings: Settings, limiter: RateLimiter, presented: str | None) -> Principal:
    with session_factory(settings.database_url)() as session:
        try:
            principal, touched = authenticate(session, presented)
        except DomainError as exc:
            if exc.status_code == 401:
                raise _with_headers(exc, {"WWW-Authenticate": "Bearer"}) from None
            raise
        if touched:  # last_used_at is written at most once a minute
            session.commit()
    limit = principal.rate_limit_per_minute or settings.api.rate_limit_per_minute
    decision = limiter.hit(f"key:{principal.key_hash_prefix}", limit)
    headers = {"X-RateLimit-Limit": str(decision.limit), "X-RateLimit-Remaining": str(decision.remaining)}
    if not decision.allowed:
        raise _with_headers(RateLimited(
            f"rate limit of {limit} requests per minute exceeded for key {principal.name!r}; "
            f"retry in {decision.retry_after_s} s"), {**headers, "Retry-After": str(decision.retry_after_s)})
    return principal
