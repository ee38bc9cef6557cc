"""Issuing, listing, revoking and checking API keys.

Keys are random 256-bit tokens; only their sha256 is stored, so a database leak does not
leak usable keys (a fast hash is enough for high-entropy secrets, unlike passwords).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy.orm import Session

from app.apikeys import repository as repo
from app.apikeys.schemas import ApiKeyCreate, ApiKeyCreated, ApiKeyRead
from app.core.errors import DomainError, Forbidden, NotFound, Unauthorized
from app.db.models import ApiKey

KEY_PREFIX = "esk_"
MISSING_KEY = "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
TOUCH_INTERVAL = timedelta(minutes=1)


@dataclass(frozen=True)
class Principal:
    """The caller an authenticated request acts for."""

    key_id: int
    name: str
    rate_limit_per_minute: int | None
    # part of the key's hash: names the key in shared stores (ids repeat across databases
    # that share one Redis)
    key_hash_prefix: str = ""


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create(session: Session, data: ApiKeyCreate) -> ApiKeyCreated:
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    row = repo.add(session, ApiKey(
        name=data.name, prefix=key[:12], key_hash=hash_key(key),
        rate_limit_per_minute=data.rate_limit_per_minute, note=data.note,
    ))
    return ApiKeyCreated(**_read(row).model_dump(), key=key)


def list_keys(session: Session, include_revoked: bool = True) -> list[ApiKeyRead]:
    return [_read(k) for k in repo.all_keys(session, include_revoked)]


def revoke(session: Session, key_id: int) -> ApiKeyRead:
    row = repo.get(session, key_id)
    if row is None:
        raise NotFound(f"no API key {key_id}")
    if row.revoked_at is None:
        row.revoked_at = datetime.now(timezone.utc)
        session.flush()
    return _read(row)


def authenticate(session: Session, presented: str | None) -> tuple[Principal, bool]:
    """(the caller, whether last_used_at was written in this session and needs a commit)."""
    if not presented:
        raise Unauthorized(MISSING_KEY)
    outcome, touched = authenticate_many(session, [presented])
    if isinstance(outcome[presented], DomainError):
        raise outcome[presented]
    return outcome[presented], touched


def authenticate_many(session: Session, presented: list[str]) -> tuple[dict[str, Principal | DomainError], bool]:
    """Each distinct presented key -> its Principal, or the 401/403 it earns; one query for all.
    The second item says whether a last_used_at was written (the caller commits it)."""
    hashes = {key: hash_key(key) for key in dict.fromkeys(presented)}
    rows = {row.key_hash: row for row in repo.by_hashes(session, list(hashes.values()))}
    now = datetime.now(timezone.utc)
    outcome: dict[str, Principal | DomainError] = {}
    touched = False
    for key, digest in hashes.items():
        row = rows.get(digest)
        if row is None:
            outcome[key] = Unauthorized("unknown API key")
        elif row.revoked_at is not None:
            outcome[key] = Forbidden(f"API key {row.prefix}... was revoked at {row.revoked_at.isoformat()}")
        else:
            if row.last_used_at is None or row.last_used_at < now - TOUCH_INTERVAL:
                repo.touch(session, row.id, now, now - TOUCH_INTERVAL)
                touched = True
            outcome[key] = Principal(row.id, row.name, row.rate_limit_per_minute, row.key_hash[:16])
    return outcome, touched


def _read(row: ApiKey) -> ApiKeyRead:
    return ApiKeyRead.model_validate(row, from_attributes=True)
