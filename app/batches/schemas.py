"""Batch API models: the spec a researcher posts (BatchCreate) and what they read back.

Limits are generous but finite: a typo such as `programs: 10000000000` is rejected with a
422 rather than queued as a batch that would run for years.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

LevelName = Literal["C1", "C2", "C3", "C4", "C5", "C6"]
ControlKind = Literal["if", "for", "while", "if-elif"]
MAX_PROGRAMS = 1_000_000
MAX_INPUTS = 64
FINISHED = ("completed", "cancelled", "failed", "budget_exhausted")
BatchStatus = Literal["pending", "running", "completed", "cancelled", "failed", "budget_exhausted"]


class KnobsSpec(BaseModel):
    """A custom structure level (METHOD.md section 1); the blueprint is drawn when empty."""

    model_config = ConfigDict(extra="forbid")

    nested_calls: bool = True
    other_methods: bool = False
    call_chain: bool = False
    control_flow_depth: int = Field(default=0, ge=0, le=3)
    blueprint: list[ControlKind] = Field(default_factory=list, max_length=3,
                                         description="control-flow kinds, outermost first")

    @model_validator(mode="after")
    def _blueprint_matches_depth(self) -> "KnobsSpec":
        if self.blueprint and len(self.blueprint) != self.control_flow_depth:
            raise ValueError("blueprint length must equal control_flow_depth")
        return self


class DifficultyPolicy(BaseModel):
    """How samples are judged hard enough. Both modes give each sample a solve rate in [0, 1]:
    the solver's passes / k (mode "solver"), or the feature estimator's estimated rate (mode
    "features"). `keep_band` keeps samples whose rate lies in [lo, hi]; it defaults to the
    reference's [0, 0.3] with a solver and to no filter (labels only) without one."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["features", "solver"] = "features"
    solver: str | None = Field(default=None, max_length=64,
                               description='teacher name that plays the student; required for mode "solver"')
    keep_band: tuple[float, float] | None = Field(default=None, description="[lo, hi] solve rate, 0 <= lo <= hi <= 1")
    k: int = Field(default=10, ge=1, le=64, description="solver attempts per sample")

    @model_validator(mode="after")
    def _check(self) -> "DifficultyPolicy":
        if self.keep_band is not None:
            lo, hi = self.keep_band
            if not (0.0 <= lo <= hi <= 1.0):
                raise ValueError(f"keep_band must satisfy 0 <= lo <= hi <= 1, got [{lo}, {hi}]")
        if self.mode == "solver" and not self.solver:
            raise ValueError('mode "solver" needs a solver name')
        return self


class Budget(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_tokens: int | None = Field(default=None, ge=1, le=10**12)
    max_cost_usd: float | None = Field(default=None, gt=0, le=10**7)


class NaturalnessSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    skip: list[str] = Field(default_factory=list, max_length=16, description="gate checks to skip")

    @model_validator(mode="after")
    def _known(self) -> "NaturalnessSpec":
        from workers.pipeline.naturalness.gate import UnknownCheck, checked
        try:
            checked(self.skip)
        except UnknownCheck as exc:
            raise ValueError(str(exc)) from None
        return self


class BatchCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "types": ["str", "list"], "methods": ["split", "append"], "levels": ["C1", "C3"],
        "programs": 200, "inputs_per_program": 2, "mutation": True, "teacher": "builtin",
        "difficulty": {"mode": "features", "k": 10},
        "seed": 7, "priority": 5, "budget": {"max_tokens": 2000000},
    }]})

    types: list[str] = Field(default_factory=list, max_length=64, description="empty: every type")
    methods: list[str] = Field(default_factory=list, max_length=512, description="empty: every method of the types")
    levels: list[LevelName] = Field(default_factory=list, max_length=6)
    knobs: list[KnobsSpec] = Field(default_factory=list, max_length=16, description="custom levels")
    programs: int = Field(ge=1, le=MAX_PROGRAMS, description="programs to generate, spread over the levels")
    inputs_per_program: int = Field(default=2, ge=1, le=MAX_INPUTS)
    mutation: bool = True
    teacher: str = Field(default="builtin", min_length=1, max_length=64)
    difficulty: DifficultyPolicy = Field(default_factory=DifficultyPolicy)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1, description="omitted: drawn at random and recorded")
    priority: int = Field(default=5, ge=0, le=9, description="0 lowest, 9 highest")
    budget: Budget = Field(default_factory=Budget)
    naturalness: NaturalnessSpec = Field(default_factory=NaturalnessSpec,
                                         description="the naturalness gate; on by default")

    @model_validator(mode="after")
    def _some_level(self) -> "BatchCreate":
        if not self.levels and not self.knobs:
            raise ValueError("give at least one of levels (C1..C6) or knobs (custom levels)")
        for field in ("types", "methods"):
            if any(not v.strip() or len(v) > 64 for v in getattr(self, field)):
                raise ValueError(f"{field} entries must be 1..64 characters")
        return self


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
    status: str
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
    cost_usd: float
    cost_per_accepted_usd: float | None = None
    accepted_per_minute: float | None = Field(default=None, description="since started_at")
    eta_seconds: float | None = Field(default=None, description="from the program rate; null when unknown or finished")


class BatchPage(BaseModel):
    items: list[BatchRead]
    total: int
    limit: int
    offset: int
