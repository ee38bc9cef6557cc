"""Building teachers from plain specs; a bad spec fails with the field named."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.pipeline.teachers.base import Teacher
from workers.pipeline.teachers.openai_compat import OpenAICompatibleTeacher
from workers.pipeline.teachers.openai_config import OpenAITeacherSpec
from workers.pipeline.teachers.registry import TEACHER_KINDS, TeacherConfigError, build_teacher, validate_teacher_spec

GOOD = {"kind": "openai", "base_url": "http://127.0.0.1:8000/v1/", "model": "qwen2.5-coder"}


def test_openai_defaults_follow_the_reference_run() -> None:
    spec = validate_teacher_spec("vllm", GOOD)
    assert isinstance(spec, OpenAITeacherSpec)
    assert (spec.temperature, spec.top_p, spec.n, spec.max_retries) == (0.8, 0.9, 1, 5)
    assert spec.base_url == "http://127.0.0.1:8000/v1"
    assert (spec.requests_per_minute, spec.tokens_per_minute, spec.price_input_per_mtok) == (None, None, 0.0)


def test_openai_teacher_is_built_lazily() -> None:
    teacher = build_teacher("vllm", {**GOOD, "api_key": "sk-secret", "concurrency": 64, "requests_per_minute": 3000})
    assert isinstance(teacher, OpenAICompatibleTeacher)
    assert isinstance(teacher, Teacher)
    assert (teacher.name, teacher.model, teacher.spec.concurrency) == ("vllm", "qwen2.5-coder", 64)
    assert teacher._states == {}  # no client until the first call
    assert "sk-secret" not in repr(teacher.spec)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({**GOOD, "temperature": 2.5}, r"teacher 't' \(openai\): temperature: Input should be less than or equal to 2"),
        ({**GOOD, "top_p": 0}, r"top_p: Input should be greater than 0"),
        ({**GOOD, "concurrency": 0}, r"concurrency: Input should be greater than or equal to 1"),
        ({**GOOD, "base_url": "localhost:8000"}, r"base_url: Value error, must start with http:// or https://"),
        ({**GOOD, "max_tokns": 10}, r"max_tokns: Extra inputs are not permitted"),
        ({**GOOD, "requests_per_minute": -1}, r"requests_per_minute: Input should be greater than 0"),
        ({**GOOD, "backoff_base_s": 5, "backoff_max_s": 1}, r"\(spec\): Value error, backoff_max_s must be >= backoff_base_s"),
        ({"kind": "openai", "base_url": "http://x"}, r"model: Field required"),
        ({"kind": "telepathy"}, r"teacher 't': unknown kind 'telepathy' \(one of builtin, openai, replay\)"),
        ({"model": "m"}, r"teacher 't': missing 'kind'"),
        ({"kind": "replay"}, r"teacher 't' \(replay\): path: Field required"),
        ({"kind": "replay", "path": "nowhere.jsonl"}, r"path: Value error, no recording file at 'nowhere.jsonl'"),
    ],
)
def test_bad_specs_name_the_field(spec: dict, message: str) -> None:
    with pytest.raises(TeacherConfigError, match=message):
        build_teacher("t", spec)


def test_spec_must_be_a_mapping() -> None:
    with pytest.raises(TeacherConfigError, match="spec must be a mapping, got list"):
        build_teacher("t", ["openai"])  # type: ignore[arg-type]


def test_kind_defaults_to_the_name_when_the_name_is_a_kind(tmp_path: Path) -> None:
    recording = tmp_path / "empty.jsonl"
    recording.write_text("")
    teacher = build_teacher("replay", {"path": str(recording)})
    assert (type(teacher).__name__, teacher.name) == ("ReplayTeacher", "replay")


def test_every_kind_is_registered() -> None:
    assert sorted(TEACHER_KINDS) == ["builtin", "openai", "replay"]


def test_builtin_spec_is_derived_from_the_constructor() -> None:
    builtin = pytest.importorskip("workers.pipeline.teachers.builtin", reason="builtin teacher not landed yet")
    teacher = build_teacher("builtin", {})
    assert isinstance(teacher, builtin.BuiltinTeacher)
    assert isinstance(teacher, Teacher)
    with pytest.raises(TeacherConfigError, match=r"teacher 'builtin' \(builtin\): no_such_option: Extra inputs are not permitted"):
        build_teacher("builtin", {"no_such_option": 1})


def test_builtin_generator_processes_are_bounded() -> None:
    import pytest

    from workers.pipeline.teachers.registry import TeacherConfigError, build_teacher

    assert build_teacher("builtin", {"kind": "builtin", "processes": 3}).processes == 3
    assert build_teacher("builtin", {"kind": "builtin"}).processes is None
    with pytest.raises(TeacherConfigError, match="processes: Input should be greater than or equal to 0"):
        build_teacher("builtin", {"kind": "builtin", "processes": -1})
