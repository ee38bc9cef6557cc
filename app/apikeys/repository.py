"""Every api_keys query."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from app.db.models import ApiKey


def add(session: Session, key: ApiKey) -> ApiKey:
    session.add(key)
    session.flush()
    return key


def by_hash(session: Session, key_hash: str) -> ApiKey | None:
    return session.scalars(select(ApiKey).where(ApiKey.key_hash == key_hash)).one_or_none()


def by_hashes(session: Session, key_hashes: list[str]) -> list[ApiKey]:
    return list(session.scalars(select(ApiKey).where(ApiKey.key_hash.in_(key_hashes))))


def get(session: Session, key_id: int) -> ApiKey | None:
    return session.get(ApiKey, key_id)


def all_keys(session: Session, include_revoked: bool) -> list[ApiKey]:
    query = select(ApiKey).order_by(ApiKey.id)
    if not include_revoked:
        query = query.where(ApiKey.revoked_at.is_(None))
    return list(session.scalars(query))


def touch(session: Session, key_id: int, now: datetime, older_than: datetime) -> None:
    """last_used_at, written at most once per interval so reads stay cheap."""
    session.execute(
        update(ApiKey)
        .where(ApiKey.id == key_id, or_(ApiKey.last_used_at.is_(None), ApiKey.last_used_at < older_than))
        .values(last_used_at=now)
    )
