"""One chunk of an export file: stored rows in, finished file content out.

A `ChunkJob` holds consecutive rows of one split file (in file order) and everything that
turns them into bytes: the format, the style, the system prompt, each row's task type and
its index in the file. `build_chunk` is a pure function of the job, so it gives the same
output in the exporting process and in a worker process; that is what lets the export fan
the CPU-heavy part (tasks, prompts, JSON, Arrow) out over cores and still write files that
are byte-identical to a one-process run.

Rows arrive either as `SampleRow`s (any database) or as the JSON text that the Postgres
reader has the server build per row (`query_pg`), decoded here, in the worker, so that the
exporting process never parses them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pyarrow as pa

from training.export.columns import record_batch
from training.export.formats import FORMATS
from training.export.items import ExportItem, build_task
from training.export.jsontext import dumps_ascii, loads
from training.export.rows import FLOAT_FIELDS, QUESTION_KEYS, ROW_FIELDS, SampleRow

_N = len(ROW_FIELDS)
_PAYLOAD = QUESTION_KEYS.index("payload")


@dataclass(frozen=True)
class ChunkJob:
    format: str
    split: str
    start: int  # file index of the first row
    task_types: tuple[str, ...]
    style: str
    system_prompt: str | None
    rows: list[SampleRow] | list[str]  # SampleRows, or `query_pg` JSON texts
    solutions: dict[int, str] = field(default_factory=dict)  # sample id -> stored solution


@dataclass(frozen=True)
class ChunkOutput:
    rows: int
    batch: pa.RecordBatch | None = None  # parquet formats
    text: str | None = None  # JSON-lines formats
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # for the card (`count_item`)


def count_item(counts: dict[str, dict[str, int]], item: ExportItem, with_target: bool) -> None:
    """What the dataset card reports of one written item: where its SFT target comes from,
    its question kinds, its constant answers and its result type."""
    def bump(table: str, key: str) -> None:
        row = counts.setdefault(table, {})
        row[key] = row.get(key, 0) + 1

    task = item.task
    if with_target:
        bump("targets", item.target()[1])
    for q in task.questions:
        bump("question_kinds", q.kind)
        if q.kind == "next_line":
            bump("answers", "next_line: -1" if q.gold_answer == "-1" else "next_line: a line")
        elif q.kind == "variable":
            bump("answers", "variable: Nil" if q.gold_answer == "Nil" else "variable: a value")
    if task.result is not None:
        bump("result_types", str(task.result.get("type")))


def decode_row(text: str, solution: str | None = None) -> SampleRow:
    """A `query_pg` row (one JSON array: ROW_COLUMNS, then the questions as arrays)."""
    v = loads(text)
    for i in FLOAT_FIELDS:  # JSON has 0 for 0.0, and strings for NaN / Infinity
        if v[i] is not None:
            v[i] = float(v[i])
    stored = v[_N]
    questions = () if stored is None else tuple(
        {**dict(zip(QUESTION_KEYS, q)), "payload": q[_PAYLOAD] or {}} for q in stored)
    return SampleRow(*v[:_N], questions=questions, solution=solution)


def build_chunk(job: ChunkJob) -> ChunkOutput:
    fmt = FORMATS[job.format]
    if job.rows and isinstance(job.rows[0], str):
        rows = [decode_row(t) for t in job.rows]  # type: ignore[arg-type]
    else:
        rows = list(job.rows)  # type: ignore[arg-type]
    if job.solutions:
        rows = [r if r.sample_id not in job.solutions else replace(r, solution=job.solutions[r.sample_id])
                for r in rows]
    if len(rows) != len(job.task_types):
        raise ValueError(f"chunk of {len(rows)} rows for {len(job.task_types)} task types")
    records: list[dict[str, Any]] = []
    counts: dict[str, dict[str, int]] = {}
    targets = fmt.carries_targets(job.split)
    for offset, (row, task_type) in enumerate(zip(rows, job.task_types)):
        item = ExportItem(job.split, job.start + offset, build_task(row, task_type, job.style), row)
        if targets:
            item = item.with_target()
        records.append(fmt.record(item, job.system_prompt))
        count_item(counts, item, targets)
    if fmt.file_kind == "parquet":
        return ChunkOutput(len(records), batch=record_batch(records, fmt.schema_for(job.split)), counts=counts)
    return ChunkOutput(len(records), text="".join(dumps_ascii(r) + "\n" for r in records), counts=counts)

