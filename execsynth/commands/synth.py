"""`execsynth synth`: run a whole batch in this process (generation -> inputs -> execution
filter -> difficulty -> questions) into the configured store, with a progress bar and a
final funnel table per level."""

from __future__ import annotations

import itertools
import os
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from app.batches import repository as batch_queries
from app.batches.service import InvalidSpec, start_in_process
from app.core.config import Settings
from app.db import migrate
from app.db.models import Program, Sample
from app.db.session import session_scope
from app.synthesis import repository as repo
from app.synthesis.funnel import STAGES, funnel_by_level, stage
from execsynth.commands.common import console, fail, load_settings, validation_problems
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.lifecycle import BATCH_ACTIVE, BatchStatus

IN_FLIGHT = 3  # chunks at once (bench/pipeline.py on 2 cores: 2 -> 4,285/min, 3 -> 4,624-4,798, 4 -> 4,249)


def csv_list(value: str | None) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()] if value else []


def spec_from_options(**options: Any) -> BatchSpec:
    """The CLI's options as a BatchSpec (options left at None take the spec's defaults), or a
    one-line error naming what is wrong."""
    from pydantic import ValidationError

    difficulty = {k: options.pop(k) for k in ("mode", "solver", "keep_band", "k") if options.get(k) is not None}
    if difficulty.get("solver"):
        difficulty.setdefault("mode", "solver")
    if difficulty:
        options["difficulty"] = difficulty
    try:
        return BatchSpec(**{k: v for k, v in options.items() if v is not None})
    except ValidationError as exc:
        fail(validation_problems(exc), 2)
        raise AssertionError("unreachable") from None


def start_batch(settings: Settings, spec: BatchSpec) -> int:
    """Validate the spec against this deployment, migrate an embedded store, and write the
    batch as running (this process runs it): the same checks and row as a POST."""
    if settings.database_url.startswith("sqlite"):
        migrate.upgrade(settings.database_url)
    try:
        with session_scope(settings.database_url) as session:
            return start_in_process(session, settings, spec).id
    except InvalidSpec as exc:
        fail(str(exc), 2)
        raise AssertionError("unreachable") from None


