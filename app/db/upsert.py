"""Portable INSERT ... ON CONFLICT DO NOTHING for natural-key writes (Postgres and SQLite)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session


def insert_ignore(session: Session, model: type, rows: Sequence[dict[str, Any]], conflict: Sequence[str]) -> int:
    """Insert rows whose natural key (`conflict` columns) is new; others are left untouched.
    Returns how many rows were inserted."""
    if not rows:
        return 0
    dialect = session.get_bind().dialect.name
    module = postgresql if dialect == "postgresql" else sqlite
    stmt = module.insert(model).values(list(rows)).on_conflict_do_nothing(index_elements=list(conflict))
    result = session.execute(stmt)
    return result.rowcount if result.rowcount is not None and result.rowcount >= 0 else 0
