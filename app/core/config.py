"""The one settings object, read from the environment (prefix EXECSYNTH_) and `.env`.

Defaults are the embedded mode: a SQLite file and a filesystem broker under the data folder,
the builtin teacher. Production is the same object with other values
(`postgresql+psycopg://...`, `redis://...`). Nested sections use `__` in variable names,
e.g. `EXECSYNTH_SANDBOX__ISOLATION=rlimits`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
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
    max_body_bytes: int = Field(default=1 << 20, ge=1024, le=1 << 30, description="larger request bodies get 413 unread")
    stats_ttl_s: float = Field(default=10.0, ge=0, le=3_600,
                               description="longest a cached /v1/stats aggregate is served; 0: computed per request")


class S3StoreSettings(BaseModel):
    """Where export files go when `exports.store` is "s3": any S3-compatible server (AWS, MinIO).
    Credentials left empty come from boto3's usual chain (AWS_ACCESS_KEY_ID /
    AWS_SECRET_ACCESS_KEY, a profile, an instance role)."""

    model_config = ConfigDict(frozen=True)  # hashable: one S3 client per distinct setting

    bucket: str = Field(default="", max_length=63, description="an existing bucket; required with store=s3")
    prefix: str = Field(default="exports", max_length=512, description="key prefix; objects are <prefix>/<kind>/<id>-<format>/<file>")
    endpoint_url: str | None = Field(default=None, description="e.g. http://minio:9000; None: AWS")
    region: str | None = Field(default=None, description="None: boto3's default (AWS_DEFAULT_REGION)")
    access_key_id: str | None = None
    secret_access_key: SecretStr | None = None
    multipart_threshold_mb: int = Field(default=64, ge=5, le=5_000, description="files at least this large are sent in parts")
    part_size_mb: int = Field(default=16, ge=5, le=5_000)
    connect_timeout_s: float = Field(default=5.0, gt=0, le=300)
    read_timeout_s: float = Field(default=60.0, gt=0, le=3_600)

    @field_validator("prefix")
    @classmethod
    def _strip_slashes(cls, value: str) -> str:
        return value.strip("/")

    @field_validator("endpoint_url")
    @classmethod
    def _check_endpoint(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL, e.g. http://minio:9000")
        return value


class ExportSettings(BaseModel):
    """Scheduled (Celery beat) exports: an incremental export of the samples created since the
    last successful run of each format, a periodic full snapshot, and the last N of each kept."""

    enabled: bool = True
    schedule: str = Field(default="0 2 * * *", description='crontab "m h dom mon dow" (UTC), or an interval in seconds such as "30"')
    formats: list[Annotated[str, Field(min_length=1, max_length=24)]] = Field(
        default_factory=lambda: ["verl", "llamafactory"], min_length=1, max_length=8)
    spec: dict[str, Any] = Field(default_factory=lambda: {"preset": "reference"},
                                 description="base export spec of scheduled runs (format and window are set per run)")
    full_every: int = Field(default=7, ge=0, le=10_000, description="a full snapshot after this many incremental runs; 0: never by count")
    full_weekday: int | None = Field(default=None, ge=0, le=6, description="also a full snapshot on this UTC weekday (0 = Monday)")
    keep_last: int = Field(default=14, ge=1, le=10_000, description="finished runs kept per kind and format; older folders are deleted")
    settle_s: float = Field(default=60.0, ge=0, le=86_400, description="a window ends at least this long before now (uncommitted rows)")
    hold_limit_s: float = Field(default=21_600.0, gt=0, description="an unfinished sample holds the window end back at most this long")
    stale_after_s: float = Field(default=3_600.0, gt=0, description="a pending/running export older than this is recorded as lost")
    max_retries: int = Field(default=5, ge=0, le=50)
    retry_backoff_s: float = Field(default=30.0, ge=0, le=3_600, description="first retry delay; doubles per attempt")
    store: Literal["local", "s3"] = Field(default="local", description="where workers put export files: the data folder, or an S3 bucket the API streams from")
    s3: S3StoreSettings = Field(default_factory=S3StoreSettings)

    @model_validator(mode="after")
    def _s3_needs_a_bucket(self) -> "ExportSettings":
        if self.store == "s3" and not self.s3.bucket:
            raise ValueError("store is s3 but EXECSYNTH_EXPORTS__S3__BUCKET is empty")
        return self

    @field_validator("schedule")
    @classmethod
    def _check_schedule(cls, value: str) -> str:
        value = value.strip()
        try:
            seconds: float | None = float(value)
        except ValueError:
            seconds = None
        if seconds is not None:
            if not 0 < seconds < 10**7:
                raise ValueError("an interval must be a positive number of seconds")
            return value
        if len(value.split()) != 5:
            raise ValueError('expected a crontab of 5 fields ("0 2 * * *") or an interval in seconds')
        return value

    @property
    def interval_s(self) -> float | None:
        """The schedule as seconds, or None when it is a crontab."""
        try:
            return float(self.schedule)
        except ValueError:
            return None


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        env_file=".env",
        env_ignore_empty=True,  # VAR= (e.g. an unset variable passed through by docker compose) is the default
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
    exports: ExportSettings = Field(default_factory=ExportSettings)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str) -> str:
        if value and not value.startswith(("sqlite", "postgresql")):
            raise ValueError("must be a sqlite:// or postgresql+psycopg:// URL")
        return value

    @field_validator("teachers")
    @classmethod
    def _check_teachers(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Every teacher spec is built-able, so a typo stops `serve`, `worker` and `synth` at
        start with the field named, not the first call of a batch."""
        if value:
            from workers.pipeline.teachers.registry import TeacherConfigError, validate_teacher_spec

            for name, spec in value.items():
                try:
                    validate_teacher_spec(name, spec)
                except TeacherConfigError as exc:
                    raise ValueError(str(exc)) from None
        return value

    @field_validator("broker_url")
    @classmethod
    def _check_broker_url(cls, value: str) -> str:
        if value and not value.startswith(("redis://", "rediss://", "filesystem://", "amqp://", "sqla+")):
            raise ValueError("must be a redis://, amqp://, sqla+... or filesystem:// URL")
        return value

    @model_validator(mode="after")
    def _fill_embedded_defaults(self) -> "Settings":
        if self.default_teacher != "builtin" and self.default_teacher not in self.teachers:
            raise ValueError(f"EXECSYNTH_DEFAULT_TEACHER: no teacher named {self.default_teacher!r} in "
                             f"EXECSYNTH_TEACHERS (configured: builtin{''.join(', ' + t for t in sorted(self.teachers))})")
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
            (f"{_variable_name(err['loc'])}: " if err["loc"] else "") + err["msg"].removeprefix("Value error, ")
            for err in exc.errors()
        )
        raise SettingsError(f"invalid configuration: {problems}") from None
