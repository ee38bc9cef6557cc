"""`execsynth apikey create|list|revoke`: API keys for the REST API.

The key is printed once by `create` (stdout, so it can be captured by a script); only its
sha256 is stored, so a lost key is revoked and replaced, never recovered.
"""

from __future__ import annotations

import typer
from rich.table import Table

from app.apikeys import service
from app.apikeys.schemas import ApiKeyCreate
from app.core.errors import NotFound
from app.db.session import session_scope
from execsynth.commands.common import console, fail, load_settings, validation_problems

app = typer.Typer(help="API keys for the REST API (stored hashed).", no_args_is_help=True)


@app.command()
def create(
    name: str = typer.Option(..., "--name", help="who or what uses the key"),
    rate_limit: int | None = typer.Option(None, "--rate-limit", min=1, help="requests per minute (default: the API setting)"),
    note: str | None = typer.Option(None, "--note"),
) -> None:
    """Create a key and print it once."""
    settings = load_settings()
    from pydantic import ValidationError

    try:
        data = ApiKeyCreate(name=name, rate_limit_per_minute=rate_limit, note=note)
    except ValidationError as exc:
        fail(f"invalid key options: {validation_problems(exc)}", code=2)
    with session_scope(settings.database_url) as session:
        created = service.create(session, data)
    console.print(f"created API key {created.id} ({created.name}); store it now, it is not shown again:")
    typer.echo(created.key)


@app.command("list")
def list_keys(include_revoked: bool = typer.Option(True, "--include-revoked/--active-only")) -> None:
    """List keys (prefix only; the keys themselves are not stored)."""
    settings = load_settings()
    with session_scope(settings.database_url) as session:
        keys = service.list_keys(session, include_revoked)
    table = Table("id", "name", "prefix", "rate/min", "created", "last used", "revoked")
    for k in keys:
        table.add_row(str(k.id), k.name, k.prefix + "...", str(k.rate_limit_per_minute or "default"),
                      k.created_at.isoformat(timespec="seconds"),
                      k.last_used_at.isoformat(timespec="seconds") if k.last_used_at else "-",
                      k.revoked_at.isoformat(timespec="seconds") if k.revoked_at else "-")
    from rich.console import Console

    Console(width=160).print(table)


@app.command()
def revoke(key_id: int = typer.Argument(..., min=1, help="the key's id (see `apikey list`)")) -> None:
    """Revoke a key: requests with it get 403 from now on."""
    settings = load_settings()
    try:
        with session_scope(settings.database_url) as session:
            key = service.revoke(session, key_id)
    except NotFound as exc:
        fail(exc.detail)
    console.print(f"revoked API key {key.id} ({key.name}) at {key.revoked_at.isoformat(timespec='seconds')}")
