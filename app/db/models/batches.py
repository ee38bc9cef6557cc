"""A batch is one researcher request; teacher calls are every LLM (or builtin) call it made."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, BigId, id_column, utcnow


class Batch(Base):
    __tablename__ = "batches"

    id: Mapped[int] = id_column()
    spec: Mapped[dict[str, Any]]
    seed: Mapped[int] = mapped_column(BigId)
    # workers.pipeline.lifecycle.BatchStatus (rows are always written with an explicit status)
    status: Mapped[str] = mapped_column(String(24), default="pending")
    priority: Mapped[int] = mapped_column(Integer, default=5)
    teacher: Mapped[str] = mapped_column(String(64), default="builtin")
    idempotency_key: Mapped[str | None] = mapped_column(String(128), unique=True)
    api_key_id: Mapped[int | None] = mapped_column(ForeignKey("api_keys.id", ondelete="SET NULL"))
    programs_requested: Mapped[int] = mapped_column(Integer, default=0)
    prompt_tokens: Mapped[int] = mapped_column(BigId, default=0)
    completion_tokens: Mapped[int] = mapped_column(BigId, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # last time a stage wrote for this batch; the resume task re-dispatches stalled batches
    heartbeat_at: Mapped[datetime | None]

    __table_args__ = (Index(None, "status", "created_at"),)


class TeacherCall(Base):
    __tablename__ = "teacher_calls"

    id: Mapped[int] = id_column()
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"), index=True)
    # natural key of the request, e.g. "slot:17/generate"; unique per batch
    request_key: Mapped[str] = mapped_column(String(200))
    purpose: Mapped[str] = mapped_column(String(24))  # generate | mutate_inputs | solve
    teacher: Mapped[str] = mapped_column(String(64))
    model: Mapped[str] = mapped_column(String(128))
    prompt: Mapped[list[Any]]  # chat messages as sent
    prompt_template: Mapped[str | None] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    raw_completion: Mapped[list[Any] | None]  # one text per choice; kept when parsing fails
    status: Mapped[str] = mapped_column(String(24))  # ok | error
    error: Mapped[str | None] = mapped_column(Text)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("batch_id", "request_key"),)
