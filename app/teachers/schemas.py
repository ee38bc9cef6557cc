"""What a client may know about a configured teacher: never its api key or full spec."""

from __future__ import annotations

from pydantic import BaseModel, Field


class TeacherRead(BaseModel):
    name: str = Field(examples=["gpt"])
    kind: str = Field(examples=["openai"], description="builtin | openai | replay")
    model: str | None = Field(default=None, examples=["gpt-4o-mini"])
    default: bool = Field(description="used by batches that name no teacher")
    error: str | None = Field(default=None, description="why the configured spec is invalid; null when it is valid")


class TeacherList(BaseModel):
    default: str
    items: list[TeacherRead]
