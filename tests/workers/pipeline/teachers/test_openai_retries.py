"""Retries over real HTTP: the real `openai` client against the fake server's misbehaviours."""

from __future__ import annotations

import socket
import time

from tests.fakes.openai_server import (
    ClientError,
    EmptyChoices,
    FakeOpenAIServer,
    Hang,
    MalformedJSON,
    NullContent,
    RateLimit,
    ServerError,
)
from tests.workers.pipeline.teachers.helpers import chat_request, make_teacher
from workers.pipeline.teachers.base import complete_all_sync
from workers.pipeline.teachers.registry import build_teacher


def run_one(teacher, request=None):
    started = time.monotonic()
    [completion] = complete_all_sync(teacher, [request or chat_request(0)])
    return completion, time.monotonic() - started


def test_fixed_latency_is_measured(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.latency_s = 0.2
    completion, elapsed = run_one(make_teacher(fake_openai_server))
    assert completion.status == "ok"
    assert completion.texts == ("echo: task 0",)
    assert 200 <= completion.latency_ms < 1000
    assert elapsed >= 0.2


def test_rate_limit_honours_retry_after_seconds(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(RateLimit(retry_after="1"))
    completion, elapsed = run_one(make_teacher(fake_openai_server, backoff_base_s=0.01))
    assert completion.status == "ok"
    assert completion.attempts == 2
    assert fake_openai_server.stats().served == ["RateLimit", "Reply"]
    assert 1.0 <= elapsed < 2.5  # the 0.01 s backoff alone would retry almost at once


def test_retry_after_ms_takes_precedence(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(RateLimit(retry_after="30", retry_after_ms="300"))
    completion, elapsed = run_one(make_teacher(fake_openai_server))
    assert (completion.status, completion.attempts) == ("ok", 2)
    assert 0.3 <= elapsed < 2.0


def test_retry_after_is_capped_by_backoff_max(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(RateLimit(retry_after="3600"))
    completion, elapsed = run_one(make_teacher(fake_openai_server, backoff_max_s=0.2))
    assert (completion.status, completion.attempts) == ("ok", 2)
    assert 0.2 <= elapsed < 1.5


def test_server_error_then_success(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(ServerError(500), ServerError(503))
    completion, _ = run_one(make_teacher(fake_openai_server))
    assert completion.status == "ok"
    assert completion.attempts == 3
    assert fake_openai_server.stats().chat_requests == 3


def test_hanging_connection_times_out_then_succeeds(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(Hang())
    completion, elapsed = run_one(make_teacher(fake_openai_server, request_timeout_s=0.3))
    assert completion.status == "ok"
    assert completion.attempts == 2
    assert 0.3 <= elapsed < 2.0
    assert fake_openai_server.stats().served == ["Hang", "Reply"]


def test_malformed_bodies_are_retried(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(MalformedJSON(), EmptyChoices(), NullContent())
    completion, _ = run_one(make_teacher(fake_openai_server))
    assert completion.status == "ok"
    assert completion.texts == ("echo: task 0",)
    assert completion.attempts == 4


def test_exhausted_retries_report_the_last_reason(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.rule = lambda index, body: ServerError(502)
    completion, _ = run_one(make_teacher(fake_openai_server, max_retries=2))
    assert completion.status == "error"
    assert completion.error == "server_error"
    assert completion.texts == ()
    assert completion.attempts == 3
    assert fake_openai_server.stats().chat_requests == 3


def test_each_failure_kind_has_its_reason(fake_openai_server: FakeOpenAIServer) -> None:
    cases = [
        (RateLimit(retry_after=None), "rate_limited"),
        (Hang(), "timeout"),
        (MalformedJSON(), "malformed_response"),
        (EmptyChoices(), "malformed_response"),
        (NullContent(), "malformed_response"),
    ]
    for behaviour, reason in cases:
        fake_openai_server.reset()
        fake_openai_server.rule = lambda index, body, b=behaviour: b
        completion, _ = run_one(make_teacher(fake_openai_server, max_retries=1, request_timeout_s=0.2))
        assert (completion.status, completion.error, completion.attempts) == ("error", reason, 2), behaviour


def test_client_errors_are_not_retried(fake_openai_server: FakeOpenAIServer) -> None:
    for status, reason in [(400, "bad_request"), (422, "bad_request"), (401, "auth_error"), (404, "not_found")]:
        fake_openai_server.reset()
        fake_openai_server.script(ClientError(status))
        completion, _ = run_one(make_teacher(fake_openai_server))
        assert (completion.status, completion.error, completion.attempts) == ("error", reason, 1)
        assert fake_openai_server.stats().chat_requests == 1


def test_connection_refused_is_a_connection_error() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    teacher = build_teacher(
        "down", {"kind": "openai", "base_url": f"http://127.0.0.1:{port}/v1", "model": "m", "max_retries": 2, "backoff_base_s": 0.01}
    )
    completion, _ = run_one(teacher)
    assert (completion.status, completion.error, completion.attempts) == ("error", "connection_error", 3)
