"""Shapes shared by every /v1 route: the error body and the documented error responses."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ErrorRead(BaseModel):
    error: str = Field(examples=["not_found"])
    detail: str = Field(examples=["no batch 42"])


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` entries for domain errors, so the OpenAPI document lists every status."""
    text = {
        400: "bad request: an unparseable body or an invalid cursor", 401: "missing or unknown API key",
        403: "revoked API key", 404: "not found", 409: "conflict with the current state",
        415: "the body must be application/json", 422: "the payload is invalid",
        413: "the body is larger than the configured limit", 429: "rate limit exceeded; see Retry-After",
        503: "the database is unreachable; see Retry-After",
    }
    return {code: {"model": ErrorRead, "description": text[code]} for code in codes}


AUTH_ERRORS = (401, 403, 429)
# documented on every route: any request can meet a database outage
ALWAYS = errors(503)