def run_batch(settings: Settings, batch_id: int, programs: int, chunk_size: int, show_progress: bool = True) -> dict[str, Any]:
    from workers.pipeline.teachers.builtin import set_default_processes
    from workers.runner.deps import close_all, stage_deps
    from workers.runner.stages import RUNNERS

    # the builtin teacher writes programs in processes of its own (unless its config says
    # otherwise): the stages here are threads of one interpreter, and generation was half
    # of its CPU
    set_default_processes(os.cpu_count() or 1)

    scope = lambda: session_scope(settings.database_url)  # noqa: E731
    deps = stage_deps(settings)
    started = time.monotonic()
    columns = (TextColumn("[bold]synth"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[funnel]}"), TimeElapsedColumn(), TimeRemainingColumn())

    def run_chunk(slots: list[int]) -> int:
        for runner in RUNNERS.values():
            runner(scope, deps, batch_id, slots)
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
                        programs = stage("programs", batch_queries.status_counts(session, Program, batch_id))
                        samples = stage("samples", batch_queries.status_counts(session, Sample, batch_id))
                        status = repo.batch_status(session, batch_id)
                    progress.update(task, funnel=f"programs kept {programs.passed} rejected {programs.rejected}  "
                                                 f"samples accepted {samples.passed} rejected {samples.rejected}")
                    if status not in BATCH_ACTIVE:
                        continue  # cancelled or out of budget: let in-flight chunks end, start none
                    for chunk in itertools.islice(queued, len(done)):
                        pending.add(pool.submit(run_chunk, chunk))
    finally:
        close_all()
    with scope() as session:
        repo.move_batch(session, batch_id, BatchStatus.COMPLETED, finished_at=repo.now())
        funnel = funnel_by_level(session, batch_id)
        batch = repo.get_batch(session, batch_id)
        funnel.update(status=batch.status, error=batch.error, prompt_tokens=batch.prompt_tokens,
                      completion_tokens=batch.completion_tokens, cost_usd=batch.cost_usd)
    funnel["seconds"] = round(time.monotonic() - started, 2)
    return funnel


def estimator_report(settings: Settings, batch_id: int) -> dict[str, Any] | None:
    """How well the feature estimator agrees with the solver, on samples that have both."""
    from sqlalchemy import select

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
    for name in STAGES:
        table.add_row(name.replace("_", " "), *(str(funnel["levels"][lv][name]) for lv in levels), str(funnel["total"][name]))
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
        programs: int = typer.Option(..., "--programs", "-n", min=1, max=1_000_000, help="programs to generate"),
        seed: int = typer.Option(0, "--seed", min=0, help="every item is a function of (seed, stage, index)"),
        levels: str = typer.Option(None, "--levels", help="comma-separated levels C1..C6 (default: all six)"),
        types: str = typer.Option(None, "--types", help="comma-separated types (default: all)"),
        methods: str = typer.Option(None, "--methods", help="comma-separated methods (default: all)"),
        inputs_per_program: int = typer.Option(None, "--inputs-per-program", "-k", help="inputs per program (default: 3)"),
        teacher: str = typer.Option(None, "--teacher", help="builtin or a configured teacher name (default: EXECSYNTH_DEFAULT_TEACHER)"),
        solver: str = typer.Option(None, "--solver", help="configured teacher used as the student for pass@k"),
        k: int = typer.Option(None, "--solver-k", help="solver predictions per sample (default: 10)"),
        keep_band: str = typer.Option(None, "--keep-band", help="LO,HI in [0,1]: keep samples whose solve rate (solver passes/k, or the feature estimate) lies in the band; default: 0,0.3 with a solver, none without"),
        require_teacher_solves: bool = typer.Option(None, "--require-teacher-solves/--no-require-teacher-solves", help="keep a sample only when the teacher solves it once (default: off)"),
        mutation: bool = typer.Option(None, "--mutation/--no-mutation", help="also keep AST mutants of each program (default: off)"),
        mutants_per_program: int = typer.Option(None, "--mutants-per-program", help="AST mutants per program (default: 1)"),
        llm_mutation: bool = typer.Option(None, "--llm-mutation/--no-llm-mutation", help="ask the teacher for one rewritten input per program (default: on)"),
        on_mismatch: str = typer.Option(None, "--on-mismatch", help="reject | relabel programs whose structure differs from the request (default: reject)"),
        naturalness: bool = typer.Option(None, "--naturalness/--no-naturalness", help="the naturalness gate (default: on)"),
        skip_check: list[str] = typer.Option([], "--skip-check", help="a naturalness check to skip (repeatable)"),
        max_tokens: int = typer.Option(None, "--max-tokens", help="stop generating once the batch used this many teacher tokens"),
        max_cost_usd: float = typer.Option(None, "--max-cost-usd", help="stop generating once the batch cost this much"),
        chunk_size: int = typer.Option(64, "--chunk-size", min=1, max=10_000),
        quiet: bool = typer.Option(False, "--quiet", help="no progress bar"),
    ) -> None:
        """Generate, verify and store one batch in this process; prints the funnel per level."""
        settings = load_settings()
        band = None
        if keep_band:
            try:
                band = tuple(float(x) for x in keep_band.split(","))
            except ValueError:
                fail("--keep-band must be two numbers LO,HI", 2)
        budget = {k: v for k, v in (("max_tokens", max_tokens), ("max_cost_usd", max_cost_usd)) if v is not None}
        spec = spec_from_options(
            programs=programs, seed=seed, levels=csv_list(levels) or None, types=csv_list(types), methods=csv_list(methods),
            inputs_per_program=inputs_per_program, teacher=teacher, solver=solver, k=k, keep_band=band,
            mutation=mutation, mutants_per_program=mutants_per_program, llm_mutation=llm_mutation,
            on_mismatch=on_mismatch, budget=budget or None,
            naturalness={k: v for k, v in (("enabled", naturalness), ("skip", tuple(skip_check) or None)) if v is not None} or None,
        )
        if require_teacher_solves is not None:
            spec = spec.model_copy(update={"difficulty": spec.difficulty.model_copy(update={"require_teacher_solves": require_teacher_solves})})
        batch_id = start_batch(settings, spec)
        teacher_name = spec.teacher or settings.default_teacher
        console.print(f"batch {batch_id}: {programs} programs, levels {','.join(spec.level_names)}, teacher {teacher_name}, seed {seed}")
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
        if funnel["prompt_tokens"] or funnel["completion_tokens"]:
            console.print(f"teacher usage: {funnel['prompt_tokens']:,} prompt + {funnel['completion_tokens']:,} completion tokens, "
                          f"${funnel['cost_usd']:.4f}")
        console.print(f"batch {batch_id} {funnel['status']}: {accepted} accepted samples in {funnel['seconds']} s ({rate:.0f}/min)")
        typer.echo(batch_id)
        if funnel["status"] == BatchStatus.FAILED:
            fail(f"batch {batch_id} failed: {funnel['error']}")
