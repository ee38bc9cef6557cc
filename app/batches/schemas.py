"""Batch API models: the spec a researcher posts (`BatchCreate`, the pipeline's `BatchSpec`)
and what they read back."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from app.core.money import Usd
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.lifecycle import BatchStatus

# the API takes the pipeline's own spec model: one set of fields and defaults for REST and CLI
BatchCreate = BatchSpec


class FunnelStage(BaseModel):
    stage: str = Field(examples=["programs"])
    total: int
    passed: int = Field(description="kept / accepted / ok")
    rejected: int
    in_progress: int = Field(default=0, description="neither passed nor rejected yet (e.g. samples pending execution)")
    reasons: dict[str, int] = Field(default_factory=dict, description="rejections by reason")


class BatchRead(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "id": 12, "status": "pending", "teacher": "builtin", "priority": 5, "seed": 7,
        "programs_requested": 200, "created_at": "2026-12-01T10:00:00Z", "started_at": None,
        "finished_at": None, "error": None, "spec": {"levels": ["C1"], "programs": 200},
    }]})

    id: int
    status: BatchStatus
    teacher: str
    priority: int
    seed: int
    programs_requested: int
    spec: dict
    error: str | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None


class BatchDetail(BatchRead):
    funnel: list[FunnelStage]
    programs_done: int = Field(description="slots with a generated program (variant 0)")
    samples_accepted: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: Usd
    cost_per_accepted_usd: Usd | None = None
    accepted_per_minute: float | None = Field(default=None, description="since started_at")
    eta_seconds: float | None = Field(default=None, description="from the program rate; null when unknown or finished")


class BatchPage(BaseModel):
    items: list[BatchRead]
    total: int
    limit: int
    offset: int
