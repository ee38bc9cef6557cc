"""Migrations on real Postgres and SQLite: up, down to base, up again; models == migrations."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from app.db import migrate
from app.db.models import Base
from tests.support import throwaway_database

TABLES = {"api_keys", "batches", "teacher_calls", "programs", "executions", "samples", "questions", "exports"}


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _diff(url: str) -> list:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True})
            return compare_metadata(ctx, Base.metadata)
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.services)])
def fresh_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'm.sqlite3'}"
    # a second throwaway database, so this test can drop everything
    stack = ExitStack()
    request.addfinalizer(stack.close)
    return stack.enter_context(throwaway_database("execsynth_m"))


def test_upgrade_downgrade_upgrade_and_no_autogenerate_diff(fresh_url: str) -> None:
    migrate.upgrade(fresh_url)
    assert _tables(fresh_url) == TABLES
    assert migrate.current_revision(fresh_url) == migrate.head_revision()

    migrate.downgrade(fresh_url, "base")
    assert _tables(fresh_url) == set()
    assert migrate.current_revision(fresh_url) is None

    migrate.upgrade(fresh_url)
    assert _tables(fresh_url) == TABLES
    assert _diff(fresh_url) == []


def test_constraints_follow_the_naming_convention(migrated_pg: str) -> None:
    engine = create_engine(migrated_pg)
    try:
        insp = inspect(engine)
        uniques = {u["name"] for u in insp.get_unique_constraints("samples")}
        fks = {f["name"] for f in insp.get_foreign_keys("samples")}
        assert "uq_samples_program_id_args_hash" in uniques
        assert "fk_samples_program_id_programs" in fks
        assert insp.get_pk_constraint("samples")["name"] == "pk_samples"
    finally:
        engine.dispose()
