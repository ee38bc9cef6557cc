"""`execsynth synth`: run a whole batch in this process (generation -> inputs -> execution
filter -> difficulty -> questions) into the configured store, with a progress bar and a
final funnel table per level."""

from __future__ import annotations

import itertools
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from app.core.config import Settings
from app.db import migrate
from app.db.session import session_scope
from app.synthesis.batches import create_batch
from app.synthesis.funnel import STAGES, funnel_by_level
from app.synthesis import repository as repo
from execsynth.commands.common import console, fail, load_settings


IN_FLIGHT = 3  # chunks at once (bench/pipeline.py on 2 cores: 2 -> 4,285/min, 3 -> 4,624-4,798, 4 -> 4,249)


def _csv(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def build_spec(levels, types, methods, programs, inputs_per_program, mutation, solver, keep_band, k, llm_mutation) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "programs": programs, "levels": levels, "inputs_per_program": inputs_per_program,
        "mutation": mutation, "llm_mutation": llm_mutation,
        "difficulty": {"mode": "solver" if solver else "features", "k": k},
    }
    if types:
        spec["types"] = types
    if methods:
        spec["methods"] = methods
    if solver:
        spec["difficulty"]["solver"] = solver
    if keep_band:
        spec["difficulty"]["keep_band"] = keep_band
    return spec


def validate_spec(spec: dict[str, Any], seed: int, teacher: str, settings: Settings) -> None:
    """Fail before writing anything: unknown levels/types/methods/teachers, bad counts."""
    from workers.pipeline.constraints import LevelError, SelectionError, load_catalog
    from workers.pipeline.plan import BatchPlan
    from workers.runner.plan import batch_constraints

    for name in filter(None, (teacher, spec["difficulty"].get("solver"))):
        if name != "builtin" and name not in settings.teachers:
            fail(f"unknown teacher {name!r}; configured: builtin{''.join(', ' + t for t in sorted(settings.teachers))}", 2)
    try:
        batch_constraints(load_catalog(), BatchPlan.from_spec(spec, seed))
    except (SelectionError, LevelError, ValueError) as exc:
        fail(str(exc), 2)


