"""Read-only queries of the export (the repository of this layer; nothing here writes).

Two passes keep memory bounded: `candidates` streams one small record per accepted sample
(what the split builder needs: ids, strata, cluster keys, sizes), then `load_rows` fetches
the full rows of the chosen samples a chunk at a time, in the order they will be written.
Both stream with `yield_per` (a server-side cursor on Postgres; on Postgres the candidates
come as plain tuples through `query_pg.stream`). Queries run on the session's connection as
Core statements: the ORM result layer would double the fetch cost. The records themselves
live in `rows` (re-exported here), so row building never imports this module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from app.db.models import Batch, Execution, Program, Question, Sample, TeacherCall
from training.export import query_pg
from training.export.rows import QUESTION_COLUMNS, QUESTION_KEYS, ROW_COLUMNS, Candidate, SampleRow  # noqa: F401 (re-exported)

STREAM_CHUNK = 5_000
SOLVE_KEY = "sample:{id}/solve"  # natural key of the teacher call that solved a sample


def candidates(session: Session, batch_ids: Sequence[int] = (), levels: Sequence[str] = (),
               created_after: datetime | None = None, created_before: datetime | None = None,
               *, raw: bool | None = None) -> Iterator[Candidate]:
    """Accepted samples with a gradable (ok, untruncated) result, in sample-id order; the
    optional window is half-open on the sample's created_at, [after, before), so consecutive
    windows never share a sample.

    On Postgres (`raw` None or True) the same statement is streamed through a server-side
    psycopg cursor as plain tuples: SQLAlchemy's row layer was half of the planning read.
    Strings and ids that repeat between samples of a program are shared, not copied per
    sample (a million candidates are held while planning)."""
    stmt = candidate_statement(batch_ids, levels, created_after, created_before)
    if raw is None:
        raw = query_pg.supported(session)
    if raw:
        rows: Iterator[Any] = query_pg.stream(session, stmt, STREAM_CHUNK)
    else:
        rows = iter(session.connection().execute(stmt.execution_options(yield_per=STREAM_CHUNK)))
    intern = sys.intern
    shared: dict[Any, Any] = {}  # program id, parent id and hash: one object per program
    share = shared.setdefault
    for (sid, pid, bid, parent, nhash, level, ctype, dlevel, dscore, chars, n_steps, truncated) in rows:
        if truncated or chars is None:
            continue
        pid = share(pid, pid)
        yield Candidate(sid, pid, share(bid, bid), None if parent is None else share(parent, parent),
                        None if nhash is None else share(nhash, nhash), intern(level), intern(ctype),
                        None if dlevel is None else intern(dlevel), dscore, int(chars), int(n_steps))


def candidate_statement(batch_ids: Sequence[int] = (), levels: Sequence[str] = (),
                        created_after: datetime | None = None, created_before: datetime | None = None) -> Select:
    """The candidates query (see `candidates`)."""
    steps = (
        select(Question.sample_id, func.count().label("n"))
        .where(Question.position > 0)
        .group_by(Question.sample_id)
        .subquery()
    )
    repr_len = func.length(Execution.result["repr"].as_string())
    stmt = (
        select(
            Sample.id, Sample.program_id, Sample.batch_id, Program.parent_id, Program.normalized_hash, Sample.level,
            Sample.constraint_type, Sample.difficulty_level, Sample.difficulty_score,
            func.coalesce(Sample.result_chars, repr_len), func.coalesce(steps.c.n, 0),
            Execution.result["truncated"].as_boolean(),
        )
        .join(Program, Program.id == Sample.program_id)
        .join(Execution, Execution.id == Sample.execution_id)
        .outerjoin(steps, steps.c.sample_id == Sample.id)
        .where(Sample.status == "accepted", Execution.status == "ok", Program.source.is_not(None))
        .order_by(Sample.id)
    )
    if batch_ids:
        stmt = stmt.where(Sample.batch_id.in_(list(batch_ids)))
    if levels:
        stmt = stmt.where(Sample.level.in_(list(levels)))
    if created_after is not None:
        stmt = stmt.where(Sample.created_at >= created_after)
    if created_before is not None:
        stmt = stmt.where(Sample.created_at < created_before)
    return stmt


_TABLES = {"s": Sample, "p": Program, "e": Execution}
_ROW_COLUMNS = tuple(getattr(_TABLES[table], column) for _, table, column in ROW_COLUMNS)
_QUESTION_COLUMNS = tuple(getattr(Question, column) for _, column in QUESTION_COLUMNS)
_N = len(ROW_COLUMNS)


def load_rows(session: Session, sample_ids: Sequence[int], with_questions: Sequence[bool],
              with_solutions: bool = False, chunk: int = 2_000) -> Iterator[SampleRow]:
    """Full rows for `sample_ids`, yielded in that order, `chunk` ids per query.

    `with_questions[i]` says whether the i-th sample needs its stored questions (white-box
    items, and every item whose SFT target uses the stored rationales; the others are
    rebuilt from args and result)."""
    for start in range(0, len(sample_ids), chunk):
        ids = list(sample_ids[start:start + chunk])
        need_q = [sid for sid, want in zip(ids, with_questions[start:start + chunk]) if want]
        stmt = (
            select(*_ROW_COLUMNS)
            .join(Program, Program.id == Sample.program_id)
            .join(Execution, Execution.id == Sample.execution_id)
            .where(Sample.id.in_(ids))
        )
        rows = {r[0]: r for r in session.connection().execute(stmt)}
        questions = _questions(session, need_q) if need_q else {}
        solved = solutions(session, ids) if with_solutions else {}
        for sid in ids:
            yield SampleRow(*rows[sid][:_N], questions=questions.get(sid, ()), solution=solved.get(sid))


def _questions(session: Session, ids: list[int]) -> dict[int, tuple[dict[str, Any], ...]]:
    stmt = (
        select(Question.sample_id, *_QUESTION_COLUMNS)
        .where(Question.sample_id.in_(ids))
        .order_by(Question.sample_id, Question.position)
    )
    out: dict[int, list[dict[str, Any]]] = {}
    for sid, *values in session.connection().execute(stmt):
        question = dict(zip(QUESTION_KEYS, values))
        question["payload"] = question["payload"] or {}
        out.setdefault(sid, []).append(question)
    return {sid: tuple(qs) for sid, qs in out.items()}


def solutions(session: Session, ids: list[int]) -> dict[int, str]:
    """The first choice of the earliest ok `solve` call, for samples the teacher solved."""
    solved = session.scalars(select(Sample.id).where(Sample.id.in_(ids), Sample.teacher_solved.is_(True)))
    keys = {SOLVE_KEY.format(id=sid): sid for sid in solved}
    if not keys:
        return {}
    stmt = (
        select(TeacherCall.request_key, TeacherCall.raw_completion)
        .where(TeacherCall.purpose == "solve", TeacherCall.status == "ok",
               TeacherCall.request_key.in_(list(keys)))
        .order_by(TeacherCall.id)
    )
    out: dict[int, str] = {}
    for key, raw in session.execute(stmt):
        sid = keys[key]
        if raw and isinstance(raw[0], str) and sid not in out:
            out[sid] = raw[0]
    return out


def batch_info(session: Session, batch_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Seed and teacher of the batches an export draws from (for the card and manifest)."""
    if not batch_ids:
        return {}
    stmt = select(Batch.id, Batch.seed, Batch.teacher).where(Batch.id.in_(list(batch_ids))).order_by(Batch.id)
    return {bid: {"seed": seed, "teacher": teacher} for bid, seed, teacher in session.execute(stmt)}


def program_sources(session: Session, program_ids: Sequence[int], chunk: int = 2_000) -> Iterator[tuple[int, str]]:
    """(program id, source) for the contamination check, in id order."""
    ordered = sorted(set(program_ids))
    for start in range(0, len(ordered), chunk):
        stmt = (select(Program.id, Program.source)
                .where(Program.id.in_(ordered[start:start + chunk])).order_by(Program.id))
        yield from session.execute(stmt)
