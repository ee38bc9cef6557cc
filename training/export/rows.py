"""The export's row records, with no database imports.

`query` fills them from the database; `build`, `items` and the worker processes only read
them. Keeping them here (not in `query`) is what lets a worker process build rows without
importing SQLAlchemy and the ORM models (about 36 MiB per worker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The stored part of a `SampleRow`, in its field order: (field, table, column) with the tables
# s = samples, p = programs, e = executions. Both row readers are built from this one list:
# `query.load_rows` (any database, ORM columns) and `query_pg.row_texts` (Postgres, one JSON
# array per row, decoded by `build.decode_row`).
ROW_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("sample_id", "s", "id"), ("batch_id", "s", "batch_id"), ("program_id", "s", "program_id"),
    ("execution_id", "s", "execution_id"), ("level", "s", "level"), ("difficulty_level", "s", "difficulty_level"),
    ("difficulty_score", "s", "difficulty_score"), ("constraint_type", "s", "constraint_type"),
    ("constraint_method", "s", "constraint_method"), ("input_origin", "s", "input_origin"),
    ("solver_passes", "s", "solver_passes"), ("solver_k", "s", "solver_k"),
    ("source", "p", "source"), ("entry_point", "p", "entry_point"), ("origin", "p", "origin"),
    ("prompt_template", "p", "prompt_template"), ("provenance", "p", "provenance"),
    ("args", "e", "args_source"), ("result", "e", "result"), ("hash_seed", "e", "hash_seed"),
    ("python_version", "e", "python_version"),
)
ROW_FIELDS = tuple(field for field, _, _ in ROW_COLUMNS)
FLOAT_FIELDS = tuple(ROW_FIELDS.index(name) for name in ("difficulty_score",))
# a stored question as the row builders see it: (key, column of the questions table), in order
QUESTION_COLUMNS: tuple[tuple[str, str], ...] = (
    ("kind", "kind"), ("position", "position"), ("line", "line"), ("visit", "visit"), ("variable", "variable"),
    ("text", "prompt"), ("gold_answer", "gold_answer"), ("payload", "payload"), ("rationale", "rationale"),
)
QUESTION_KEYS = tuple(key for key, _ in QUESTION_COLUMNS)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One accepted sample as the split builder sees it (a million of them are held while
    planning: `query.candidates` shares the strings and ids that repeat between samples)."""

    sample_id: int
    program_id: int
    batch_id: int
    parent_id: int | None
    normalized_hash: str | None
    level: str
    constraint_type: str
    difficulty_level: str | None
    difficulty_score: float | None
    result_chars: int
    n_steps: int  # white-box step questions stored for the sample


@dataclass(frozen=True, slots=True)
class SampleRow:
    """Everything one exported item is made from: the fields of ROW_COLUMNS, in that order,
    then the sample's questions and solution."""

    sample_id: int
    batch_id: int
    program_id: int
    execution_id: int
    level: str
    difficulty_level: str | None
    difficulty_score: float | None
    constraint_type: str
    constraint_method: str
    input_origin: str
    solver_passes: int | None
    solver_k: int | None
    source: str
    entry_point: str
    origin: str
    prompt_template: str | None
    provenance: dict[str, Any]
    args: str
    result: dict[str, Any]
    hash_seed: int
    python_version: str
    questions: tuple[dict[str, Any], ...]  # stored question rows, by position
    solution: str | None  # the teacher's verified solving completion, when one is stored
