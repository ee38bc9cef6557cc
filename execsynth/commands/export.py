"""`execsynth export`: write trainer-ready splits from the configured database.

A thin caller of `app.exports.runner.execute` (the worker task calls the same function):
build a spec from the options (or a JSON spec file), record an `exports` row (kind manual),
export with a progress bar per split, print what was written. The row makes CLI exports
visible in GET /v1/exports next to the API's and the schedule's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from execsynth.commands.common import console, fail, load_settings

FORMAT_HELP = "verl | llamafactory | openai | trl | openrlhf"


def _parse_sizes(values: list[str]) -> dict[tuple[str, str], int | None]:
    """`rl.oi=1000` -> {("rl", "oi"): 1000}; `all` as the count means every eligible sample."""
    sizes: dict[tuple[str, str], int | None] = {}
    for value in values:
        key, sep, count = value.partition("=")
        split, dot, task = key.partition(".")
        if not sep or not dot or not split or not task:
            raise typer.BadParameter(f"expected SPLIT.TASK=COUNT, got {value!r}", param_hint="--size")
        if count == "all":
            sizes[(split, task)] = None
            continue
        try:
            sizes[(split, task)] = int(count)
        except ValueError:
            raise typer.BadParameter(f"count must be an integer or 'all', got {count!r}", param_hint="--size") from None
    return sizes


def export(
    fmt: str = typer.Option(..., "--format", "-f", help=FORMAT_HELP),
    split: list[str] = typer.Option([], "--split", "-s", help="split to write (repeatable; default: all)"),
    out: Path | None = typer.Option(None, "--out", "-o", help="output folder (default: <data_dir>/exports/<format>-<spec hash>)"),
    spec_file: Path | None = typer.Option(None, "--spec", help="JSON export spec; options below override it"),
    preset: str = typer.Option("reference", help="split sizes preset when no --spec is given"),
    size: list[str] = typer.Option([], "--size", help="SPLIT.TASK=COUNT, e.g. rl.oi=1000 or sft.io=all"),
    seed: int | None = typer.Option(None, help="split/ordering seed"),
    batch: list[int] = typer.Option([], "--batch", help="only samples of these batch ids"),
    level: list[str] = typer.Option([], "--level", help="only these levels (C1..C6, custom)"),
    curriculum: bool | None = typer.Option(None, "--curriculum/--shuffle", help="order rows easy -> hard"),
    benchmark: list[Path] = typer.Option([], "--benchmark", help="contamination reference JSONL (repeatable)"),
    style: str | None = typer.Option(None, help="answer style: tags | json"),
    system_prompt: str | None = typer.Option(None, help="system message to prepend"),
    overwrite: bool = typer.Option(False, help="replace a previous export in --out"),
) -> None:
    """Export curated, disjoint splits (SFT / RL / eval) in a trainer's format."""
    from training.export import ExportSpec, ExportSpecError

    settings = load_settings()
    store = settings.data_dir / "execsynth.sqlite3"
    if settings.database_url == f"sqlite:///{store.as_posix()}" and not store.exists():
        fail(f"no data yet in {settings.data_dir} (no {store.name}): run `execsynth demo` or `execsynth synth` first, "
             "or point EXECSYNTH_DATA_DIR / EXECSYNTH_DATABASE_URL at your store", 2)
    try:
        data = json.loads(spec_file.read_text()) if spec_file else {"preset": preset}
    except (OSError, ValueError) as exc:
        fail(f"cannot read spec {spec_file}: {exc}", 2)
    data["format"] = fmt
    overrides = {"write": split, "batch_ids": batch, "levels": level,
                 "benchmarks": [str(p.resolve()) for p in benchmark]}
    data.update({k: v for k, v in overrides.items() if v})
    for key, value in (("seed", seed), ("curriculum", curriculum), ("style", style), ("system_prompt", system_prompt)):
        if value is not None:
            data[key] = value
    try:
        spec = ExportSpec.from_dict(data).with_sizes(_parse_sizes(size))
    except ExportSpecError as exc:
        fail(str(exc), 2)
    _check_references(settings, spec)
    if out is None:
        digest = hashlib.sha256(json.dumps(spec.to_dict(), sort_keys=True).encode()).hexdigest()[:12]
        out = settings.exports_dir / f"{spec.format}-{digest}"
    result = run_recorded(settings, spec, out, overwrite)
    for f in result.files:
        rows = "" if f["rows"] is None else f"{f['rows']:>9} rows  "
        console.print(f"  {f['path']:<22} {rows}{f['bytes']:>12} bytes  sha256 {f['sha256'][:16]}")
    for warning in result.manifest.get("warnings", []):
        console.print(f"[yellow]warning:[/yellow] {warning}")
    typer.echo(json.dumps({"export_id": result.id, "out_dir": result.out_dir, "samples": result.sample_count,
                           "content_sha256": result.manifest["content_sha256"],
                           "seconds": round((result.finished_at - result.created_at).total_seconds(), 2)}))


def _check_references(settings, spec) -> None:
    """Unknown batches and missing benchmark files are one-line errors before anything runs."""
    from app.db.session import session_scope
    from app.exports.service import InvalidExportSpec, check_references

    try:
        with session_scope(settings.database_url) as session:
            check_references(session, spec)
    except InvalidExportSpec as exc:
        fail(exc.detail, 2)


def run_recorded(settings, spec, out: Path, overwrite: bool):
    """Record the run as an `exports` row and execute it here, with a progress bar; the row
    (done or failed, with the error) is what this returns or reports."""
    from app.db.models import Export
    from app.db.session import session_scope
    from app.exports import repository, runner

    def scope():
        return session_scope(settings.database_url)

    with scope() as session:
        export_id = repository.add(session, Export(
            kind="manual", format=spec.format, spec=spec.to_dict(), status="pending", out_dir=str(out.resolve()),
            files=[], sample_count=0, attempts=0)).id
    columns = (TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(), TextColumn("rows"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        tasks: dict[str, int] = {}

        def progress(split: str, done: int, total: int) -> None:
            if split not in tasks:
                tasks[split] = bar.add_task(split, total=total)
            bar.update(tasks[split], completed=done)

        try:
            runner.execute(scope, export_id, settings.exports_dir, overwrite=overwrite, progress=progress)
        except Exception as exc:
            runner.record_failure(scope, export_id, runner.describe(exc), final=True)
            raise
    with scope() as session:
        row = repository.get(session, export_id)
    if row.status != "done":
        fail(f"export {export_id} failed: {row.error}")
    return row


def register(root: typer.Typer) -> None:
    root.command("export")(export)


app = typer.Typer(help="Trainer-ready exports.", add_completion=False)
register(app)
