"""A teacher backed by any OpenAI-compatible chat-completions server.

We own retries rather than the SDK (its `max_retries` is 0) because the policy must also cover
bodies the SDK accepts but we cannot use (no choices, null content), must share one RPM/TPM
limiter across calls, and must count attempts for the cost record. A call never raises for an
API failure: it returns `Completion(status="error", error=<reason>)` so the failure is stored
as data and the batch goes on (STYLE.md rule 9).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import openai

try:  # the SDK's transport: httpx2 in current releases, httpx in older ones
    import httpx2 as _http
except ImportError:  # pragma: no cover - depends on the installed SDK
    import httpx as _http  # type: ignore[no-redef]

from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.limits import NoLimit, RateLimiter, TokenBucketLimiter
from workers.pipeline.teachers.openai_config import OpenAITeacherSpec
from workers.pipeline.teachers.recording import CompletionRecorder
from workers.pipeline.teachers.retry import AttemptFailure, backoff_delay, parse_retry_after, reason_for_status

log = logging.getLogger(__name__)

NO_KEY_PLACEHOLDER = "EMPTY"  # what local servers (vLLM, llama.cpp) accept when no key is set


@dataclass(frozen=True)
class _Answer:
    texts: tuple[str, ...]
    prompt_tokens: int
    completion_tokens: int


POOL_SIZE = 16  # connections per HTTP pool; see _LoopState


@dataclass
class _LoopState:
    """Objects bound to one event loop: HTTP clients and the concurrency bound.

    `free_slots` holds slot numbers 0..concurrency-1; a call takes one for each attempt, so at
    most `concurrency` calls are in flight. Slot s uses `clients[s // POOL_SIZE]`, so no pool
    ever has more than POOL_SIZE requests: the HTTP pool scans all its connections on every
    request and response, and one pool of 64+ connections spent a noticeable share of the
    client's CPU doing so.
    """

    clients: list[openai.AsyncOpenAI]
    free_slots: asyncio.Queue[int]

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[openai.AsyncOpenAI]:
        slot = await self.free_slots.get()
        try:
            yield self.clients[slot // POOL_SIZE]
        finally:
            self.free_slots.put_nowait(slot)


def estimate_request_tokens(messages: tuple[dict[str, str], ...], max_tokens: int | None, n: int) -> int:
    """Tokens a request may consume, for the TPM limiter before the server reports usage:
    about 4 characters per token plus per-message overhead, plus the completion budget."""
    prompt = sum(len(str(m.get("content") or "")) // 4 + 4 for m in messages)
    return prompt + (max_tokens or 0) * n


class OpenAICompatibleTeacher:
    def __init__(
        self,
        spec: OpenAITeacherSpec,
        *,
        name: str = "openai",
        limiter: RateLimiter | None = None,
        recorder: CompletionRecorder | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.spec = spec
        self.name = name
        self.model = spec.model
        if limiter is None:
            has_limit = spec.requests_per_minute or spec.tokens_per_minute
            limiter = TokenBucketLimiter(spec.requests_per_minute, spec.tokens_per_minute) if has_limit else NoLimit()
        self.limiter = limiter
        if recorder is None and spec.record_path:
            recorder = CompletionRecorder(spec.record_path)
        self.recorder = recorder
        self._rng = rng or random.Random()
        self._states: dict[asyncio.AbstractEventLoop, _LoopState] = {}

    async def complete(self, request: ChatRequest) -> Completion:
        """One Completion per request, never an exception for an API failure. `latency_ms`
        runs from the first attempt to the answer (retries and backoff included, waiting for a
        slot or the rate limiter before the first attempt excluded); tokens and cost are those
        of the successful attempt, as failed attempts report no usage."""
        spec = self.spec
        n = request.n if request.n > 1 else spec.n
        params = self._params(request, n)
        tokens = estimate_request_tokens(request.messages, params.get("max_tokens"), n)
        state = self._state()
        attempts = 0
        started: float | None = None
        while True:
            async with state.slot() as client:
                await self.limiter.acquire(requests=1, tokens=tokens)
                if started is None:
                    started = time.monotonic()
                attempts += 1
                outcome = await self._attempt(client, params)
            if isinstance(outcome, _Answer):
                completion = self._completion(request, started, attempts, outcome)
                if self.recorder is not None:
                    self.recorder.record(request, completion)
                return completion
            if not outcome.retryable or attempts > spec.max_retries:
                log.warning("teacher %s: %s gave up after %d attempt(s): %s", self.name, request.key, attempts, outcome.detail)
                return self._completion(request, started, attempts, outcome)
            delay = backoff_delay(
                attempts,
                base_s=spec.backoff_base_s,
                max_s=spec.backoff_max_s,
                retry_after_s=outcome.retry_after_s,
                rng=self._rng,
            )
            log.info("teacher %s: %s attempt %d %s; retrying in %.2fs", self.name, request.key, attempts, outcome.reason, delay)
            await asyncio.sleep(delay)

    async def aclose(self) -> None:
        """Close the connection pools of the running loop (pools of finished loops are dropped)."""
        state = self._states.pop(asyncio.get_running_loop(), None)
        if state is not None:
            for client in state.clients:
                await client.close()

    def _params(self, request: ChatRequest, n: int) -> dict[str, Any]:
        spec = self.spec
        params: dict[str, Any] = {
            "model": spec.model,
            "messages": [dict(m) for m in request.messages],
            "temperature": spec.temperature if request.temperature is None else request.temperature,
            "top_p": spec.top_p if request.top_p is None else request.top_p,
            "n": n,
        }
        max_tokens = spec.max_tokens if request.max_tokens is None else request.max_tokens
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if spec.send_seed:
            params["seed"] = request.seed
        return params

    async def _attempt(self, client: openai.AsyncOpenAI, params: dict[str, Any]) -> _Answer | AttemptFailure:
        try:
            async with asyncio.timeout(self.spec.request_timeout_s):
                # client.post is the SDK's documented raw-request path: same transport and typed
                # errors as chat.completions.create, without its walk over the typed params and
                # the response model (together ~0.5 ms CPU per call, a third of the client's cost).
                # cast_to=object gives the decoded JSON (or the text of a non-JSON body).
                response = await client.post("/chat/completions", body=params, cast_to=object)
        except (TimeoutError, openai.APITimeoutError):
            return AttemptFailure("timeout", f"no answer within {self.spec.request_timeout_s}s")
        except openai.APIStatusError as exc:
            return AttemptFailure(
                reason_for_status(exc.status_code),
                f"HTTP {exc.status_code}: {exc.message}",
                parse_retry_after(exc.response.headers),
            )
        except openai.APIConnectionError as exc:
            return AttemptFailure("connection_error", str(exc))
        except (openai.APIResponseValidationError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            return AttemptFailure("malformed_response", f"unreadable body: {exc}")
        except openai.OpenAIError as exc:
            return AttemptFailure("api_error", f"{type(exc).__name__}: {exc}")
        return _read_answer(response)

    def _completion(
        self, request: ChatRequest, started: float | None, attempts: int, outcome: _Answer | AttemptFailure
    ) -> Completion:
        latency_ms = (time.monotonic() - started) * 1000.0 if started is not None else 0.0
        if isinstance(outcome, AttemptFailure):
            return Completion(
                request_key=request.key,
                texts=(),
                model=self.model,
                status="error",
                error=outcome.reason,
                latency_ms=latency_ms,
                attempts=attempts,
            )
        cost = (
            outcome.prompt_tokens * self.spec.price_input_per_mtok
            + outcome.completion_tokens * self.spec.price_output_per_mtok
        ) / 1_000_000
        return Completion(
            request_key=request.key,
            texts=outcome.texts,
            model=self.model,
            status="ok",
            prompt_tokens=outcome.prompt_tokens,
            completion_tokens=outcome.completion_tokens,
            latency_ms=latency_ms,
            cost_usd=cost,
            attempts=attempts,
        )

    def _state(self) -> _LoopState:
        """Created lazily per event loop: HTTP pools and asyncio queues cannot cross loops, and
        `complete_all_sync` starts a fresh loop per call."""
        loop = asyncio.get_running_loop()
        state = self._states.get(loop)
        if state is None:
            self._states = {k: v for k, v in self._states.items() if not k.is_closed()}
            spec = self.spec
            pools = -(-spec.concurrency // POOL_SIZE)
            tls = _http.create_ssl_context()  # loading CA certificates costs ~20 ms: once, not per pool
            clients = [self._new_client(min(POOL_SIZE, spec.concurrency), tls) for _ in range(pools)]
            # LIFO: at low load the same few slots, hence the same warm connections, are reused
            free_slots: asyncio.Queue[int] = asyncio.LifoQueue()
            for slot in reversed(range(spec.concurrency)):
                free_slots.put_nowait(slot)
            state = self._states[loop] = _LoopState(clients=clients, free_slots=free_slots)
        return state

    def _new_client(self, connections: int, tls: Any) -> openai.AsyncOpenAI:
        spec = self.spec
        return openai.AsyncOpenAI(
            base_url=spec.base_url,
            api_key=spec.api_key.get_secret_value() if spec.api_key else NO_KEY_PLACEHOLDER,
            max_retries=0,
            timeout=spec.request_timeout_s,
            http_client=openai.DefaultAsyncHttpxClient(
                limits=_http.Limits(max_connections=connections, max_keepalive_connections=connections),
                verify=tls,
            ),
        )


def _read_answer(response: Any) -> _Answer | AttemptFailure:
    """Texts and usage from a decoded chat-completion body, or why it is unusable (servers
    send empty choices, null content for refusals, bodies that are not JSON objects)."""
    choices = response.get("choices") if isinstance(response, dict) else None
    if not isinstance(choices, list) or not choices:
        return AttemptFailure("malformed_response", "no choices in the response")
    texts = []
    for choice in sorted(choices, key=_choice_index):
        message = choice.get("message") if isinstance(choice, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            return AttemptFailure("malformed_response", "a choice has no text content")
        texts.append(content)
    usage = response.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return _Answer(texts=tuple(texts), prompt_tokens=_count(usage, "prompt_tokens"), completion_tokens=_count(usage, "completion_tokens"))


def _choice_index(choice: Any) -> int:
    index = choice.get("index") if isinstance(choice, dict) else None
    return index if isinstance(index, int) else 0


def _count(usage: dict[str, Any], name: str) -> int:
    value = usage.get(name)
    return value if isinstance(value, int) and value >= 0 else 0
