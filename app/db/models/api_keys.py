"""API keys; only a sha256 of the key is stored."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, id_column, utcnow


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[int] = id_column()
    name: Mapped[str] = mapped_column(String(128))
    prefix: Mapped[str] = mapped_column(String(16))  # shown in listings; the key itself is never stored
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex
    rate_limit_per_minute: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]
    note: Mapped[str | None] = mapped_column(Text)
