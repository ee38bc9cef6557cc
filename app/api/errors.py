"""The one error shape, `{"error": <code>, "detail": <message>}`, for every failure the API
answers: domain errors, payload validation (FastAPI's own `{"detail": [...]}` is rewritten),
Starlette's HTTP errors (404 route, 405, 413) and a database outage (503 + Retry-After).

A request that needs an API key and carries a bad body is answered about the key first: a
caller with a wrong key learns nothing about the payload rules, and gets the 401 it would get
with a good body. The key is only looked up on this error path, so valid requests pay nothing.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException

from app.api.deps import authorize_once, presented_key
from app.api.strict_json import InvalidBody
from app.core.errors import DomainError

MAX_DETAIL_CHARS = 1000
MAX_PROBLEMS = 5
RETRY_AFTER_S = 5
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type", 429: "rate_limited"}


def error_response(status: int, code: str, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail[:MAX_DETAIL_CHARS]}, status_code=status, headers=headers)


def _domain(exc: DomainError) -> JSONResponse:
    return error_response(exc.status_code, exc.code, exc.detail, getattr(exc, "headers", None))


def validation_message(exc: RequestValidationError) -> str:
    """The first problems as `place: message`; the input is never echoed (it may be huge, or
    hold values that JSON cannot encode)."""
    problems = []
    for err in exc.errors()[:MAX_PROBLEMS]:
        place = ".".join(str(part) for part in err.get("loc", ()))
        problems.append(f"{place}: {str(err.get('msg', 'invalid'))[:200]}")
    more = len(exc.errors()) - MAX_PROBLEMS
    return "; ".join(problems) + (f"; and {more} more" if more > 0 else "")


def _needs_key(dependant: Dependant) -> bool:
    return any(dep.call is presented_key or _needs_key(dep) for dep in dependant.dependencies)


async def _key_refusal(request: Request) -> JSONResponse | None:
    """The 401/403/429 this request earns by its key, None when its key is fine or not needed."""
    dependant = getattr(request.scope.get("route"), "dependant", None)
    if dependant is None or not _needs_key(dependant) or getattr(request.state, "key_checked", False):
        return None
    try:
        await authorize_once(request)
    except DomainError as exc:
        return _domain(exc)
    return None


def install(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def _domain_error(request: Request, exc: DomainError) -> JSONResponse:
        if isinstance(exc, InvalidBody):
            return await _key_refusal(request) or _domain(exc)
        return _domain(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return await _key_refusal(request) or error_response(422, "invalid_request", validation_message(exc))

    @app.exception_handler(HTTPException)
    async def _http(_: Request, exc: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        return error_response(exc.status_code, code, str(exc.detail), exc.headers)

    async def _database_down(_: Request, exc: Exception) -> JSONResponse:
        return error_response(503, "unavailable", "the database is unreachable; retry shortly",
                              {"Retry-After": str(RETRY_AFTER_S)})

    for kind in (OperationalError, InterfaceError, PoolTimeout):
        app.add_exception_handler(kind, _database_down)
