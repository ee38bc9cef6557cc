"""`run_export`: the one entry point the CLI, the API and the nightly task call.

It reads (never writes) the database through the session it is given; the caller owns the
session and stores the returned `ExportResult` on its `exports` row. Files are written to
a temporary name and renamed, and the manifest comes last, so a folder with a manifest is
a complete export. The generation time is returned, never written into a file: the same
database and spec give byte-identical files.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from training.export import query, query_pg
from training.export.build import ChunkJob
from training.export.card import SplitStats, render_card
from training.export.contamination import Flag, load_benchmarks
from training.export.errors import OutputDirError
from training.export.formats import FORMATS, ExportFormat, SplitFile
from training.export.parallel import ChunkRunner, worker_count
from training.export.prefetch import read_ahead
from training.export.spec import ExportSpec
from training.export.splits import Item, SplitPlan, build_splits
from training.export.warnings import split_warnings
from training.export.writers import JsonlSink, ParquetSink, file_digest
from training.prompts import TEMPLATE_VERSIONS
from training.training_tasks import GROUND_TRUTH_VERSION, IO_WHITEBOX

MANIFEST = "manifest.json"
CARD = "README.md"
MANIFEST_VERSION = 1
CHUNK_ROWS = 2_048  # rows built and handed to the writer at a time (progress is reported per chunk)
READ_CHUNKS = 4  # chunks read from Postgres per query

# (split name, rows written so far, rows the split will hold): the CLI's progress bar
Progress = Callable[[str, int, int], None]


@dataclass
class ExportPlan:
    plan: SplitPlan
    flags: list[Flag]
    excluded: dict[int, list[int]]  # flagged program id -> its excluded sample ids
    benchmarks: list[dict[str, Any]]


@dataclass
class ExportResult:
    out_dir: str
    files: list[dict[str, Any]]  # path (relative), split, rows, sha256, bytes
    manifest: dict[str, Any]
    sample_count: int
    started_at: datetime
    finished_at: datetime
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)


def code_version() -> dict[str, Any]:
    try:
        version = metadata.version("execsynth")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return {"execsynth": version, "prompt_templates": dict(TEMPLATE_VERSIONS),
            "ground_truth_version": GROUND_TRUTH_VERSION, "manifest_version": MANIFEST_VERSION}


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Planning allocates millions of small records (candidates, items) and keeps them, so
    the cyclic collector would walk the growing heap again and again for no garbage (a
    quarter of a 1M-sample plan's CPU). Reference counting still frees everything that
    planning drops; the collector is back on (if it was on) when planning ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def plan_export(session: Session, spec: ExportSpec) -> ExportPlan:
    """Candidates -> contamination exclusion -> disjoint splits (no files written)."""
    with _cyclic_gc_paused():
        return _plan(session, spec)


def _plan(session: Session, spec: ExportSpec) -> ExportPlan:
    cands = list(query.candidates(session, spec.batch_ids, spec.levels, *spec.window))
    flags: list[Flag] = []
    excluded: dict[int, list[int]] = {}
    benchmarks: list[dict[str, Any]] = []
    if spec.benchmarks:
        index = load_benchmarks(spec.benchmarks, spec.ngram_n, spec.ngram_threshold)
        benchmarks = index.files
        programs = {c.program_id for c in cands}
        for pid, source in query.program_sources(session, sorted(programs)):
            flag = index.check(pid, source) if source else None
            if flag is not None:
                flags.append(flag)
        flagged = {f.program_id for f in flags}
        for c in cands:
            if c.program_id in flagged:
                excluded.setdefault(c.program_id, []).append(c.sample_id)
        cands = [c for c in cands if c.program_id not in flagged]
    plan = build_splits(cands, spec.splits, spec.seed, spec.curriculum)
    return ExportPlan(plan, flags, excluded, benchmarks)


def _prepare(out_dir: Path, overwrite: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputDirError(f"{out_dir} exists and is not a folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    existing = sorted(p.name for p in out_dir.iterdir())
    if existing and not overwrite:
        raise OutputDirError(f"{out_dir} is not empty ({', '.join(existing[:5])}); pass overwrite to replace")
    if existing and not (out_dir / MANIFEST).exists():
        raise OutputDirError(f"{out_dir} holds files that are not an export; refusing to overwrite")
    if overwrite:
        for name in existing:
            path = out_dir / name
            if path.is_file():
                path.unlink()


def run_export(session: Session, spec: ExportSpec, out_dir: str | Path, *,
               overwrite: bool = False, version: dict[str, Any] | None = None,
               progress: Progress | None = None) -> ExportResult:
    started, t0 = datetime.now(timezone.utc), time.perf_counter()
    out = Path(out_dir)
    _prepare(out, overwrite)
    fmt = FORMATS[spec.format]
    planned = plan_export(session, spec)
    plan = planned.plan
    written: list[SplitFile] = []
    use_pg = query_pg.supported(session)
    total = sum(len(plan.items[s.name]) for s in spec.written_splits)
    # counted while the files are written (the exporter waits for its workers meanwhile)
    stats = {s.name: SplitStats() for s in spec.splits}
    with ChunkRunner(worker_count(total)) as runner, (query_pg.reading(session) if use_pg else nullcontext()):
        for split in spec.written_splits:
            written.append(_write_split(session, spec, fmt, split.name, plan.items[split.name], out,
                                        runner, use_pg, progress, stats[split.name]))
    for s in spec.splits:
        if s not in spec.written_splits:
            stats[s.name].add(plan.items[s.name])
        stats[s.name].count_clusters(plan.cluster_of)
    for name, text in fmt.side_files(written, spec.system_prompt).items():
        (out / name).write_text(text, encoding="utf-8")
    batches = query.batch_info(session, sorted({c.candidate.batch_id for rows in plan.items.values() for c in rows}))
    contamination = {
        "benchmarks": planned.benchmarks, "ngram_n": spec.ngram_n, "threshold": spec.ngram_threshold,
        "excluded_samples": sum(len(v) for v in planned.excluded.values()),
        "flagged": [dict(f.to_dict(), sample_ids=planned.excluded.get(f.program_id, [])) for f in planned.flags],
    }
    version = version or code_version()
    layouts = {f.split: fmt.carries_targets(f.split) for f in written}
    sft_splits = tuple(s for s, t in layouts.items() if t) if len(set(layouts.values())) > 1 else ()
    split_summary = {s.name: {"written": s in spec.written_splits, "requested": plan.requested[s.name],
                              "produced": plan.counts[s.name], **stats[s.name].to_dict()} for s in spec.splits}
    warnings = split_warnings(split_summary, plan.available)
    card = render_card(fmt_name=fmt.name, usage=fmt.usage, files={f.split: f.path for f in written},
                       sft_splits=sft_splits,
                       stats={s.name: stats[s.name] for s in spec.written_splits}, spec=spec.to_dict(),
                       code_version=version, batches=batches, contamination=contamination, warnings=warnings)
    (out / CARD).write_text(card, encoding="utf-8")
    files = _describe_files(out, written, [*fmt.side_files(written, spec.system_prompt), CARD])
    manifest = {
        "manifest_version": MANIFEST_VERSION, "format": fmt.name, "spec": spec.to_dict(),
        "spec_sha256": hashlib.sha256(json.dumps(spec.to_dict(), sort_keys=True).encode()).hexdigest(),
        "code_version": version, "files": files,
        "content_sha256": hashlib.sha256("".join(f["sha256"] for f in files).encode()).hexdigest(),
        "splits": split_summary, "warnings": warnings,
        "candidates": plan.available, "unassigned_clusters": plan.unassigned_clusters,
        "batches": {str(k): v for k, v in batches.items()}, "contamination": contamination,
    }
    tmp = out / (MANIFEST + ".partial")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, out / MANIFEST)
    finished = datetime.now(timezone.utc)
    return ExportResult(str(out), files, manifest, sum(f.rows for f in written), started, finished,
                        time.perf_counter() - t0, {s: st.to_dict() for s, st in stats.items()})


def _write_split(session: Session, spec: ExportSpec, fmt: ExportFormat, name: str, items: list[Item],
                 out: Path, runner: ChunkRunner, use_pg: bool, progress: Progress | None,
                 stats: SplitStats) -> SplitFile:
    rel = f"{name}.{fmt.file_kind}"
    tmp = out / (rel + ".partial")
    schema = fmt.schema_for(name)
    sink = ParquetSink(tmp, schema, spec.row_group_size) if fmt.file_kind == "parquet" else JsonlSink(tmp)
    try:
        if progress:
            progress(name, 0, len(items))
        done = 0
        # the next chunks are read from the database while this one is built and written
        for chunk in runner.map(read_ahead(_jobs(session, spec, fmt, name, items, use_pg), depth=4)):
            sink.add(chunk)
            stats.add(items[done:done + chunk.rows])
            stats.absorb(chunk.counts)
            done += chunk.rows
            if progress:
                progress(name, done, len(items))
        count = sink.close()
        if progress:
            progress(name, count, len(items))
    except BaseException:
        sink.close()
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, out / rel)
    return SplitFile(name, rel, count)


def _jobs(session: Session, spec: ExportSpec, fmt: ExportFormat, name: str, items: list[Item],
          use_pg: bool) -> Iterator[ChunkJob]:
    """The split's rows, CHUNK_ROWS at a time, read in file order (the caller's transaction).

    Postgres reads READ_CHUNKS chunks per query: the ids of a bigger read are denser, so the
    server's index lookups share more pages (measured per row: 35 µs of server CPU reading
    2,048 rows at a time, 29 µs reading 8,192)."""
    step = CHUNK_ROWS * READ_CHUNKS if use_pg else CHUNK_ROWS
    for read_start in range(0, len(items), step):
        read = items[read_start:read_start + step]
        rows, solutions = _read(session, fmt.carries_targets(name), read, use_pg)
        for offset in range(0, len(read), CHUNK_ROWS):
            part = read[offset:offset + CHUNK_ROWS]
            yield ChunkJob(fmt.name, name, read_start + offset, tuple(it.task_type for it in part), spec.style,
                           spec.system_prompt, rows[offset:offset + CHUNK_ROWS],
                           {it.sample_id: solutions[it.sample_id] for it in part if it.sample_id in solutions})


def _read(session: Session, targets: bool, items: list[Item], use_pg: bool) -> tuple[list[Any], dict[int, str]]:
    """The stored rows of `items` in their order (Postgres: JSON texts, else SampleRows with
    their solutions) and, on Postgres, the stored solutions. Rows of a split whose records
    carry SFT targets come with their stored questions (the rationales are on them)."""
    ids = [it.sample_id for it in items]
    want = [targets or it.task_type == IO_WHITEBOX for it in items]
    if use_pg:
        return query_pg.row_texts(session, ids, want), query.solutions(session, ids) if targets else {}
    return list(query.load_rows(session, ids, want, targets)), {}


def _describe_files(out: Path, written: list[SplitFile], others: list[str]) -> list[dict[str, Any]]:
    described = []
    for f in written:
        digest, size = file_digest(out / f.path)
        described.append({"path": f.path, "split": f.split, "rows": f.rows, "sha256": digest, "bytes": size})
    for name in others:
        digest, size = file_digest(out / name)
        described.append({"path": name, "split": None, "rows": None, "sha256": digest, "bytes": size})
    return sorted(described, key=lambda d: d["path"])
