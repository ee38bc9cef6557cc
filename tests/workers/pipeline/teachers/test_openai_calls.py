"""Concurrency, rate limits, usage and completeness of OpenAI-compatible calls over real HTTP."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.fakes.openai_app import FakeChatRequest
from tests.fakes.openai_server import FakeOpenAIServer, Reply, ServerError, fake_token_count
from tests.workers.pipeline.teachers.helpers import chat_request, make_teacher, openai_spec
from workers.pipeline.teachers.base import complete_all, complete_all_sync
from workers.pipeline.teachers.openai_compat import OpenAICompatibleTeacher, estimate_request_tokens
from workers.pipeline.teachers.openai_config import OpenAITeacherSpec


def test_concurrency_bound_is_respected(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.latency_s = 0.1
    completions = complete_all_sync(make_teacher(fake_openai_server, concurrency=4), [chat_request(i) for i in range(24)])
    assert [c.status for c in completions] == ["ok"] * 24
    stats = fake_openai_server.stats()
    assert stats.chat_requests == 24
    assert stats.max_in_flight == 4


def test_concurrency_above_one_pool_uses_every_slot(fake_openai_server: FakeOpenAIServer) -> None:
    """20 slots span two HTTP pools (16 + 4); all 20 are used at once and never more."""
    fake_openai_server.latency_s = 0.2
    completions = complete_all_sync(make_teacher(fake_openai_server, concurrency=20), [chat_request(i) for i in range(60)])
    assert [c.texts for c in completions] == [(f"echo: task {i}",) for i in range(60)]
    assert fake_openai_server.stats().max_in_flight == 20


def test_requests_per_minute_limit_paces_arrivals(fake_openai_server: FakeOpenAIServer) -> None:
    # 600 RPM = 10 per second with a one-second burst of 10: d seconds after the start at most
    # 10 + 10 * d requests can have been sent, so the k-th arrival (from 0) comes no earlier
    # than (k + 1 - 10) / 10 s after it. A busy server only delays arrivals (it once handled 13
    # within 52 ms after a stall, which a bound on the gaps between arrivals took for a burst);
    # without the limiter all 15 arrive within a few ms and break the bound.
    teacher = make_teacher(fake_openai_server, requests_per_minute=600, concurrency=32)
    start = time.monotonic()
    completions = complete_all_sync(teacher, [chat_request(i) for i in range(15)])
    assert all(c.status == "ok" for c in completions)
    arrivals = sorted(fake_openai_server.stats().arrivals)
    assert len(arrivals) == 15
    for k, at in enumerate(arrivals):
        assert at - start >= (k + 1 - 10) / 10 - 0.01, (k, at - start)
    assert arrivals[-1] - start < 10.0


def test_usage_and_cost_are_recorded(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.responder = lambda request: "def f(x):\n    return x\nprint(f(1))"
    teacher = make_teacher(fake_openai_server, price_input_per_mtok=2.5, price_output_per_mtok=10.0)
    [completion] = complete_all_sync(teacher, [chat_request(0, "write code now")])
    prompt_tokens = fake_token_count("You are a code generator.") + fake_token_count("write code now")
    completion_tokens = fake_token_count("def f(x):\n    return x\nprint(f(1))")
    assert (completion.prompt_tokens, completion.completion_tokens) == (prompt_tokens, completion_tokens) == (8, 5)
    assert completion.cost_usd == pytest.approx((8 * 2.5 + 5 * 10.0) / 1_000_000)
    assert completion.model == "fake-model"


def test_missing_usage_counts_zero_tokens_and_costs_nothing(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(Reply(texts=["no usage here"], include_usage=False))
    teacher = make_teacher(fake_openai_server, price_input_per_mtok=2.5, price_output_per_mtok=10.0)
    [completion] = complete_all_sync(teacher, [chat_request(0)])
    assert (completion.status, completion.texts) == ("ok", ("no usage here",))
    assert (completion.prompt_tokens, completion.completion_tokens, completion.cost_usd) == (0, 0, 0.0)


def test_nothing_lost_and_order_kept_under_failures(fake_openai_server: FakeOpenAIServer) -> None:
    """Every third request fails once with a 500; each request still gets exactly its own answer."""
    failed: set[str] = set()

    def rule(index: int, body: dict) -> ServerError | None:
        prompt = body["messages"][-1]["content"]
        if int(prompt.split()[-1]) % 3 == 0 and prompt not in failed:
            failed.add(prompt)
            return ServerError(500)
        return None

    fake_openai_server.rule = rule
    fake_openai_server.latency_s = 0.01
    requests = [chat_request(i) for i in range(60)]
    completions = complete_all_sync(make_teacher(fake_openai_server, concurrency=8), requests)
    assert [c.request_key for c in completions] == [r.key for r in requests]
    assert [c.texts for c in completions] == [(f"echo: task {i}",) for i in range(60)]
    assert [c.attempts for c in completions] == [2 if i % 3 == 0 else 1 for i in range(60)]
    assert fake_openai_server.stats().chat_requests == 60 + 20


def test_sampling_parameters_reach_the_server(fake_openai_server: FakeOpenAIServer) -> None:
    def numbered(request: FakeChatRequest) -> list[str]:
        return [f"answer {i}" for i in range(request.n)]

    fake_openai_server.responder = numbered
    teacher = make_teacher(fake_openai_server, n=3, max_tokens=256)
    requests = [chat_request(7), chat_request(8, temperature=0.1, top_p=0.5, n=2, max_tokens=64)]
    first, second = complete_all_sync(teacher, requests)
    assert first.texts == ("answer 0", "answer 1", "answer 2")
    assert second.texts == ("answer 0", "answer 1")
    bodies = sorted(fake_openai_server.stats().bodies, key=lambda b: b["seed"])
    picked = [{k: b[k] for k in ("model", "temperature", "top_p", "n", "max_tokens", "seed")} for b in bodies]
    assert picked == [
        {"model": "fake-model", "temperature": 0.8, "top_p": 0.9, "n": 3, "max_tokens": 256, "seed": 7},
        {"model": "fake-model", "temperature": 0.1, "top_p": 0.5, "n": 2, "max_tokens": 64, "seed": 8},
    ]


def test_one_teacher_serves_several_event_loops(fake_openai_server: FakeOpenAIServer) -> None:
    """CLI commands and Celery tasks call complete_all_sync repeatedly, each on a new loop."""
    teacher = make_teacher(fake_openai_server, concurrency=2, requests_per_minute=6000)
    texts = [complete_all_sync(teacher, [chat_request(i)])[0].texts for i in range(3)]
    assert texts == [("echo: task 0",), ("echo: task 1",), ("echo: task 2",)]

    async def inside_a_loop() -> list[str]:
        try:
            return [c.status for c in await complete_all(teacher, [chat_request(9), chat_request(10)])]
        finally:
            await teacher.aclose()

    assert asyncio.run(inside_a_loop()) == ["ok", "ok"]


class CountingLimiter:
    """Implements the RateLimiter protocol (as a Redis-backed limiter would) and keeps the takes."""

    def __init__(self) -> None:
        self.takes: list[tuple[int, int]] = []

    async def acquire(self, requests: int = 1, tokens: int = 0) -> None:
        self.takes.append((requests, tokens))


def test_every_attempt_takes_one_request_and_its_token_estimate(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(ServerError(500))
    limiter = CountingLimiter()
    teacher = OpenAICompatibleTeacher(
        OpenAITeacherSpec(**openai_spec(fake_openai_server, max_tokens=100, n=2)), name="t", limiter=limiter
    )
    request = chat_request(0, "x" * 40)
    [completion] = complete_all_sync(teacher, [request])
    expected = estimate_request_tokens(request.messages, 100, 2)
    assert expected == (len("You are a code generator.") // 4 + 4) + (40 // 4 + 4) + 200 == 224
    assert (completion.status, completion.attempts) == ("ok", 2)
    assert limiter.takes == [(1, expected), (1, expected)]
