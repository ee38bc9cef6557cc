"""The ASGI application behind the fake OpenAI-compatible server.

A raw ASGI app (no framework) keeps per-request overhead small, so the teacher-efficiency
benchmark measures the client and not the fake. All state lives on one event loop, so the
in-flight counters need no locks; tests on other threads only read them.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tests.fakes.openai_behaviours import (
    Behaviour,
    ClientError,
    EmptyChoices,
    Hang,
    MalformedJSON,
    NullContent,
    RateLimit,
    Reply,
    ServerError,
)


def fake_token_count(text: str | None) -> int:
    """The fake's tokenizer: whitespace-separated words. Predictable, so tests assert exact usage."""
    return len(text.split()) if text else 0


@dataclass(frozen=True)
class FakeChatRequest:
    """What a responder sees: the decoded request body plus its arrival index (0-based)."""

    index: int
    model: str
    messages: list[dict[str, Any]]
    n: int
    body: dict[str, Any]

    @property
    def last_user_message(self) -> str:
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return str(message.get("content") or "")
        return ""


Responder = Callable[[FakeChatRequest], "str | Sequence[str] | Awaitable[str | Sequence[str]]"]
Rule = Callable[[int, dict[str, Any]], "Behaviour | None"]


def echo_responder(request: FakeChatRequest) -> str:
    return f"echo: {request.last_user_message}"


@dataclass
class FakeServerStats:
    """Counters a test asserts on. `arrivals` are `time.monotonic()` stamps of chat requests."""

    chat_requests: int = 0
    models_requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    arrivals: list[float] = field(default_factory=list)
    served: list[str] = field(default_factory=list)  # behaviour name per chat request
    bodies: list[dict[str, Any]] = field(default_factory=list)

    def snapshot(self) -> FakeServerStats:
        return FakeServerStats(**{k: (list(v) if isinstance(v, list) else v) for k, v in asdict(self).items()})


