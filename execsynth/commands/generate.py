"""`execsynth constraints list` and `execsynth generate`: the grid, and programs from it.

`generate` is the offline path of issue 4 end to end: select cells, ask a teacher, parse,
check the structure, dedup, and write one JSON line per kept program; the rejection counts
by reason go to stderr. It calls the same pure stage functions as the batch runner.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Optional

import typer

from workers.pipeline.constraints import (
    LEVELS, CatalogError, LevelError, SelectionError, filter_entries, knobs_to_dict, load_catalog,
    select,
)
from workers.pipeline.batch_spec import NaturalnessSpec
from workers.pipeline.lifecycle import ProgramStatus
from workers.pipeline.prompts import TEMPLATE_VERSION
from workers.pipeline.provenance import program_provenance
from workers.pipeline.records import Completion, Constraint
from workers.pipeline.stages.generate import generation_request, judge_completion
from workers.pipeline.teachers.base import Teacher, complete_all_sync

constraints_app = typer.Typer(help="The constraint grid (types x methods x levels).",
                              no_args_is_help=True)


def _csv(value: Optional[str]) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def _err(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@constraints_app.command("list")
def list_constraints(
    types: Optional[str] = typer.Option(None, help="Comma-separated types (default: all)."),
    methods: Optional[str] = typer.Option(None, help="Comma-separated methods."),
    catalog: Optional[Path] = typer.Option(None, help="Extra catalog file (TOML or JSON)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON document instead of text."),
) -> None:
    """Print the grid: entries per type, and the structure levels."""
    try:
        entries = filter_entries(load_catalog(catalog), _csv(types), _csv(methods))
    except (CatalogError, SelectionError) as exc:
        _err(str(exc))
    levels = {name: knobs_to_dict(k) for name, k in LEVELS.items()}
    if as_json:
        typer.echo(json.dumps({"entries": [{"type": e.type, "method": e.method,
                                            "syntax": e.syntax.kind, "origin": e.origin}
                                           for e in entries], "levels": levels}))
        return
    by_type: dict[str, list[str]] = {}
    for e in entries:
        by_type.setdefault(e.type, []).append(e.method)
    for type_name, names in by_type.items():
        typer.echo(f"{type_name} ({len(names)}): {'  '.join(names)}")
    typer.echo(f"total: {len(entries)} entries in {len(by_type)} types")
    typer.echo("level  nested  other  chain  depth")
    for name, k in LEVELS.items():
        typer.echo(f"{name:<6} {'yes' if k.nested_calls else 'no':<7} "
                   f"{'yes' if k.other_methods else 'no':<6} {'yes' if k.call_chain else 'no':<6} "
                   f"{k.control_flow_depth}")


def _teacher(name: str, spec_text: Optional[str], catalog: Optional[Path]) -> Teacher:
    spec: dict[str, Any] = {}
    if spec_text:
        try:
            raw = Path(spec_text[1:]).read_text() if spec_text.startswith("@") else spec_text
        except OSError as exc:
            _err(f"--teacher-spec: cannot read {spec_text[1:]}: {exc.strerror}")
        try:
            spec = json.loads(raw)
        except ValueError as exc:
            _err(f"--teacher-spec is not JSON: {exc}")
    if name == "builtin" and not spec:
        from workers.pipeline.teachers.builtin import BuiltinTeacher
        return BuiltinTeacher(catalog_path=str(catalog) if catalog else None)
    from workers.pipeline.teachers.registry import TeacherConfigError, build_teacher
    if not spec and name != "builtin":
        from execsynth.commands.common import load_settings
        spec = dict(load_settings().teachers.get(name) or {})
        if not spec:
            _err(f"unknown teacher {name!r}: configure it in settings or pass --teacher-spec")
    try:
        return build_teacher(name, spec)
    except TeacherConfigError as exc:
        _err(str(exc))
    raise AssertionError("unreachable")


def process_completion(cell: Constraint, completion: Completion, on_mismatch: str, seen: set[str],
                       naturalness: NaturalnessSpec = NaturalnessSpec()) -> tuple[dict[str, Any] | None, str | None, str]:
    """(record, None, "") for a kept program, (None, reason, detail) for a rejection: the
    batch's `generate` stage verdict (with the naturalness gate's static rules), then dedup
    within this run."""
    verdict = judge_completion(cell, completion, on_mismatch, naturalness)
    if verdict.status != ProgramStatus.KEPT:
        return None, verdict.reason, verdict.detail or ""
    digest = verdict.normalized_hash
    if digest in seen:
        return None, "duplicate", digest
    seen.add(digest)
    record = {"constraint": {"type": cell.type, "method": cell.method, "level": cell.level,
                             "knobs": knobs_to_dict(cell.knobs)},
              "measured": verdict.measured, "code": verdict.code,
              "entry_point": verdict.entry_point, "args": verdict.args, "normalized_hash": digest}
    return record, None, ""


def generate(
    levels: str = typer.Option("C1,C2,C3,C4,C5,C6", help="C1..C6 or custom:nested=1,other=0,..."),
    per_level: int = typer.Option(10, "--per-level", min=1, help="Programs requested per level."),
    seed: int = typer.Option(0, help="Batch seed: the output is a function of spec and seed."),
    out: Path = typer.Option(..., help="Output JSONL file (overwritten)."),
    teacher: str = typer.Option("builtin", help="builtin, or a configured teacher name."),
    teacher_spec: Optional[str] = typer.Option(None, help="Teacher spec as JSON or @file."),
    types: Optional[str] = typer.Option(None, help="Comma-separated types."),
    methods: Optional[str] = typer.Option(None, help="Comma-separated methods."),
    catalog: Optional[Path] = typer.Option(None, help="Extra catalog file (TOML or JSON)."),
    on_mismatch: str = typer.Option("reject", help="reject | relabel (keep, measured recorded)."),
    rejected: Optional[Path] = typer.Option(None, help="Also write rejections (with raw text)."),
) -> None:
    """Generate programs for a slice of the grid and write the kept ones as JSONL."""
    if on_mismatch not in ("reject", "relabel"):
        _err("--on-mismatch must be reject or relabel")
    for path, option in ((out, "--out"), (rejected, "--rejected")):
        if path is not None and not path.parent.is_dir():  # before any teacher call is paid for
            _err(f"{option}: no folder {path.parent}")
    level_list = [lv.strip() for lv in levels.split(";" if "custom:" in levels else ",") if lv.strip()]
    try:
        cells = select(load_catalog(catalog), _csv(types), _csv(methods), level_list,
                       per_level, seed)
    except (CatalogError, SelectionError, LevelError) as exc:
        _err(str(exc))
    client = _teacher(teacher, teacher_spec, catalog)
    requests = [generation_request(f"cli:{seed}/slot:{i}/generate", cell, seed, i) for i, cell in enumerate(cells)]
    completions = complete_all_sync(client, requests)
    reasons: Counter[str] = Counter()
    seen: set[str] = set()
    kept = 0
    rejects = rejected.open("w", encoding="utf-8") if rejected else None
    with out.open("w", encoding="utf-8") as sink:
        for i, (cell, request, completion) in enumerate(zip(cells, requests, completions)):
            text = completion.texts[0] if completion.status == "ok" and completion.texts else None
            record, reason, detail = process_completion(cell, completion, on_mismatch, seen)
            if record is None:
                reasons[reason or "unknown"] += 1
                if rejects:
                    rejects.write(json.dumps({"slot": i, "reason": reason, "detail": detail,
                                              "raw": text}) + "\n")
                continue
            kept += 1
            record = {"id": f"s{seed}-{i:06d}", **record, "prompt": list(request.messages),
                      "provenance": program_provenance(seed, teacher=client.name, model=completion.model,
                                                       prompt_template=TEMPLATE_VERSION)}
            sink.write(json.dumps(record) + "\n")
    if rejects:
        rejects.close()
    typer.echo(f"kept {kept} of {len(cells)} programs -> {out}", err=True)
    for reason, count in sorted(reasons.items()):
        typer.echo(f"rejected {reason}: {count}", err=True)


def register(root: typer.Typer) -> None:
    root.add_typer(constraints_app, name="constraints")
    root.command("generate")(generate)


app = typer.Typer(add_completion=False, no_args_is_help=True)
register(app)
