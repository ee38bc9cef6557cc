"""API key views. The plaintext key appears only in ApiKeyCreated, once."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class ApiKeyCreate(BaseModel):
    name: str = Field(min_length=1, max_length=128)
    rate_limit_per_minute: int | None = Field(default=None, ge=1, le=1_000_000)
    note: str | None = Field(default=None, max_length=1000)


class ApiKeyRead(BaseModel):
    id: int
    name: str
    prefix: str
    rate_limit_per_minute: int | None
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class ApiKeyCreated(ApiKeyRead):
    key: str = Field(description="the secret; not stored, cannot be shown again")
