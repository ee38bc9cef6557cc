"""Request dependencies: settings, the per-request database session (the route commits), the
caller's API key and its rate limit."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.apikeys.guard import auth_error, key_limit, rate_check
from app.apikeys.service import MISSING_KEY, Principal, authenticate
from app.core.config import Settings
from app.core.errors import DomainError, Unauthorized
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


async def presented_key(
    bearer: HTTPAuthorizationCredentials | None = Depends(_bearer),
    header_key: str | None = Depends(_header),
    settings: Settings = Depends(settings_dep),
) -> str | None:
    """The key the caller sent (401 at once when keys are required and none was sent); None
    when the deployment does not require keys. No I/O: checking it is the caller's job."""
    if not settings.api.require_api_key:
        return None
    presented = bearer.credentials if bearer is not None else header_key
    if not presented:
        raise auth_error(Unauthorized(MISSING_KEY))
    return presented


async def api_key(
    request: Request,
    presented: str | None = Depends(presented_key),
    settings: Settings = Depends(settings_dep),
    limiter: RateLimiter = Depends(rate_limiter),
) -> Principal | None:
    """The caller's key when keys are required (401 missing/unknown, 403 revoked, 429 over
    its per-minute limit); None when the deployment does not require keys.

    The lookup, the last-used stamp and the rate-limit counter run in one thread-pool hop with
    a session of their own, so a route's own session never waits on them."""
    if presented is None:
        return None
    principal = await run_in_threadpool(_authorize, settings, limiter, presented)
    request.state.key_checked = True
    return principal


async def authorize_once(request: Request) -> None:
    """The key check of `api_key` for a request that failed before its dependencies ran (an
    invalid body): raises the 401/403/429 the key earns."""
    settings = request.app.state.settings
    if not settings.api.require_api_key:
        return
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    presented = credentials.strip() if scheme.lower() == "bearer" else request.headers.get("x-api-key")
    if not presented:
        raise auth_error(Unauthorized(MISSING_KEY))
    await run_in_threadpool(_authorize, settings, await rate_limiter(request), presented)
    request.state.key_checked = True


def _authorize(settings: Settings, limiter: RateLimiter, presented: str) -> Principal:
    with session_factory(settings.database_url)() as session:
        try:
            principal, touched = authenticate(session, presented)
        except DomainError as exc:
            raise auth_error(exc) from None
        if touched:  # last_used_at is written at most once a minute
            session.commit()
    refused = rate_check(principal, settings, limiter.hit(*key_limit(principal, settings)))
    if refused is not None:
        raise refused
    return principal
