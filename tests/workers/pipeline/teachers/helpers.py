"""Requests and teacher specs shared by the teacher tests."""

from __future__ import annotations

from typing import Any

from tests.fakes.openai_server import FakeOpenAIServer
from workers.pipeline.records import ChatRequest
from workers.pipeline.teachers.openai_compat import OpenAICompatibleTeacher
from workers.pipeline.teachers.registry import build_teacher


def chat_request(index: int, text: str | None = None, **fields: Any) -> ChatRequest:
    return ChatRequest(
        key=f"batch:1/slot:{index}/generate",
        messages=(
            {"role": "system", "content": "You are a code generator."},
            {"role": "user", "content": text or f"task {index}"},
        ),
        purpose="generate",
        seed=index,
        **fields,
    )


def openai_spec(server: FakeOpenAIServer, **overrides: Any) -> dict[str, Any]:
    """Fast-failing defaults so a misbehaving test ends in seconds, not minutes."""
    return {
        "kind": "openai",
        "base_url": server.base_url,
        "model": "fake-model",
        "backoff_base_s": 0.01,
        "backoff_max_s": 5.0,
        "request_timeout_s": 5.0,
        "max_retries": 3,
        **overrides,
    }


def make_teacher(server: FakeOpenAIServer, **overrides: Any) -> OpenAICompatibleTeacher:
    teacher = build_teacher("fake", openai_spec(server, **overrides))
    assert isinstance(teacher, OpenAICompatibleTeacher)
    return teacher
