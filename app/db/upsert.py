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
    stmt = module.insert(model.__table__).on_conflict_do_nothing(index_elements=list(conflict))
    # executemany (compiled once per key set) instead of one giant multi-VALUES statement
    # compiled per call; rows with different keys go in separate groups so that absent
    # columns keep their defaults
    groups: dict[frozenset[str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(frozenset(row), []).append(row)
    inserted = 0
    connection = session.connection()
    for group in groups.values():
        result = connection.execute(stmt, group)
        inserted += max(result.rowcount or 0, 0)
    return inserted
