"""The Postgres reader of export rows: one query per chunk, one JSON text per row.

`query.load_rows` (any database) costs the exporting process a result row per sample plus
one per stored question, each parsed into Python objects by the driver. Here the server
joins sample, program and execution, aggregates the questions in position order and writes
the whole row as one JSON array (`build.decode_row` reads it, in a worker process); the
exporting process only receives text. The ids of a chunk are looked up in id order (index
pages are visited in order, about a third less server time than the shuffled order) and the
rows are put back in file order here.

It runs on the caller's connection, so it reads the caller's transaction (uncommitted rows
included), like every other query of the export.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy.orm import Session

from training.export.errors import ExportError
from training.export.prefetch import read_ahead
from training.export.rows import QUESTION_COLUMNS, ROW_COLUMNS

# the row's fields in ROW_COLUMNS order, then its questions (QUESTION_COLUMNS order) or null
_ROW_SQL = f"""
SELECT s.id, json_build_array(
    {", ".join(f"{table}.{column}" for _, table, column in ROW_COLUMNS)},
    CASE WHEN ids.want THEN (
        SELECT json_agg(json_build_array({", ".join(f"q.{column}" for _, column in QUESTION_COLUMNS)})
                        ORDER BY q.position, q.kind)
        FROM questions q WHERE q.sample_id = s.id) END)::text
FROM unnest(%s::bigint[], %s::boolean[]) AS ids(id, want)
JOIN samples s ON s.id = ids.id
JOIN programs p ON p.id = s.program_id
JOIN executions e ON e.id = s.execution_id
"""

# transaction-local settings while the export reads, restored afterwards: no JIT (its
# compile time per chunk query is larger than the query), floats written exactly, and no
# parallel workers (reads are overlapped with row building already; on a small machine
# extra server processes only compete with the export's own workers for the cores)
_SETTINGS = {"jit": "off", "extra_float_digits": "3", "max_parallel_workers_per_gather": "0"}
_CURSOR_IDS = itertools.count()


def supported(session: Session) -> bool:
    dialect = session.get_bind().dialect
    return dialect.name == "postgresql" and dialect.driver == "psycopg"


@contextmanager
def reading(session: Session) -> Iterator[None]:
    cur = session.connection().connection.driver_connection.cursor()
    try:
        old = {name: cur.execute("SELECT current_setting(%s)", (name,)).fetchone()[0] for name in _SETTINGS}
        for name, value in _SETTINGS.items():
            cur.execute("SELECT set_config(%s, %s, true)", (name, value))
        yield
        for name, value in old.items():
            cur.execute("SELECT set_config(%s, %s, true)", (name, value))
    finally:
        cur.close()


def stream(session: Session, stmt: Any, batch: int) -> Iterator[tuple]:
    """The rows of a SQLAlchemy Core `stmt` as plain tuples, `batch` at a time from a
    server-side cursor in the caller's transaction (bounded memory, no Row objects)."""
    compiled = stmt.compile(dialect=session.get_bind().dialect, compile_kwargs={"render_postcompile": True})
    params = compiled.construct_params()
    processors = compiled._bind_processors  # e.g. JSON path keys are encoded by their type
    params = {k: processors[k](v) if k in processors else v for k, v in params.items()}
    driver = session.connection().connection.driver_connection
    with driver.cursor(name=f"export_stream_{next(_CURSOR_IDS)}") as cur:
        cur.execute(str(compiled), params)
        # the server computes the next FETCH while the caller turns these rows into records
        for rows in read_ahead(iter(lambda: cur.fetchmany(batch), [])):
            yield from rows


def row_texts(session: Session, sample_ids: Sequence[int], with_questions: Sequence[bool]) -> list[str]:
    """The JSON row of each of `sample_ids`, in that order."""
    order = sorted(range(len(sample_ids)), key=sample_ids.__getitem__)
    ids = [sample_ids[i] for i in order]
    want = [bool(with_questions[i]) for i in order]
    with session.connection().connection.driver_connection.cursor() as cur:
        found = dict(cur.execute(_ROW_SQL, (ids, want)).fetchall())
    missing = [sid for sid in sample_ids if sid not in found]
    if missing:
        raise ExportError(f"{len(missing)} planned sample(s) vanished while exporting (first: {missing[0]})")
    return [found[sid] for sid in sample_ids]
