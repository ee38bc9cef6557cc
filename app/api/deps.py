"""Request dependencies: settings and the per-request database session (the route commits)."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Request
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.db.session import session_factory


def settings_dep(request: Request) -> Settings:
    return request.app.state.settings


def db_session(request: Request) -> Iterator[Session]:
    session = session_factory(request.app.state.settings.database_url)()
    try:
        yield session
    finally:
        session.close()
