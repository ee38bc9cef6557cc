"""complete_all_sync works with and without an event loop running in the calling thread."""

from __future__ import annotations

import asyncio

from workers.pipeline.constraints import LEVELS
from workers.pipeline.prompts import build_generation_messages
from workers.pipeline.records import ChatRequest, Constraint
from workers.pipeline.teachers.base import complete_all_sync
from workers.pipeline.teachers.registry import build_teacher


def _requests() -> list[ChatRequest]:
    constraint = Constraint("str", "split", "C1", LEVELS["C1"])
    return [
        ChatRequest(key=f"slot:{i}/generate", messages=build_generation_messages(constraint, 0), purpose="generate",
                    seed=0, constraint=constraint, context={"index": i})
        for i in range(3)
    ]


def test_same_answers_inside_and_outside_a_running_loop() -> None:
    teacher = build_teacher("builtin", {"kind": "builtin"})
    outside = complete_all_sync(teacher, _requests())

    async def caller() -> list:
        return complete_all_sync(teacher, _requests())

    inside = asyncio.run(caller())
    assert [c.texts for c in inside] == [c.texts for c in outside]
    assert all(c.status == "ok" and "```python" in c.texts[0] for c in inside)
    assert len({c.texts[0] for c in inside}) == 3
