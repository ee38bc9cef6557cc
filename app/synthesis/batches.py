"""Creating a batch row: the one write both the API and `execsynth synth` start with."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.db.models import Batch
from app.synthesis.repository import now


def create_batch(session: Session, spec: dict[str, Any], seed: int, teacher: str, *, status: str = "pending",
                 priority: int = 5, idempotency_key: str | None = None, api_key_id: int | None = None) -> Batch:
    batch = Batch(
        spec=spec, seed=seed, teacher=teacher, status=status, priority=priority,
        idempotency_key=idempotency_key, api_key_id=api_key_id,
        programs_requested=int(spec["programs"]), counters={},
        started_at=now() if status == "running" else None,
    )
    session.add(batch)
    session.flush()
    return batch
