"""`execsynth export`: write trainer-ready splits from the configured database.

A thin caller of `training.export.run_export` (the API calls the same function): build a
spec from the options (or a JSON spec file), open a session, export, print what was written.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import typer

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
    from training.export import ExportError, ExportSpec, ExportSpecError, run_export

    settings = load_settings()
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
    if out is None:
        digest = hashlib.sha256(json.dumps(spec.to_dict(), sort_keys=True).encode()).hexdigest()[:12]
        out = settings.exports_dir / f"{spec.format}-{digest}"
    from app.db.session import session_scope

    try:
        with session_scope(settings.database_url) as session:
            result = run_export(session, spec, out, overwrite=overwrite)
    except ExportSpecError as exc:
        fail(str(exc), 2)
    except ExportError as exc:
        fail(str(exc))
    for f in result.files:
        rows = "" if f["rows"] is None else f"{f['rows']:>9} rows  "
        console.print(f"  {f['path']:<22} {rows}{f['bytes']:>12} bytes  sha256 {f['sha256'][:16]}")
    typer.echo(json.dumps({"out_dir": result.out_dir, "samples": result.sample_count,
                           "content_sha256": result.manifest["content_sha256"],
                           "seconds": round(result.seconds, 2)}))


def register(root: typer.Typer) -> None:
    root.command("export")(export)


app = typer.Typer(help="Trainer-ready exports.", add_completion=False)
register(app)
