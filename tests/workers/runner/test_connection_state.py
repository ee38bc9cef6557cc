"""A pooled connection left mid-transaction is the connection's fault, not the batch's:
the stage task retries the chunk (on fresh connections) instead of failing the batch."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import ProgrammingError

from workers.runner.common import RetryChunk
from workers.tasks import TRANSIENT, connection_left_in_transaction, run_stage


def _refused_autocommit(url: str) -> ProgrammingError:
    """The error the pool's pre-ping raises, made by a real connection in a transaction."""
    with psycopg.connect(url) as conn:
        conn.execute("SELECT 1")  # (a transaction is open now)
        try:
            conn.autocommit = True
        except psycopg.ProgrammingError as exc:
            return ProgrammingError("SELECT 1", {}, exc)
    raise AssertionError("psycopg changed autocommit inside a transaction")


def test_a_connection_left_in_a_transaction_is_retried_not_failed(pg_url: str) -> None:
    from sqlalchemy.engine import make_url
    url = make_url(pg_url).set(drivername="postgresql").render_as_string(hide_password=False)
    refused = _refused_autocommit(url)
    assert connection_left_in_transaction(refused)
    assert not isinstance(refused, TRANSIENT)  # (the task turns it into a RetryChunk itself)
    # any other programming error (bad SQL) stays a failure of the batch
    from app.db.session import make_engine
    engine = make_engine(pg_url)
    with pytest.raises(ProgrammingError) as bad:
        with engine.connect() as conn:
            conn.execute(text("SELECT no_such_column FROM no_such_table"))
    assert not connection_left_in_transaction(bad.value)
    engine.dispose()


def test_the_stage_task_retries_the_chunk_on_fresh_connections(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.engine import make_url
    from app.db.session import get_engine
    monkeypatch.setenv("EXECSYNTH_DATABASE_URL", pg_url)
    refused = _refused_autocommit(make_url(pg_url).set(drivername="postgresql").render_as_string(hide_password=False))
    engine = get_engine(pg_url)
    with engine.connect() as conn:  # a pooled connection the retry must not reuse
        conn.execute(text("SELECT 1"))
    pooled = engine.pool.checkedin()

    def runner(*_args: object) -> int:
        raise refused

    with pytest.raises(RetryChunk, match="left in a transaction"):
        run_stage(runner, 1, 0, 4)
    assert pooled == 1 and engine.pool.checkedin() == 0  # the pool was emptied

    def broken(*_args: object) -> int:
        raise ProgrammingError("SELECT x", {}, psycopg.ProgrammingError("column x does not exist"))

    with pytest.raises(ProgrammingError):  # any other programming error fails the batch, as before
        run_stage(broken, 1, 0, 4)
