"""Per-record views of a batch, in id order with an opaque cursor."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.core.money import Usd

CallStatus = Literal["ok", "error"]
CallPurpose = Literal["generate", "mutate_inputs", "solve"]


class TeacherCallRead(BaseModel):
    id: int
    batch_id: int
    request_key: str = Field(examples=["slot:3/generate"])
    purpose: str = Field(examples=["generate"])
    teacher: str
    model: str
    status: str = Field(description="ok | error")
    error: str | None = Field(default=None, description="why the call failed, after its retries")
    prompt: list[Any] | None = Field(default=None, description="chat messages as sent; null when include_text=false")
    raw_completion: list[Any] | None = Field(default=None, description="one text per choice, kept when parsing failed")
    prompt_template: str | None = None
    params: dict[str, Any] = Field(default_factory=dict, description="sampling parameters")
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    cost_usd: Usd
    attempts: int
    created_at: datetime


class TeacherCallPage(BaseModel):
    items: list[TeacherCallRead]
    next_cursor: str | None = Field(description="pass back as `cursor` for the next page; null on the last")


class ProgramRead(BaseModel):
    id: int
    batch_id: int
    slot: int
    variant: int = Field(description="0: the teacher's program; >0: an AST mutant")
    origin: str
    teacher_call_id: int | None = None
    constraint_type: str
    constraint_method: str
    level: str
    status: str
    reject_reason: str | None = Field(default=None, examples=["constraint_mismatch"])
    reject_detail: str | None = Field(default=None, description="what did not match, or the parser's complaint")
    requested: dict[str, Any] = Field(description="the structure asked for")
    measured: dict[str, Any] | None = Field(default=None, description="the structure measured from the AST")
    source: str | None = None
    entry_point: str | None = None
    call_args: str | None = None
    created_at: datetime


class ProgramPage(BaseModel):
    items: list[ProgramRead]
    next_cursor: str | None

