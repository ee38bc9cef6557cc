"""JSONText: a trace that already is JSON text is stored as that JSON (not as a JSON string)
by the project's engines, on Postgres and SQLite; other values are encoded as before."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from app.db.session import JSONText, make_engine

TABLE = sa.Table("json_text_probe", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True),
                 sa.Column("doc", sa.JSON))


@pytest.fixture(params=["postgres", "sqlite"])
def engine(request, tmp_path: Path):
    url = request.getfixturevalue("migrated_pg") if request.param == "postgres" else f"sqlite:///{tmp_path}/x.db"
    engine = make_engine(url)
    TABLE.create(engine, checkfirst=True)
    yield engine
    TABLE.drop(engine)
    engine.dispose()


def test_json_text_is_stored_as_the_json_it_holds(engine) -> None:
    rows = [{"id": 1, "doc": JSONText('{"steps": [{"line": 2, "locals": {}}]}')},
            {"id": 2, "doc": '{"steps": []}'},  # a plain str stays a JSON string
            {"id": 3, "doc": {"steps": [1]}}]
    with engine.begin() as conn:
        conn.execute(TABLE.insert(), rows)
        got = dict(conn.execute(sa.select(TABLE.c.id, TABLE.c.doc)).all())
    assert got == {1: {"steps": [{"line": 2, "locals": {}}]}, 2: '{"steps": []}', 3: {"steps": [1]}}


def test_json_text_that_is_not_json_is_refused_by_postgres(migrated_pg: str) -> None:
    engine = make_engine(migrated_pg)
    TABLE.create(engine, checkfirst=True)
    try:
        with pytest.raises(sa.exc.DataError), engine.begin() as conn:
            conn.execute(TABLE.insert(), [{"id": 9, "doc": JSONText("{not json")}])
    finally:
        TABLE.drop(engine)
        engine.dispose()
