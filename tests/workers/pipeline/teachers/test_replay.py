"""Record completions from a live (fake) server, then replay them with no server at all."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.fakes.openai_server import FakeOpenAIServer
from tests.workers.pipeline.teachers.helpers import chat_request, make_teacher
from workers.pipeline.teachers.base import complete_all_sync
from workers.pipeline.teachers.recording import RecordingError, prompt_hash, read_recording
from workers.pipeline.teachers.registry import TeacherConfigError, build_teacher
from workers.pipeline.teachers.replay import ReplayTeacher


def test_record_then_replay_round_trip(fake_openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    recording = tmp_path / "calls" / "teacher.jsonl"
    live = make_teacher(fake_openai_server, record_path=str(recording), price_input_per_mtok=1.0)
    requests = [chat_request(i) for i in range(4)]
    recorded = complete_all_sync(live, requests)
    assert len(recording.read_text().splitlines()) == 4

    fake_openai_server.stop()  # replay must not need the server
    replay = build_teacher("again", {"kind": "replay", "path": str(recording)})
    assert isinstance(replay, ReplayTeacher)
    assert (replay.name, replay.model, len(replay)) == ("again", "fake-model", 4)
    replayed = complete_all_sync(replay, [replace(r, key=f"batch:2/slot:{i}") for i, r in enumerate(requests)])
    assert [c.texts for c in replayed] == [c.texts for c in recorded] == [(f"echo: task {i}",) for i in range(4)]
    assert [c.request_key for c in replayed] == [f"batch:2/slot:{i}" for i in range(4)]
    assert [(c.prompt_tokens, c.completion_tokens) for c in replayed] == [(c.prompt_tokens, c.completion_tokens) for c in recorded]
    assert {c.cost_usd for c in replayed} == {0.0}

    [miss] = complete_all_sync(replay, [chat_request(99)])
    assert (miss.status, miss.error, miss.texts) == ("error", "replay_miss", ())


def test_prompt_hash_covers_messages_purpose_and_seed_only() -> None:
    base = chat_request(1)
    assert prompt_hash(base) == prompt_hash(replace(base, key="other", temperature=0.1))
    assert prompt_hash(base) != prompt_hash(replace(base, seed=2))
    assert prompt_hash(base) != prompt_hash(replace(base, purpose="solve"))
    assert prompt_hash(base) != prompt_hash(chat_request(1, "different task"))
    assert len(prompt_hash(base)) == 64


def test_first_record_of_a_hash_wins(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    h = prompt_hash(chat_request(0))
    path.write_text(
        json.dumps({"prompt_hash": h, "texts": ["first"], "model": "m"}) + "\n\n"
        + json.dumps({"prompt_hash": h, "texts": ["second"], "model": "m"}) + "\n"
    )
    assert read_recording(path)[h]["texts"] == ["first"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json\n", r"r.jsonl:1: not JSON"),
        ('{"prompt_hash": "x", "model": "m"}\n', r"r.jsonl:1: missing field\(s\) texts"),
        ('{"prompt_hash": "x", "model": "m", "texts": "abc"}\n', r"'texts' must be a list of strings"),
        ('[1, 2]\n', r"expected a JSON object"),
    ],
)
def test_bad_recordings_name_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(content)
    with pytest.raises(RecordingError, match=message):
        ReplayTeacher(path)
    with pytest.raises(TeacherConfigError, match=r"teacher 'r' \(replay\): path: .*" + message):
        build_teacher("r", {"kind": "replay", "path": str(path)})
