"""`execsynth demo`: the main job in one command, on embedded defaults. A batch across C1-C6
with the builtin teacher, then the verl (RL) and LLaMA-Factory (SFT) exports with their
dataset cards, and where to find the files and the dashboard."""

from __future__ import annotations

import math
from dataclasses import replace

import typer

from execsynth.commands.common import console, fail, load_settings
from execsynth.commands.synth import print_funnel, run_batch, spec_from_options, start_batch
# the reference's split sizes add up to about this many samples (METHOD.md section 4)
REFERENCE_TOTAL = 63_500


def scaled_spec(fmt: str, accepted: int, batch_id: int, write: tuple[str, ...]):
    """The reference split preset, scaled down to what one batch produced."""
    from training.export import ExportSpec
    from training.export.spec import TaskQuota

    spec = ExportSpec.from_dict({"preset": "reference", "format": fmt, "batch_ids": [batch_id], "write": list(write)})
    scale = min(1.0, accepted / REFERENCE_TOTAL)
    splits = tuple(
        replace(split, tasks=tuple(TaskQuota(q.task_type, max(1, math.floor((q.count or 0) * scale))) for q in split.tasks))
        for split in spec.splits
    )
    return replace(spec, splits=splits)


def _next_seed(settings) -> int:
    """0 in a new store; after that the first seed no batch used, so a second demo makes new
    programs instead of duplicates of the first (programs are deduplicated across batches)."""
    from app.db import migrate
    from app.db.session import session_scope
    from app.synthesis.repository import used_seeds

    if settings.database_url.startswith("sqlite"):
        if not (settings.data_dir / "execsynth.sqlite3").exists():
            return 0
        migrate.upgrade(settings.database_url)
    with session_scope(settings.database_url) as session:
        used = used_seeds(session)
    seed = next(s for s in range(len(used) + 1) if s not in used)
    if used:
        console.print(f"this data dir already holds {len(used)} batch seed(s); this demo uses seed {seed} "
                      f"(new programs; pass --seed to choose, or EXECSYNTH_DATA_DIR for a fresh store)")
    return seed


def register(root: typer.Typer) -> None:
    @root.command()
    def demo(
        programs: int = typer.Option(600, "--programs", "-n", min=6, max=1_000_000, envvar="EXECSYNTH_DEMO_PROGRAMS", help="programs in the batch"),
        seed: int = typer.Option(None, "--seed", min=0, help="default: 0 in a new data dir, then the next unused seed"),
    ) -> None:
        """Generate a C1-C6 batch with the builtin teacher and export it for verl and LLaMA-Factory."""
        from execsynth.commands.export import run_recorded

        settings = load_settings()
        if seed is None:
            seed = _next_seed(settings)
        spec = spec_from_options(programs=programs, seed=seed, teacher="builtin")  # every level, the spec's defaults
        batch_id = start_batch(settings, spec)
        console.rule(f"[bold]batch {batch_id}: {programs} programs over C1-C6, builtin teacher, seed {seed}")
        funnel = run_batch(settings, batch_id, programs, chunk_size=64)
        print_funnel(funnel)
        accepted = funnel["total"]["accepted"]
        if not accepted:
            fail("the batch accepted no sample; nothing to export (rejections by reason are above; "
                 "a fresh data dir, EXECSYNTH_DATA_DIR, or another --seed gives new programs)")
        out_root = settings.exports_dir / f"batch-{batch_id}"
        written = {}
        for fmt, splits in (("verl", ("rl", "eval")), ("llamafactory", ("sft",))):
            # recorded like any export (listed by GET /v1/exports and on the dashboard)
            written[fmt] = run_recorded(settings, scaled_spec(fmt, accepted, batch_id, splits), out_root / fmt, overwrite=True)
        console.rule("[bold]done")
        console.print(f"{accepted} accepted samples in {funnel['seconds']} s")
        for fmt, result in written.items():
            console.print(f"[bold]{fmt}[/bold] export: {result.out_dir}")
            for f in result.files:
                rows = "" if f["rows"] is None else f"  ({f['rows']} rows)"
                console.print(f"    {f['path']}{rows}")
        console.print(f"database: {settings.database_url}")
        console.print(
            f"dashboard: run `execsynth serve` (from this folder) and open "
            f"http://{settings.api.host}:{settings.api.port}/dashboard"
        )
