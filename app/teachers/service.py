"""Lists the configured teachers. Each spec is validated by the pipeline's teacher registry,
so the list shows the same verdict a batch would meet; only name, kind and model leave."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.teachers.schemas import TeacherList, TeacherRead
from workers.pipeline.teachers.registry import TeacherConfigError, validate_teacher_spec

BUILTIN = "builtin"


def _read(name: str, spec: Mapping[str, Any], default: str) -> TeacherRead:
    raw_kind = spec.get("kind", name) if isinstance(spec, Mapping) else None
    try:
        validated = validate_teacher_spec(name, spec)
    except TeacherConfigError as exc:
        return TeacherRead(name=name, kind=str(raw_kind or "?")[:64], default=name == default, error=str(exc)[:500])
    model = getattr(validated, "model", None)
    return TeacherRead(name=name, kind=str(getattr(validated, "kind")), model=model if isinstance(model, str) else None,
                       default=name == default)


def list_teachers(teachers: Mapping[str, Mapping[str, Any]], default: str) -> TeacherList:
    specs = {BUILTIN: {"kind": BUILTIN}, **teachers}
    return TeacherList(default=default, items=[_read(name, spec, default) for name, spec in sorted(specs.items())])