class FakeOpenAIApp:
    """POST /v1/chat/completions, GET /v1/models, GET /_fake/stats.

    Which behaviour a chat request gets: the next scripted one (FIFO), else `rule(index, body)`,
    else `Reply()`. `latency_s` is added before every answer (not to `Hang`).
    """

    def __init__(
        self,
        *,
        responder: Responder = echo_responder,
        latency_s: float = 0.0,
        rule: Rule | None = None,
        models: Sequence[str] = ("fake-model",),
        keep_bodies: bool = True,
    ) -> None:
        self.responder = responder
        self.latency_s = latency_s
        self.rule = rule
        self.models = list(models)
        self.keep_bodies = keep_bodies
        self.stats = FakeServerStats()
        self._script: deque[Behaviour] = deque()
        self.stop_event: asyncio.Event | None = None  # set by the runner on the server's loop

    def script(self, *behaviours: Behaviour) -> None:
        self._script.extend(behaviours)

    def reset(self) -> None:
        self._script.clear()
        self.stats = FakeServerStats()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await _read_body(receive)
        method, path = scope["method"], scope["path"]
        if method == "POST" and path == "/v1/chat/completions":
            await self._chat(body, receive, send)
        elif method == "GET" and path == "/v1/models":
            self.stats.models_requests += 1
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
            await _send_json(send, 200, {"object": "list", "data": data})
        elif method == "GET" and path == "/_fake/stats":
            await _send_json(send, 200, asdict(self.stats))
        else:
            await _send_json(send, 404, _error_body("not_found", f"no route {method} {path}"))

    def _next_behaviour(self, index: int, payload: dict[str, Any]) -> Behaviour:
        if self._script:
            return self._script.popleft()
        if self.rule is not None:
            chosen = self.rule(index, payload)
            if chosen is not None:
                return chosen
        return Reply()

    async def _chat(self, raw: bytes, receive: Any, send: Any) -> None:
        stats = self.stats
        index = stats.chat_requests
        stats.chat_requests += 1
        stats.arrivals.append(time.monotonic())
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            try:
                payload = json.loads(raw)
            except ValueError:
                stats.served.append("InvalidRequestJSON")
                await _send_json(send, 400, _error_body("invalid_request_error", "body is not JSON"))
                return
            if self.keep_bodies:
                stats.bodies.append(payload)
            behaviour = self._next_behaviour(index, payload)
            stats.served.append(type(behaviour).__name__)
            if isinstance(behaviour, Hang):
                await self._wait_for_disconnect(receive)
                return
            await asyncio.sleep(self.latency_s + getattr(behaviour, "delay_s", 0.0))
            await self._answer(behaviour, index, payload, send)
        finally:
            stats.in_flight -= 1

    async def _answer(self, behaviour: Behaviour, index: int, payload: dict[str, Any], send: Any) -> None:
        if isinstance(behaviour, RateLimit):
            headers = []
            if behaviour.retry_after is not None:
                headers.append((b"retry-after", behaviour.retry_after.encode()))
            if behaviour.retry_after_ms is not None:
                headers.append((b"retry-after-ms", behaviour.retry_after_ms.encode()))
            await _send_json(send, 429, _error_body("rate_limit_exceeded", "slow down"), headers)
        elif isinstance(behaviour, ServerError):
            headers = [(b"retry-after", behaviour.retry_after.encode())] if behaviour.retry_after else []
            await _send_json(send, behaviour.status, _error_body("server_error", "boom"), headers)
        elif isinstance(behaviour, ClientError):
            await _send_json(send, behaviour.status, _error_body("invalid_request_error", "rejected"))
        elif isinstance(behaviour, MalformedJSON):
            await _send_raw(send, 200, b'{"id": "chatcmpl-broken", "choices": [', b"application/json")
        elif isinstance(behaviour, EmptyChoices):
            await _send_json(send, 200, self._completion_body(index, payload, [], usage=True))
        elif isinstance(behaviour, NullContent):
            await _send_json(send, 200, self._completion_body(index, payload, [None], usage=True))
        else:
            texts = behaviour.texts
            if texts is None:
                texts = await self._respond(index, payload)
            await _send_json(send, 200, self._completion_body(index, payload, list(texts), behaviour.include_usage))

    async def _respond(self, index: int, payload: dict[str, Any]) -> list[str]:
        n = int(payload.get("n") or 1)
        request = FakeChatRequest(
            index=index, model=str(payload.get("model", "")), messages=list(payload.get("messages", [])), n=n, body=payload
        )
        produced = self.responder(request)
        if inspect.isawaitable(produced):
            produced = await produced
        if isinstance(produced, str):
            return [produced] * n
        texts = list(produced)
        if len(texts) != n:
            raise ValueError(f"responder returned {len(texts)} texts for n={n}")
        return texts

    def _completion_body(
        self, index: int, payload: dict[str, Any], texts: list[str | None], usage: bool
    ) -> dict[str, Any]:
        prompt_tokens = sum(fake_token_count(str(m.get("content") or "")) for m in payload.get("messages", []))
        completion_tokens = sum(fake_token_count(t) for t in texts)
        body: dict[str, Any] = {
            "id": f"chatcmpl-fake-{index}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": payload.get("model", "fake-model"),
            "system_fingerprint": "fake",
            "choices": [
                {
                    "index": i,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
                for i, text in enumerate(texts)
            ],
        }
        if usage:
            body["usage"] = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
        return body

    async def _wait_for_disconnect(self, receive: Any) -> None:
        """Hold a `Hang` request until the client closes the connection or the server stops."""
        waiters = [asyncio.ensure_future(receive())]
        if self.stop_event is not None:
            waiters.append(asyncio.ensure_future(self.stop_event.wait()))
        try:
            while True:
                done, _ = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
                if waiters[0] not in done:
                    return  # server stopping
                if waiters[0].result().get("type") == "http.disconnect":
                    return
                waiters[0] = asyncio.ensure_future(receive())
        finally:
            for waiter in waiters:
                waiter.cancel()


def _error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": code, "param": None, "code": code}}


async def _read_body(receive: Any) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _send_json(send: Any, status: int, body: Any, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await _send_raw(send, status, json.dumps(body).encode(), b"application/json", headers)


async def _send_raw(
    send: Any, status: int, body: bytes, content_type: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    all_headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": all_headers})
    await send({"type": "http.response.body", "body": body})
