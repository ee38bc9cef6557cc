"""Samples ((program, input) pairs, accepted or rejected) and their white-box questions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, id_column, utcnow


class Sample(Base):
    __tablename__ = "samples"

    id: Mapped[int] = id_column()
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"))
    program_id: Mapped[int] = mapped_column(ForeignKey("programs.id", ondelete="CASCADE"))
    execution_id: Mapped[int | None] = mapped_column(ForeignKey("executions.id", ondelete="SET NULL"))
    args_hash: Mapped[str] = mapped_column(String(64))
    args_source: Mapped[str] = mapped_column(Text)  # exact text between the call's parentheses
    input_index: Mapped[int] = mapped_column(Integer)
    input_origin: Mapped[str] = mapped_column(String(24))
    status: Mapped[str] = mapped_column(String(16))  # workers.pipeline.lifecycle.SampleStatus
    reject_reason: Mapped[str | None] = mapped_column(String(64))
    reject_detail: Mapped[str | None] = mapped_column(Text)
    # denormalized from the program so the dashboard aggregates need no join
    constraint_type: Mapped[str] = mapped_column(String(32))
    constraint_method: Mapped[str] = mapped_column(String(64))
    level: Mapped[str] = mapped_column(String(16))  # requested level
    difficulty_level: Mapped[str | None] = mapped_column(String(16))  # labelled level
    difficulty_score: Mapped[float | None] = mapped_column(Float)
    features: Mapped[dict[str, Any]] = mapped_column(default=dict)
    solver_passes: Mapped[int | None] = mapped_column(Integer)
    solver_k: Mapped[int | None] = mapped_column(Integer)
    teacher_solved: Mapped[bool | None]
    result_chars: Mapped[int | None] = mapped_column(Integer)
    trace_steps: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("program_id", "args_hash"),
        Index(None, "batch_id", "status", "reject_reason"),
        Index(None, "status", "level", "constraint_type"),
        # covers the difficulty aggregate (GROUP BY these six), so /v1/stats/difficulty reads an
        # index-only scan in group order instead of the table; also serves type/method filters
        Index("ix_samples_difficulty_groups", "constraint_type", "constraint_method", "level", "status",
              "solver_k", "solver_passes"),
        Index(None, "created_at"),
    )


class Question(Base):
    __tablename__ = "questions"

    id: Mapped[int] = id_column()
    sample_id: Mapped[int] = mapped_column(ForeignKey("samples.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))  # io | oi | next_line | variable | coverage
    line: Mapped[int | None] = mapped_column(Integer)
    visit: Mapped[int | None] = mapped_column(Integer)
    variable: Mapped[str | None] = mapped_column(String(128))
    prompt: Mapped[str] = mapped_column(Text)
    gold_answer: Mapped[str] = mapped_column(Text)
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # the reasoning for this question written from the trace and verified against it
    # (training.rationale); None when it failed verification (it is then never used)
    rationale: Mapped[str | None] = mapped_column(Text)

    # io and oi questions both sit at position 0 (the assertion line); steps are 1..n
    __table_args__ = (UniqueConstraint("sample_id", "kind", "position"),)
