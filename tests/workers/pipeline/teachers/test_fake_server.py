"""The fake server itself, as other test folders rely on it: the real SDK lists its models,
process mode answers and counts over HTTP, and scripted behaviours are served in order."""

from __future__ import annotations

import asyncio

import openai

from tests.fakes.openai_server import FakeOpenAIServer, RateLimit, Reply, ServerError
from tests.workers.pipeline.teachers.helpers import chat_request, make_teacher
from workers.pipeline.teachers.base import complete_all_sync


def test_models_are_listed_through_the_sdk(fake_openai_server: FakeOpenAIServer) -> None:
    async def models() -> list[str]:
        client = openai.AsyncOpenAI(base_url=fake_openai_server.base_url, api_key="k", max_retries=0)
        try:
            return [m.id for m in (await client.models.list()).data]
        finally:
            await client.close()

    assert asyncio.run(models()) == ["fake-model"]
    assert fake_openai_server.stats().models_requests == 1


def test_process_mode_answers_and_counts_over_http() -> None:
    with FakeOpenAIServer(mode="process", latency_s=0.01, responder=lambda r: r.last_user_message.upper()) as server:
        completions = complete_all_sync(make_teacher(server), [chat_request(i) for i in range(5)])
        stats = server.stats()
    assert [c.texts for c in completions] == [(f"TASK {i}",) for i in range(5)]
    assert (stats.chat_requests, stats.served) == (5, ["Reply"] * 5)


def test_script_then_rule_then_default(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.script(Reply(texts=["scripted"]))
    fake_openai_server.rule = lambda index, body: RateLimit("0") if index == 1 else None
    fake_openai_server.fail_first(0)
    texts = [complete_all_sync(make_teacher(fake_openai_server), [chat_request(i)])[0].texts for i in range(2)]
    assert texts == [("scripted",), ("echo: task 1",)]
    assert fake_openai_server.stats().served == ["Reply", "RateLimit", "Reply"]


def test_fail_first_n(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.fail_first(2, ServerError(503))
    [completion] = complete_all_sync(make_teacher(fake_openai_server), [chat_request(0)])
    assert (completion.status, completion.attempts) == ("ok", 3)
    assert fake_openai_server.stats().served == ["ServerError", "ServerError", "Reply"]
