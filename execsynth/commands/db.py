"""`execsynth db upgrade|downgrade|current`: schema migrations of the configured database."""

from __future__ import annotations

import typer

from app.db import migrate
from execsynth.commands.common import console, fail, load_settings

app = typer.Typer(help="Database schema migrations (Alembic).", no_args_is_help=True)


@app.command()
def upgrade(revision: str = typer.Argument("head", help="target revision")) -> None:
    """Migrate the configured database up to REVISION (default: head)."""
    settings = load_settings()
    try:
        migrate.upgrade(settings.database_url, revision)
    except Exception as exc:  # alembic/driver errors become one line and exit 1
        fail(f"upgrade failed: {type(exc).__name__}: {exc}")
    console.print(f"database at revision {migrate.current_revision(settings.database_url)}")


@app.command()
def downgrade(revision: str = typer.Argument("base", help="target revision; 'base' drops every table")) -> None:
    """Migrate the configured database down to REVISION (default: base)."""
    settings = load_settings()
    try:
        migrate.downgrade(settings.database_url, revision)
    except Exception as exc:
        fail(f"downgrade failed: {type(exc).__name__}: {exc}")
    console.print(f"database at revision {migrate.current_revision(settings.database_url)}")


@app.command()
def current() -> None:
    """Print the database's revision and the code's head revision."""
    settings = load_settings()
    typer.echo(f"current: {migrate.current_revision(settings.database_url)}")
    typer.echo(f"head:    {migrate.head_revision()}")
