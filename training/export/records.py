"""The export's row records, with no database imports.

`query` fills them from the database; `build`, `items` and the worker processes only read
them. Keeping them here (not in `query`) is what lets a worker process build rows without
importing SQLAlchemy and the ORM models (about 36 MiB per worker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
    """Everything one exported item is made from."""

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
