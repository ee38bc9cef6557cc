"""`execsynth sandbox`: run one program, or a JSONL batch, in the sandbox.

`run FILE --entry NAME --args "..." [--trace]` prints one result as JSON.
`batch [--trace] [--workers N] < in.jsonl > out.jsonl` implements the JSONL contract of
ARCHITECTURE.md: one output line per input line, same id, in completion order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

import typer

from sandbox import Job, Limits, Sandbox
from sandbox.errors import SandboxUnavailable
from sandbox.jsonl import InvalidLine, error_line, job_from_line, result_line

app = typer.Typer(help="Run untrusted Python in the sandbox.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)

ISOLATION_HELP = "namespaces (default, isolated) or rlimits (no isolation, warns loudly)"


def _limits(timeout: float, memory_mb: int) -> Limits:
    try:
        return Limits(timeout_s=timeout, memory_mb=memory_mb)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.command("run")
def run_command(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, readable=True,
                                help="Python module holding the entry point"),
    entry: str = typer.Option(..., "--entry", help="function to call"),
    args: str = typer.Option("", "--args", help="exact source text between the parentheses"),
    trace: bool = typer.Option(False, "--trace", help="record an interpreter trace"),
    hash_seed: int = typer.Option(0, "--hash-seed", help="PYTHONHASHSEED of the run"),
    timeout: float = typer.Option(5.0, "--timeout", help="wall time limit in seconds"),
    memory_mb: int = typer.Option(512, "--memory-mb", help="address-space limit"),
    isolation: str = typer.Option("namespaces", "--isolation", help=ISOLATION_HELP),
) -> None:
    """Run FILE's ENTRY(ARGS) once and print the result as JSON."""
    try:
        job = Job(id=file.name, code=file.read_text(encoding="utf-8"), entry_point=entry,
                  args=args, trace=trace, hash_seed=hash_seed)
    except (TypeError, ValueError, UnicodeDecodeError) as exc:
        _fail(str(exc))
    try:
        with Sandbox(isolation=isolation, workers=1, limits=_limits(timeout, memory_mb)) as sb:
            result = sb.run(job)
    except (SandboxUnavailable, ValueError) as exc:
        _fail(str(exc), 3)
    typer.echo(json.dumps(result.to_dict(), indent=2))
    if result.status == "sandbox_error":
        raise typer.Exit(3)


@app.command("batch")
def batch_command(
    trace: bool = typer.Option(False, "--trace", help="trace lines without a 'trace' key"),
    workers: int = typer.Option(0, "--workers", min=0, help="parallel runs (0: all cores)"),
    timeout: float = typer.Option(5.0, "--timeout", help="wall time limit per run"),
    memory_mb: int = typer.Option(512, "--memory-mb", help="address-space limit per run"),
    isolation: str = typer.Option("namespaces", "--isolation", help=ISOLATION_HELP),
) -> None:
    """Read JSONL jobs on stdin, write one JSONL result per line on stdout."""
    limits = _limits(timeout, memory_mb)
    out = sys.stdout
    raw_ids: dict[str, object] = {}  # the contract echoes ids as given (7 stays 7)
    try:
        with Sandbox(isolation=isolation, workers=workers or None, limits=limits) as sb:

            def jobs() -> Iterator[Job]:
                for number, line in enumerate(sys.stdin, start=1):
                    if not line.strip():
                        continue
                    try:
                        job = job_from_line(line, number, trace)
                        raw_ids[job.id] = json.loads(line)["id"]
                        yield job
                    except InvalidLine as exc:
                        typer.echo(f"warning: {exc}", err=True)
                        out.write(error_line(exc) + "\n")
                        out.flush()

            for result in sb.run_iter(jobs()):
                out.write(result_line(result, raw_ids.get(result.id, result.id)) + "\n")
                out.flush()
    except (SandboxUnavailable, ValueError) as exc:
        _fail(str(exc), 3)
