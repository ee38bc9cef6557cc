"""Exports: manual ones and the nightly schedule's runs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, id_column, utcnow


class Export(Base):
    __tablename__ = "exports"

    id: Mapped[int] = id_column()
    kind: Mapped[str] = mapped_column(String(24))  # manual | incremental | full
    format: Mapped[str] = mapped_column(String(24))
    spec: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending|running|done|failed
    # scheduled runs: "incremental:<window start iso>"; unique so two beats never export one window twice
    window_key: Mapped[str | None] = mapped_column(String(96), unique=True)
    window_start: Mapped[datetime | None]
    window_end: Mapped[datetime | None]
    out_dir: Mapped[str | None] = mapped_column(Text)
    files: Mapped[list[Any]] = mapped_column(default=list)
    manifest: Mapped[dict[str, Any] | None]
    sample_count: Mapped[int] = mapped_column(Integer, default=0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text)
    api_key_id: Mapped[int | None] = mapped_column(ForeignKey("api_keys.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
