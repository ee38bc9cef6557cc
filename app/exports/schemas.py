"""Export API models. The body of POST /v1/exports is an export spec (see
`training.export.spec`); this schema only shapes and bounds it, and `ExportSpec.from_dict`
has the last word. Benchmark files are server paths, so they are refused over the API."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

ExportKind = Literal["manual", "incremental", "full"]
ExportStatus = Literal["pending", "running", "done", "failed", "pruned"]
TaskType = Literal["io", "io_whitebox", "oi"]
Name = Field(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_]*$")


class TaskQuotaIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_type: TaskType
    count: int | None = Field(default=None, ge=0, le=10_000_000, description="null: every eligible sample left")


class SplitIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Name
    tasks: list[TaskQuotaIn] = Field(min_length=1, max_length=3)
    max_result_chars: int | None = Field(default=None, ge=1, le=1_000_000)


class ExportCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "format": "verl", "preset": "reference", "write": ["rl"], "sizes": {"rl.io_whitebox": 2000, "rl.oi": 500},
        "batch_ids": [3, 4], "levels": ["C3", "C4"], "seed": 7, "curriculum": True,
    }]})

    format: str = Field(min_length=1, max_length=24, examples=["verl"], description="verl | llamafactory | openai | trl | openrlhf")
    preset: str | None = Field(default=None, max_length=64, description="split sizes preset when `splits` is absent")
    splits: list[SplitIn] | None = Field(default=None, min_length=1, max_length=16)
    sizes: dict[str, int | None] = Field(default_factory=dict, max_length=48,
                                         description='"SPLIT.TASK": count overrides, e.g. {"rl.oi": 1000}; null: all')
    write: list[str] = Field(default_factory=list, max_length=16, description="splits to write; empty: all")
    batch_ids: list[Annotated[int, Field(ge=1, le=2**63 - 1)]] = Field(default_factory=list, max_length=10_000)
    levels: list[str] = Field(default_factory=list, max_length=64)
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    curriculum: bool = False
    style: Literal["tags", "json"] = "tags"
    system_prompt: str | None = Field(default=None, max_length=20_000)
    ngram_n: int = Field(default=16, ge=4, le=200)
    ngram_threshold: float = Field(default=0.5, gt=0, le=1)
    row_group_size: int = Field(default=8192, ge=64, le=1_000_000)
    created_after: AwareDatetime | None = Field(default=None, description="only samples created at or after this instant")
    created_before: AwareDatetime | None = Field(default=None, description="only samples created before this instant")

    @model_validator(mode="before")
    @classmethod
    def _no_server_paths(cls, data: Any) -> Any:
        if isinstance(data, dict) and "benchmarks" in data:
            raise ValueError("benchmarks are not accepted over the API (they are server paths); "
                             "run `execsynth export --benchmark FILE` on the server")
        return data

    @model_validator(mode="after")
    def _no_nul(self) -> "ExportCreate":
        texts = [self.format, self.preset or "", self.system_prompt or "", *self.write, *self.levels, *self.sizes]
        if any("\x00" in t for t in texts):
            raise ValueError("text fields must not contain NUL characters")
        return self

    def sizes_by_split(self) -> dict[tuple[str, str], int | None]:
        out = {}
        for key, count in self.sizes.items():
            split, dot, task = key.partition(".")
            if not dot or not split or not task:
                raise ValueError(f"size keys are SPLIT.TASK, got {key!r}")
            out[(split, task)] = count
        return out

    def spec_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"sizes"}, exclude_none=True)


class ExportFile(BaseModel):
    path: str = Field(examples=["rl.parquet"])
    split: str | None = None
    rows: int | None = None
    sha256: str
    bytes: int
    url: str = Field(examples=["/v1/exports/5/files/rl.parquet"], description="download address")


class ExportRead(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "id": 5, "kind": "incremental", "format": "verl", "status": "done", "window_start": "2026-12-01T02:00:00Z",
        "window_end": "2026-12-02T02:00:00Z", "sample_count": 1234, "attempts": 1, "error": None,
        "created_at": "2026-12-02T02:01:00Z", "finished_at": "2026-12-02T02:01:40Z", "files": [], "spec": {"format": "verl"},
    }]})

    id: int
    kind: ExportKind
    format: str
    status: ExportStatus
    spec: dict[str, Any]
    window_start: datetime | None = None
    window_end: datetime | None = None
    files: list[ExportFile]
    sample_count: int
    attempts: int
    error: str | None = Field(default=None, description="the last failure, kept after a successful retry")
    warnings: list[str] = Field(default_factory=list, description="what the run gave less of than asked, e.g. an empty split")
    created_at: datetime
    finished_at: datetime | None = None


class ExportDetail(ExportRead):
    manifest: dict[str, Any] | None = None


class ExportPage(BaseModel):
    items: list[ExportRead]
    total: int
    limit: int
    offset: int
