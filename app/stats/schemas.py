"""Stats API models: difficulty distributions and the generation funnel."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from app.batches.schemas import FunnelStage


ACCEPTANCE = "accepted / (accepted + rejected): samples still in flight are not counted; null while none finished"


class Bucket(BaseModel):
    key: str = Field(examples=["str"])
    total: int
    accepted: int
    rejected: int = Field(description="finished without being accepted")
    acceptance_rate: float | None = Field(description=ACCEPTANCE)
    solved_samples: int = Field(description="samples with a solver pass count")
    mean_pass_rate: float | None = Field(description="mean of solver_passes / solver_k")


class MethodBucket(Bucket):
    type: str
    method: str


class PassRateBucket(BaseModel):
    pass_rate: float = Field(description="solver_passes / solver_k, rounded to 0.1", examples=[0.3])
    total: int
    accepted: int


class DifficultyStats(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "total": 10, "accepted": 6, "rejected": 2, "acceptance_rate": 0.75, "by_type": [], "by_method": [], "by_level": [],
        "pass_rate": [{"pass_rate": 0.3, "total": 10, "accepted": 6}],
        "level_pass_rate": {"C1": {"0.3": 10}},
        "computed_at": "2026-12-01T10:00:00Z", "max_age_s": 10.0,
    }]})

    total: int = Field(description="every sample, in flight (pending, executed) or finished")
    accepted: int
    rejected: int
    acceptance_rate: float | None = Field(description=ACCEPTANCE)
    by_type: list[Bucket]
    by_method: list[MethodBucket]
    by_level: list[Bucket]
    pass_rate: list[PassRateBucket] = Field(description="histogram of the solver pass rate")
    level_pass_rate: dict[str, dict[str, int]] = Field(
        description="level -> pass rate (\"0.0\"..\"1.0\") -> samples; the level x pass-rate table")
    computed_at: datetime = Field(description="when the aggregate was computed (it is cached briefly)")
    max_age_s: float


class LevelFeatures(BaseModel):
    level: str = Field(examples=["C3"])
    samples: int
    with_features: int = Field(description="samples whose features were computed (executed ones)")
    means: dict[str, float | None] = Field(
        description="feature -> mean over the level's samples that have it; difficulty_score included")


class FeatureStats(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "features": ["difficulty_score", "trace_steps"],
        "levels": [{"level": "C1", "samples": 40, "with_features": 38,
                    "means": {"difficulty_score": 2.1, "trace_steps": 7.5}}],
        "computed_at": "2026-12-01T10:00:00Z", "max_age_s": 10.0,
    }]})

    features: list[str] = Field(description="the features averaged, in display order")
    levels: list[LevelFeatures]
    computed_at: datetime
    max_age_s: float


class BatchFunnel(BaseModel):
    batch_id: int
    status: str
    funnel: list[FunnelStage]


class FunnelStats(BaseModel):
    overall: list[FunnelStage]
    batches: list[BatchFunnel] = Field(description="the most recent batches, newest first")
    computed_at: datetime
    max_age_s: float
