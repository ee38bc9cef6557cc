"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

The teacher LLM is the one edge tests may fake (STYLE.md rule 14); the `openai` client still
talks real HTTP to it. Two ways to run it:

- `mode="thread"` (tests): uvicorn in a background thread of the test process; responder,
  latency, rule and script can be changed while it runs and the counters read directly.
- `mode="process"` (benchmarks): uvicorn in a forked child, so the server does not share the
  client's GIL; configuration is fixed at start and counters are read over `GET /_fake/stats`.

Use it as `with FakeOpenAIServer(latency_s=0.05) as server: ... server.base_url ...`, or import
the `fake_openai_server` / `fake_openai_server_factory` fixtures into a test module or conftest.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn

from tests.fakes.openai_app import (
    FakeChatRequest,
    FakeOpenAIApp,
    FakeServerStats,
    Responder,
    Rule,
    echo_responder,
    fake_token_count,
)
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

__all__ = [
    "Behaviour",
    "ClientError",
    "EmptyChoices",
    "FakeChatRequest",
    "FakeOpenAIServer",
    "FakeServerStats",
    "Hang",
    "MalformedJSON",
    "NullContent",
    "RateLimit",
    "Reply",
    "ServerError",
    "fake_openai_server",
    "fake_openai_server_factory",
    "fake_token_count",
]

_START_TIMEOUT_S = 10.0


class FakeOpenAIServer:
    def __init__(
        self,
        *,
        responder: Responder = echo_responder,
        latency_s: float = 0.0,
        rule: Rule | None = None,
        mode: str = "thread",
        keep_bodies: bool = True,
    ) -> None:
        if mode not in ("thread", "process"):
            raise ValueError(f"mode must be 'thread' or 'process', got {mode!r}")
        self.mode = mode
        self.app = FakeOpenAIApp(responder=responder, latency_s=latency_s, rule=rule, keep_bodies=keep_bodies)
        self._socket: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        """What a client's `base_url` should be (the SDK appends `/chat/completions`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    # configuration, live in thread mode
    @property
    def responder(self) -> Responder:
        return self.app.responder

    @responder.setter
    def responder(self, value: Responder) -> None:
        self._require_thread_mode("responder")
        self.app.responder = value

    @property
    def latency_s(self) -> float:
        return self.app.latency_s

    @latency_s.setter
    def latency_s(self, value: float) -> None:
        self._require_thread_mode("latency_s")
        self.app.latency_s = value

    @property
    def rule(self) -> Rule | None:
        return self.app.rule

    @rule.setter
    def rule(self, value: Rule | None) -> None:
        self._require_thread_mode("rule")
        self.app.rule = value

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next chat requests, in arrival order."""
        if self._process is not None:
            raise RuntimeError("script() before start() in process mode: the child has its own copy")
        self.app.script(*behaviours)

    def fail_first(self, count: int, behaviour: Behaviour | None = None) -> None:
        self.script(*([behaviour or ServerError()] * count))

    def stats(self) -> FakeServerStats:
        if self.mode == "thread":
            return self.app.stats.snapshot()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_fake/stats", timeout=10) as response:
            return FakeServerStats(**json.loads(response.read()))

    def reset(self) -> None:
        self._require_thread_mode("reset")
        self.app.reset()

    def start(self) -> FakeOpenAIServer:
        # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY on accepted sockets only when proto says TCP,
        # and without it every response waits ~40 ms for a delayed ACK (Nagle).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(2048)
        self._socket = sock
        self.port = sock.getsockname()[1]
        if self.mode == "thread":
            self._server = _make_uvicorn(self.app)
            self._thread = threading.Thread(target=self._run_thread, name="fake-openai-server", daemon=True)
            self._thread.start()
            self._wait_until(lambda: self._server is not None and self._server.started)
        else:
            context = multiprocessing.get_context("fork")
            self._process = context.Process(target=_run_child, args=(self.app, sock), daemon=True)
            self._process.start()
            self._wait_until(self._answers_stats)
        return self

    def stop(self) -> None:
        if self._thread is not None and self._server is not None:
            loop, app = self._loop, self.app
            if loop is not None and app.stop_event is not None and not loop.is_closed():
                loop.call_soon_threadsafe(app.stop_event.set)
            self._server.should_exit = True
            self._thread.join(timeout=_START_TIMEOUT_S)
            self._thread = None
        if self._process is not None:
            self._process.terminate()
            self._process.join(timeout=_START_TIMEOUT_S)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()
            self._process = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _run_thread(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.app.stop_event = asyncio.Event()
        assert self._server is not None and self._socket is not None
        await self._server.serve(sockets=[self._socket])

    def _answers_stats(self) -> bool:
        try:
            self.stats()
        except OSError:
            return False
        return True

    def _wait_until(self, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + _START_TIMEOUT_S
        while not ready():
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("fake OpenAI server did not start")
            time.sleep(0.01)

    def _require_thread_mode(self, what: str) -> None:
        if self._process is not None:
            raise RuntimeError(f"cannot change {what} of a running process-mode server")


def _make_uvicorn(app: FakeOpenAIApp) -> uvicorn.Server:
    config = uvicorn.Config(
        app,
        lifespan="off",
        log_level="warning",
        access_log=False,
        timeout_keep_alive=30,
        timeout_graceful_shutdown=1,
        backlog=2048,
    )
    return uvicorn.Server(config)


def _run_child(app: FakeOpenAIApp, sock: socket.socket) -> None:
    server = _make_uvicorn(app)

    async def serve() -> None:
        app.stop_event = asyncio.Event()
        await server.serve(sockets=[sock])

    asyncio.run(serve())


@pytest.fixture
def fake_openai_server() -> Iterator[FakeOpenAIServer]:
    """A running thread-mode server with no latency; tests set latency/script/responder on it."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def fake_openai_server_factory() -> Iterator[Callable[..., FakeOpenAIServer]]:
    """`make(**FakeOpenAIServer kwargs)` -> a started server; all are stopped at teardown."""
    servers: list[FakeOpenAIServer] = []

    def make(**kwargs: Any) -> FakeOpenAIServer:
        server = FakeOpenAIServer(**kwargs).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()
