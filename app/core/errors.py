"""Typed domain errors. Each carries its HTTP status; one handler renders them as JSON
`{"error": <code>, "detail": <message>}`."""

from __future__ import annotations


class DomainError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(DomainError):
    status_code = 404
    code = "not_found"


class Conflict(DomainError):
    status_code = 409
    code = "conflict"


class Unauthorized(DomainError):
    status_code = 401
    code = "unauthorized"


class Forbidden(DomainError):
    status_code = 403
    code = "forbidden"


class RateLimited(DomainError):
    status_code = 429
    code = "rate_limited"


class ServiceUnavailable(DomainError):
    status_code = 503
    code = "unavailable"
