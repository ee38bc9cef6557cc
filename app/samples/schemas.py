"""Sample API models: list filters, list items, the full sample with its provenance."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

NO_NUL = r"^[^\x00]*$"  # Postgres text cannot hold NUL: refuse it as bad input, not a 500


class SampleFilter(BaseModel):
    """GET /v1/samples query; a difficulty band is a solver_passes or difficulty_score range."""

    model_config = ConfigDict(extra="forbid")

    batch_id: int | None = Field(default=None, ge=1, le=2**63 - 1)
    type: str | None = Field(default=None, max_length=32, pattern=NO_NUL)
    method: str | None = Field(default=None, max_length=64, pattern=NO_NUL)
    level: str | None = Field(default=None, max_length=16, pattern=NO_NUL)
    status: Literal["pending", "executed", "accepted", "rejected"] | None = None
    reject_reason: str | None = Field(default=None, max_length=64, pattern=NO_NUL)
    solver_passes_min: int | None = Field(default=None, ge=0, le=1000)
    solver_passes_max: int | None = Field(default=None, ge=0, le=1000)
    difficulty_min: float | None = Field(default=None, ge=-1e9, le=1e9)
    difficulty_max: float | None = Field(default=None, ge=-1e9, le=1e9)

    @model_validator(mode="after")
    def _ranges(self) -> "SampleFilter":
        for lo, hi in (("solver_passes_min", "solver_passes_max"), ("difficulty_min", "difficulty_max")):
            a, b = getattr(self, lo), getattr(self, hi)
            if a is not None and b is not None and a > b:
                raise ValueError(f"{lo} ({a}) is greater than {hi} ({b})")
        return self


class SampleQuery(SampleFilter):
    cursor: str | None = Field(default=None, max_length=64, pattern=NO_NUL, description="next_cursor of the previous page")
    limit: int = Field(default=50, ge=1, le=500)


class SampleRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, json_schema_extra={"examples": [{
        "id": 101, "batch_id": 3, "program_id": 55, "status": "accepted", "reject_reason": None,
        "constraint_type": "str", "constraint_method": "split", "level": "C3",
        "difficulty_level": "C3", "difficulty_score": 0.41, "solver_passes": 2, "solver_k": 10,
        "input_index": 0, "input_origin": "teacher", "created_at": "2026-12-01T10:00:00Z",
    }]})

    id: int
    batch_id: int
    program_id: int
    status: str
    reject_reason: str | None
    constraint_type: str
    constraint_method: str
    level: str
    difficulty_level: str | None
    difficulty_score: float | None
    solver_passes: int | None
    solver_k: int | None
    input_index: int
    input_origin: str
    created_at: datetime


class SamplePage(BaseModel):
    items: list[SampleRead]
    next_cursor: str | None = Field(description="pass as `cursor` for the next page; null on the last page")
    limit: int


class ProgramView(BaseModel):
    id: int
    source: str | None
    entry_point: str | None
    call_args: str | None = Field(description="the teacher's own call arguments")
    origin: str
    variant: int
    parent_id: int | None
    requested: dict[str, Any]
    measured: dict[str, Any] | None


class ExecutionView(BaseModel):
    id: int
    args_source: str = Field(description="the input: text between the parentheses of the entry call")
    input_origin: str
    status: str
    result: dict[str, Any] | None
    exception: dict[str, Any] | None
    stdout: str | None
    trace: dict[str, Any] | None
    duration_ms: float
    hash_seed: int
    python_version: str


class QuestionView(BaseModel):
    position: int
    kind: str
    line: int | None
    visit: int | None
    variable: str | None
    prompt: str
    gold_answer: str
    payload: dict[str, Any]


class SampleDetail(SampleRead):
    args_source: str = Field(description="the input: exact text between the parentheses of the entry call")
    reject_detail: str | None
    features: dict[str, Any]
    teacher_solved: bool | None
    result_chars: int | None
    trace_steps: int | None
    program: ProgramView
    execution: ExecutionView | None
    questions: list[QuestionView]
    provenance: dict[str, Any] = Field(description="program provenance plus execution environment")
