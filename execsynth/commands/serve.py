"""`execsynth serve` (API, plus a worker in embedded mode) and `execsynth worker`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import typer

from app.core.celery import QUEUES
from app.db import migrate
from execsynth.commands.common import console, fail, load_settings


def _queues(value: str) -> list[str]:
    names = [q.strip() for q in value.split(",") if q.strip()]
    unknown = sorted(set(names) - set(QUEUES))
    if unknown or not names:
        raise typer.BadParameter(f"unknown queue(s) {unknown or value!r}; choose from {', '.join(QUEUES)}")
    return names


def worker_argv(queues: list[str], concurrency: int | None, pool: str, loglevel: str,
                beat_schedule: str | None = None) -> list[str]:
    """Celery worker arguments; with `beat_schedule` the worker also runs beat (the embedded
    mode's single worker: stalled-batch recovery and scheduled exports)."""
    argv = ["worker", "-Q", ",".join(queues), "--pool", pool, "--loglevel", loglevel, "--without-mingle", "--without-gossip"]
    if concurrency:
        argv += ["--concurrency", str(concurrency)]
    if beat_schedule:
        argv += ["--beat", "--schedule", beat_schedule]
    return argv


def beat_schedule_file(settings) -> str:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return str(settings.data_dir / "celerybeat-schedule")


def _die_with_parent() -> None:
    """uvicorn re-raises SIGTERM after its shutdown, so our `finally` may never run: ask the
    kernel to stop the embedded worker when the server process dies (Linux PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1
    except OSError:
        pass


def register(root: typer.Typer) -> None:
    @root.command()
    def serve(
        host: str = typer.Option(None, help="bind address (default: settings.api.host)"),
        port: int = typer.Option(None, min=1, max=65535, help="port (default: settings.api.port)"),
        worker: bool = typer.Option(None, "--worker/--no-worker", help="also run a worker (default: on in embedded mode)"),
        migrate_db: bool = typer.Option(None, "--migrate/--no-migrate", help="upgrade the schema first (default: on in embedded mode)"),
    ) -> None:
        """Start the REST API; in embedded mode also a worker, so one command is a whole service."""
        import uvicorn

        settings = load_settings()
        embedded = settings.embedded
        if migrate_db if migrate_db is not None else embedded:
            try:
                migrate.upgrade(settings.database_url)
            except Exception as exc:
                fail(f"could not migrate {settings.database_url}: {exc}")
        child = None
        if worker if worker is not None else embedded:
            # embedded: the one worker also runs beat, so stalled batches are recovered here too
            schedule = beat_schedule_file(settings) if embedded else None
            argv = [sys.executable, "-m", "celery", "-A", "workers.celery_app",
                    *worker_argv(list(QUEUES), None, "solo" if embedded else "prefork", settings.log_level, schedule)]
            child = subprocess.Popen(argv, env=os.environ.copy(), preexec_fn=_die_with_parent)
            console.print(f"worker started (pid {child.pid}) on queues {', '.join(QUEUES)}"
                          + (" with beat (stalled-batch recovery, scheduled exports)" if schedule else ""))
        bind_host, bind_port = host or settings.api.host, port or settings.api.port
        console.print(f"API on http://{bind_host}:{bind_port}  (mode: {'embedded' if embedded else 'production'})")
        try:
            uvicorn.run("app.main:create_app", factory=True, host=bind_host, port=bind_port, log_level=settings.log_level.lower())
        finally:
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)
                try:
                    child.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    child.kill()

    @root.command()
    def worker(
        queues: str = typer.Option(",".join(QUEUES), "--queues", "-Q", help="comma-separated queues to consume"),
        concurrency: int = typer.Option(None, "--concurrency", "-c", min=1, help="processes (default: cores)"),
        pool: str = typer.Option("prefork", help="prefork | solo | threads"),
    ) -> None:
        """Start a Celery worker consuming the given queues."""
        if pool not in ("prefork", "solo", "threads"):
            raise typer.BadParameter("pool must be prefork, solo or threads")
        settings = load_settings()
        from workers.celery_app import celery_app

        celery_app.worker_main(worker_argv(_queues(queues), concurrency, pool, settings.log_level))

    @root.command()
    def beat(
        schedule: str = typer.Option(None, help="beat's schedule file (default: <data dir>/celerybeat-schedule)"),
    ) -> None:
        """Start Celery beat: stalled-batch recovery and the scheduled (nightly) exports. Run one."""
        settings = load_settings()
        from workers.celery_app import celery_app

        celery_app.start(["beat", "--schedule", schedule or beat_schedule_file(settings), "--loglevel", settings.log_level])