def run_batch(settings: Settings, batch_id: int, programs: int, chunk_size: int, show_progress: bool = True) -> dict[str, Any]:
    from workers.runner.deps import close_all, stage_deps
    from workers.runner.stages import STAGES as STAGE_FUNCS

    scope = lambda: session_scope(settings.database_url)  # noqa: E731
    deps = stage_deps(settings)
    started = time.monotonic()
    columns = (TextColumn("[bold]synth"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[funnel]}"), TimeElapsedColumn(), TimeRemainingColumn())
    def run_chunk(slots: list[int]) -> int:
        for stage in STAGE_FUNCS.values():
            stage(scope, deps, batch_id, slots)
        return len(slots)

    chunks = [list(range(start, min(programs, start + chunk_size))) for start in range(0, programs, chunk_size)]
    try:
        with Progress(*columns, console=console, disable=not show_progress) as progress:
            task = progress.add_task("programs", total=programs, funnel="")
            # several chunks in flight: while one waits on the sandbox's child processes, the
            # others do their Python work (parsing, features, questions, writes)
            with ThreadPoolExecutor(max_workers=IN_FLIGHT, thread_name_prefix="chunk") as pool:
                pending = {pool.submit(run_chunk, chunk) for chunk in chunks[:IN_FLIGHT]}
                queued = iter(chunks[IN_FLIGHT:])
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        progress.advance(task, future.result())
                    with scope() as session:
                        counters = repo.funnel_counts(session, batch_id)
                        status = repo.batch_status(session, batch_id)
                    samples = counters["samples"]
                    accepted = samples.get("accepted", 0)
                    rejected = sum(n for key, n in samples.items() if key.startswith("rejected"))
                    progress.update(task, funnel=f"accepted {accepted}  rejected {rejected}")
                    if status not in ("pending", "running"):
                        continue  # cancelled or out of budget: let in-flight chunks end, start none
                    for chunk in itertools.islice(queued, len(done)):
                        pending.add(pool.submit(run_chunk, chunk))
    finally:
        close_all()
    with scope() as session:
        repo.store_counters(session, batch_id)
        if repo.batch_status(session, batch_id) in ("pending", "running"):
            repo.set_batch_status(session, batch_id, "completed", finished_at=repo.now())
        funnel = funnel_by_level(session, batch_id)
        funnel["status"] = repo.batch_status(session, batch_id)
    funnel["seconds"] = round(time.monotonic() - started, 2)
    return funnel


def estimator_report(settings: Settings, batch_id: int) -> dict[str, Any] | None:
    """How well the feature estimator agrees with the solver, on samples that have both."""
    from sqlalchemy import select

    from app.db.models import Sample
    from workers.pipeline.difficulty import estimator_fit

    with session_scope(settings.database_url) as session:
        rows = session.execute(
            select(Sample.difficulty_score, Sample.solver_passes, Sample.solver_k)
            .where(Sample.batch_id == batch_id, Sample.solver_k > 0, Sample.difficulty_score.is_not(None))
        ).all()
    if not rows:
        return None
    return estimator_fit([r[0] for r in rows], [r[1] / r[2] for r in rows])


def print_funnel(funnel: dict[str, Any]) -> None:
    """Stages as rows, levels as columns (narrow terminals keep every number readable)."""
    levels = list(funnel["levels"])
    table = Table(title="funnel (programs, then samples = program x input)", title_justify="left")
    table.add_column("stage")
    for level in levels:
        table.add_column(level, justify="right")
    table.add_column("total", justify="right", style="bold")
    for stage in STAGES:
        table.add_row(stage.replace("_", " "), *(str(funnel["levels"][lv][stage]) for lv in levels), str(funnel["total"][stage]))
    console.print(table)
    if funnel["reasons"]:
        reasons = Table(title="rejections by reason", title_justify="left")
        reasons.add_column("reason")
        reasons.add_column("count", justify="right")
        for reason, n in sorted(funnel["reasons"].items(), key=lambda kv: -kv[1]):
            reasons.add_row(reason, str(n))
        console.print(reasons)


def register(root: typer.Typer) -> None:
    @root.command()
    def synth(
        programs: int = typer.Option(..., "--programs", "-n", min=1, max=10_000_000, help="programs to generate"),
        seed: int = typer.Option(0, "--seed", min=0, help="every item is a function of (seed, stage, index)"),
        levels: str = typer.Option("C1,C2,C3,C4,C5,C6", "--levels", help="comma-separated levels C1..C6"),
        types: str = typer.Option(None, "--types", help="comma-separated types (default: all)"),
        methods: str = typer.Option(None, "--methods", help="comma-separated methods (default: all)"),
        inputs_per_program: int = typer.Option(3, "--inputs-per-program", "-k", min=1, max=50),
        teacher: str = typer.Option(None, "--teacher", help="builtin or a configured teacher name"),
        solver: str = typer.Option(None, "--solver", help="configured teacher used as the student for pass@k"),
        k: int = typer.Option(10, "--solver-k", min=1, max=100, help="solver predictions per sample"),
        keep_band: str = typer.Option(None, "--keep-band", help="LO,HI in [0,1]: keep samples whose solve rate (solver passes/k, or the feature estimate) lies in the band; default: 0,0.3 with a solver, none without"),
        mutation: bool = typer.Option(False, "--mutation/--no-mutation", help="also keep AST mutants of each program"),
        llm_mutation: bool = typer.Option(True, "--llm-mutation/--no-llm-mutation", help="ask the teacher for one rewritten input per program"),
        chunk_size: int = typer.Option(64, "--chunk-size", min=1, max=10_000),
        quiet: bool = typer.Option(False, "--quiet", help="no progress bar"),
    ) -> None:
        """Generate, verify and store one batch in this process; prints the funnel per level."""
        settings = load_settings()
        teacher_name = teacher or settings.default_teacher
        band = None
        if keep_band:
            try:
                lo, hi = (float(x) for x in keep_band.split(","))
            except ValueError:
                fail("--keep-band must be two numbers LO,HI", 2)
            if not 0.0 <= lo <= hi <= 1.0:
                fail("--keep-band: need 0 <= LO <= HI <= 1", 2)
            band = [lo, hi]
        spec = build_spec(_csv(levels) or [], _csv(types), _csv(methods), programs, inputs_per_program, mutation, solver, band, k, llm_mutation)
        validate_spec(spec, seed, teacher_name, settings)
        if settings.database_url.startswith("sqlite"):
            migrate.upgrade(settings.database_url)
        with session_scope(settings.database_url) as session:
            batch_id = create_batch(session, spec, seed, teacher_name, status="running").id
        console.print(f"batch {batch_id}: {programs} programs, levels {','.join(spec['levels'])}, teacher {teacher_name}, seed {seed}")
        funnel = run_batch(settings, batch_id, programs, chunk_size, show_progress=not quiet)
        print_funnel(funnel)
        fit = estimator_report(settings, batch_id)
        if fit is not None:
            spearman = "n/a" if fit["spearman"] is None else f"{fit['spearman']:.3f}"
            console.print(
                f"feature estimator vs solver on {fit['n']} samples: Spearman {spearman}, "
                f"same level {fit['exact_agreement']:.0%}, within one level {fit['within_one']:.0%}"
            )
        accepted = funnel["total"]["accepted"]
        rate = accepted / funnel["seconds"] * 60 if funnel["seconds"] else 0.0
        console.print(f"batch {batch_id} {funnel['status']}: {accepted} accepted samples in {funnel['seconds']} s ({rate:.0f}/min)")
        typer.echo(batch_id)
