"""The one settings object, read from the environment (prefix EXECSYNTH_) and `.env`.

Defaults are the embedded mode: a SQLite file and a filesystem broker under the data folder,
the builtin teacher. Production is the same object with other values
(`postgresql+psycopg://...`, `redis://...`). Nested sections use `__` in variable names,
e.g. `EXECSYNTH_SANDBOX__ISOLATION=rlimits`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ENV_PREFIX = "EXECSYNTH_"


class SandboxSettings(BaseModel):
    backend: Literal["local", "docker"] = "local"
    isolation: Literal["namespaces", "rlimits"] = "namespaces"
    workers: int | None = Field(default=None, ge=1, le=256, description="None: all cores")
    timeout_s: float = Field(default=5.0, gt=0, le=600)
    memory_mb: int = Field(default=512, ge=32, le=65536)
    trace_steps: int = Field(default=5000, ge=10, le=10_000_000)


class WorkerSettings(BaseModel):
    chunk_size: int = Field(default=32, ge=1, le=10_000, description="slots per chain of stage tasks")
    # Redis redelivers a task whose worker died after this long; tasks are idempotent, so a
    # shorter value only costs duplicate (no-op) work
    visibility_timeout_s: int = Field(default=3600, ge=5)
    stall_after_s: float = Field(default=300.0, gt=0, description="a running batch with no write for this long is re-dispatched")
    resume_every_s: float = Field(default=60.0, gt=0, description="beat period of the stalled-batch check")


class ApiSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    require_api_key: bool = True
    rate_limit_per_minute: int = Field(default=600, ge=1)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        env_file=".env",
        extra="ignore",
    )

    data_dir: Path = Field(default=Path("execsynth-data"), description="embedded-mode files and exports")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty: SQLite file in data_dir")
    broker_url: str = Field(default="", description="Celery broker URL; empty: filesystem broker in data_dir")
    # Named teachers; "builtin" is always available. Values are teacher specs validated by the
    # pipeline's teacher registry, e.g. {"gpt": {"kind": "openai", "base_url": ..., "model": ...}}.
    teachers: dict[str, dict[str, Any]] = Field(default_factory=dict)
    default_teacher: str = "builtin"
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)
    worker: WorkerSettings = Field(default_factory=WorkerSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str) -> str:
        if value and not value.startswith(("sqlite", "postgresql")):
            raise ValueError("must be a sqlite:// or postgresql+psycopg:// URL")
        return value

    @field_validator("broker_url")
    @classmethod
    def _check_broker_url(cls, value: str) -> str:
        if value and not value.startswith(("redis://", "rediss://", "filesystem://", "amqp://", "sqla+")):
            raise ValueError("must be a redis://, amqp://, sqla+... or filesystem:// URL")
        return value

    @model_validator(mode="after")
    def _fill_embedded_defaults(self) -> "Settings":
        self.data_dir = self.data_dir.expanduser().resolve()
        if not self.database_url:
            self.database_url = f"sqlite:///{(self.data_dir / 'execsynth.sqlite3').as_posix()}"
        if not self.broker_url:
            self.broker_url = "filesystem://"
        return self

    @property
    def embedded(self) -> bool:
        """True when no external service is configured (SQLite + filesystem broker)."""
        return self.database_url.startswith("sqlite") and self.broker_url.startswith("filesystem")

    @property
    def broker_folder(self) -> Path:
        return self.data_dir / "broker"

    @property
    def exports_dir(self) -> Path:
        return self.data_dir / "exports"


class SettingsError(ValueError):
    """Invalid configuration; the message names the environment variable."""


def _variable_name(loc: tuple[Any, ...]) -> str:
    return ENV_PREFIX + "__".join(str(part).upper() for part in loc)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Validated once per process; tests call `get_settings.cache_clear()` after changing env."""
    import re

    from pydantic import ValidationError
    from pydantic_settings import SettingsError as SourceError

    try:
        return Settings()
    except SourceError as exc:  # a value that is not even parseable (e.g. bad JSON)
        field = re.search(r'field "([^"]+)"', str(exc))
        name = _variable_name((field.group(1),)) if field else ENV_PREFIX + "*"
        raise SettingsError(f"invalid configuration: {name}: cannot parse the value ({exc.__cause__})") from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{_variable_name(err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise SettingsError(f"invalid configuration: {problems}") from None
