"""Request bodies over `EXECSYNTH_API__MAX_BODY_BYTES` get 413 without being read whole.

A body that declares a larger length is answered before one byte of it is read; a body sent
without a length is counted as it arrives and reading stops once past the limit. Both answers
are in the API's error shape.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response


class BodyTooLarge(HTTPException):
    """An HTTPException, so FastAPI's body reader passes it through to the 413 handler."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the body is larger than the limit of {limit} bytes (EXECSYNTH_API__MAX_BODY_BYTES)")


class BodyLimit:
    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body_bytes
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            response = error_response(413, "too_large", f"the body is {int(declared)} bytes; the limit is {limit} "
                                      "(EXECSYNTH_API__MAX_BODY_BYTES)", {"Connection": "close"})
            await response(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counted, send)
