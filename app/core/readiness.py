"""Readiness probes: can we reach the database and the broker right now?"""

from __future__ import annotations

from dataclasses import dataclass

from alembic.runtime.migration import MigrationContext
from kombu import Connection
from sqlalchemy import text

from app.core.celery import broker_transport_options
from app.core.config import Settings
from app.db.migrate import head_revision
from app.db.session import get_engine


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def check_database(settings: Settings) -> Check:
    try:
        with get_engine(settings.database_url).connect() as conn:
            conn.execute(text("SELECT 1"))
            current = MigrationContext.configure(conn).get_current_revision()
    except Exception as exc:  # any driver error means "not ready"; the reason is reported
        return Check("database", False, f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}")
    head = head_revision()
    if current != head:
        return Check("database", False, f"schema at revision {current}, expected {head}: run `execsynth db upgrade`")
    return Check("database", True, f"reachable, schema at {head}")


def check_broker(settings: Settings) -> Check:
    try:
        conn = Connection(
            settings.broker_url,
            transport_options=broker_transport_options(settings),
            connect_timeout=2,
        )
        with conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=3)
        return Check("broker", True, "reachable")
    except Exception as exc:  # as above: the reason goes to the 503 body
        return Check("broker", False, f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}")


def readiness(settings: Settings) -> list[Check]:
    return [check_database(settings), check_broker(settings)]
