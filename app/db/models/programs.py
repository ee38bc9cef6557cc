"""Programs (every generated candidate, kept or rejected) and their sandbox executions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, id_column, utcnow


class Program(Base):
    __tablename__ = "programs"

    id: Mapped[int] = id_column()
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"))
    # natural key: (batch, slot, variant); variant 0 is the teacher's program, >0 AST mutants
    slot: Mapped[int] = mapped_column(Integer)
    variant: Mapped[int] = mapped_column(Integer, default=0)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("programs.id", ondelete="CASCADE"), index=True)
    origin: Mapped[str] = mapped_column(String(24))  # builtin | teacher | replay | mutation
    teacher_call_id: Mapped[int | None] = mapped_column(ForeignKey("teacher_calls.id", ondelete="SET NULL"))
    constraint_type: Mapped[str] = mapped_column(String(32))
    constraint_method: Mapped[str] = mapped_column(String(64))
    level: Mapped[str] = mapped_column(String(16))  # C1..C6 | custom
    requested: Mapped[dict[str, Any]]  # requested knobs
    measured: Mapped[dict[str, Any] | None]  # structure measured from the AST
    prompt_template: Mapped[str | None] = mapped_column(String(32))
    source: Mapped[str | None] = mapped_column(Text)  # functions + imports, without the print call
    entry_point: Mapped[str | None] = mapped_column(String(128))
    call_args: Mapped[str | None] = mapped_column(Text)  # the teacher's own call arguments
    normalized_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    # equals normalized_hash while the program is kept, NULL otherwise: a unique column that
    # makes "one kept program per normalized hash" hold across concurrent workers.
    dedup_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(16))  # workers.pipeline.lifecycle.ProgramStatus
    reject_reason: Mapped[str | None] = mapped_column(String(64))
    reject_detail: Mapped[str | None] = mapped_column(Text)
    provenance: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("batch_id", "slot", "variant"),
        Index(None, "batch_id", "status", "reject_reason"),
    )


class Execution(Base):
    __tablename__ = "executions"

    id: Mapped[int] = id_column()
    program_id: Mapped[int] = mapped_column(ForeignKey("programs.id", ondelete="CASCADE"))
    args_source: Mapped[str] = mapped_column(Text)
    args_hash: Mapped[str] = mapped_column(String(64))  # sha256 of args_source
    input_origin: Mapped[str] = mapped_column(String(24))  # teacher | llm_mutation | synthesized | boundary
    hash_seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(24))  # sandbox status
    result: Mapped[dict[str, Any] | None]  # typed value
    exception: Mapped[dict[str, Any] | None]
    stdout: Mapped[str | None] = mapped_column(Text)
    trace: Mapped[dict[str, Any] | None]
    duration_ms: Mapped[float] = mapped_column(Float, default=0.0)
    python_version: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("program_id", "args_hash", "hash_seed"),)
