"""Teacher kinds by name: adding a kind is one module plus one line in TEACHER_KINDS.

A teacher is described by plain data (from a config file, the API or the CLI), e.g.
`{"kind": "openai", "base_url": ..., "model": ...}`. Each kind validates its spec with a
pydantic model before anything is built, so a bad config fails at startup with the field named,
not at the first call in the middle of a batch.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from workers.pipeline.teachers.base import Teacher
from workers.pipeline.teachers.openai_compat import OpenAICompatibleTeacher
from workers.pipeline.teachers.openai_config import OpenAITeacherSpec
from workers.pipeline.teachers.recording import RecordingError
from workers.pipeline.teachers.replay import ReplayTeacher


class TeacherConfigError(ValueError):
    """A teacher spec that cannot be built; the message names the teacher and the bad field."""


class ReplayTeacherSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["replay"] = "replay"
    path: str = Field(min_length=1, description="a JSONL recording written by a teacher's record_path")
    model: str | None = None

    @field_validator("path")
    @classmethod
    def _exists(cls, value: str) -> str:
        if not Path(value).is_file():
            raise ValueError(f"no recording file at {value!r}")
        return value


def _builtin_class() -> type:
    from workers.pipeline.teachers.builtin import BuiltinTeacher

    return BuiltinTeacher


def _builtin_spec_model() -> type[BaseModel]:
    """The builtin teacher's options are its keyword-only constructor parameters; the spec
    model is derived from them so the two cannot drift apart."""
    cls = _builtin_class()
    try:
        hints = typing.get_type_hints(cls.__init__, include_extras=True)  # keeps Field bounds
    except (NameError, TypeError):
        hints = {}
    fields: dict[str, Any] = {"kind": (Literal["builtin"], "builtin")}
    for param in inspect.signature(cls.__init__).parameters.values():
        if param.name in ("self", "name") or param.kind not in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD):
            continue
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (hints.get(param.name, Any), default)
    return create_model(
        "BuiltinTeacherSpec", __config__=ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True), **fields
    )


def _build_builtin(name: str, spec: BaseModel) -> Teacher:
    cls = _builtin_class()
    kwargs = {k: v for k, v in spec.model_dump().items() if k != "kind"}
    if "name" in inspect.signature(cls.__init__).parameters:
        kwargs["name"] = name
    return cls(**kwargs)


def _build_openai(name: str, spec: BaseModel) -> Teacher:
    assert isinstance(spec, OpenAITeacherSpec)
    return OpenAICompatibleTeacher(spec, name=name)


def _build_replay(name: str, spec: BaseModel) -> Teacher:
    assert isinstance(spec, ReplayTeacherSpec)
    try:
        return ReplayTeacher(spec.path, name=name, model=spec.model)
    except RecordingError as exc:
        raise TeacherConfigError(f"teacher {name!r} (replay): path: {exc}") from None


@dataclass(frozen=True)
class TeacherKind:
    spec_model: Callable[[], type[BaseModel]]  # a callable, so optional kinds import lazily
    build: Callable[[str, BaseModel], Teacher]


TEACHER_KINDS: dict[str, TeacherKind] = {
    "builtin": TeacherKind(_builtin_spec_model, _build_builtin),
    "openai": TeacherKind(lambda: OpenAITeacherSpec, _build_openai),
    "replay": TeacherKind(lambda: ReplayTeacherSpec, _build_replay),
}


def validate_teacher_spec(name: str, spec: Mapping[str, Any]) -> BaseModel:
    """The validated spec model of a teacher; raises TeacherConfigError naming the bad field."""
    if not isinstance(spec, Mapping):
        raise TeacherConfigError(f"teacher {name!r}: spec must be a mapping, got {type(spec).__name__}")
    kind_name = spec.get("kind", name if name in TEACHER_KINDS else None)
    if kind_name is None:
        raise TeacherConfigError(f"teacher {name!r}: missing 'kind' (one of {', '.join(sorted(TEACHER_KINDS))})")
    kind = TEACHER_KINDS.get(str(kind_name))
    if kind is None:
        raise TeacherConfigError(
            f"teacher {name!r}: unknown kind {kind_name!r} (one of {', '.join(sorted(TEACHER_KINDS))})"
        )
    try:
        return kind.spec_model().model_validate({**spec, "kind": kind_name})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or '(spec)'}: {error['msg']}" for error in exc.errors()
        )
        raise TeacherConfigError(f"teacher {name!r} ({kind_name}): {problems}") from None


def build_teacher(name: str, spec: Mapping[str, Any]) -> Teacher:
    """Validate `spec` and build the teacher. `kind` may be omitted when `name` is a kind."""
    validated = validate_teacher_spec(name, spec)
    return TEACHER_KINDS[str(getattr(validated, "kind"))].build(name, validated)
