"""What the stages need from the outside world, built once per process from settings."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from app.core.config import Settings
from sandbox import Limits, Sandbox
from workers.pipeline.constraints import Catalog, load_catalog
from workers.pipeline.teachers.base import Teacher
from workers.pipeline.teachers.registry import build_teacher


DEFAULT_CONCURRENCY = 16  # the OpenAI-compatible teacher's default


class UnknownTeacher(ValueError):
    pass


@dataclass
class StageDeps:
    settings: Settings
    catalog: Catalog
    sandbox: Sandbox

    def teacher(self, name: str) -> Teacher:
        return _teacher(self.settings.model_dump_json(), name)

    def teacher_concurrency(self, name: str) -> int:
        """Calls of teacher `name` this process keeps in flight at most."""
        return int((self.settings.teachers.get(name) or {}).get("concurrency", DEFAULT_CONCURRENCY))


@lru_cache(maxsize=32)
def _teacher(settings_json: str, name: str) -> Teacher:
    settings = Settings.model_validate_json(settings_json)
    spec = settings.teachers.get(name)
    if spec is None:
        if name != "builtin":
            raise UnknownTeacher(f"unknown teacher {name!r}; configured: builtin, {', '.join(sorted(settings.teachers)) or '(none)'}")
        spec = {"kind": "builtin"}
    if spec.get("kind", name) == "openai" and settings.broker_url.startswith(("redis://", "rediss://")):
        return _shared_openai_teacher(settings, name, spec)
    return build_teacher(name, spec)


def _shared_openai_teacher(settings: Settings, name: str, spec: dict) -> Teacher:
    """With Redis available, the teacher's RPM/TPM and concurrency hold across all workers."""
    from workers.pipeline.teachers.openai_compat import OpenAICompatibleTeacher
    from workers.pipeline.teachers.registry import validate_teacher_spec
    from workers.shared_limits import RedisRateLimiter, SharedConcurrencyTeacher

    validated = validate_teacher_spec(name, spec)
    limiter = RedisRateLimiter(settings.broker_url, name, validated.requests_per_minute, validated.tokens_per_minute)
    inner = OpenAICompatibleTeacher(validated, name=name, limiter=limiter)
    return SharedConcurrencyTeacher(inner, settings.broker_url, validated.concurrency)


_lock = threading.Lock()
_deps: dict[str, StageDeps] = {}


def stage_deps(settings: Settings) -> StageDeps:
    """One sandbox pool and one catalog per process (a worker reuses them for every task)."""
    key = settings.model_dump_json()
    with _lock:
        if key not in _deps:
            sb = settings.sandbox
            sandbox = Sandbox(
                isolation=sb.isolation,
                workers=sb.workers,
                limits=Limits(timeout_s=sb.timeout_s, memory_mb=sb.memory_mb, trace_steps=sb.trace_steps),
            )
            _deps[key] = StageDeps(settings=settings, catalog=load_catalog(), sandbox=sandbox)
        return _deps[key]


def close_all() -> None:
    with _lock:
        for deps in _deps.values():
            deps.sandbox.close()
        _deps.clear()
