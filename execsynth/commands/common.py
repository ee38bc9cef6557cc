"""Helpers shared by CLI commands: settings loading with a clean error, console output."""

from __future__ import annotations

import typer
from rich.console import Console

from app.core.config import Settings, SettingsError, get_settings

console = Console(stderr=True, soft_wrap=True)  # an error stays one line, whatever the terminal width


def load_settings() -> Settings:
    """Settings or a one-line error and exit code 2 (never a traceback for bad config)."""
    try:
        return get_settings()
    except SettingsError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None


def fail(message: str, code: int = 1) -> None:
    console.print(f"[red]error:[/red] {message}", markup=True, highlight=False)
    raise typer.Exit(code)


def validation_problems(exc) -> str:
    """A pydantic ValidationError as one line: `field: message (got value)`; ..."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or "value"
        given = error.get("input")
        shown = f" (got {given!r})" if isinstance(given, (str, int, float)) and not isinstance(given, bool) else ""
        parts.append(f"{where}: {error['msg'].removeprefix('Value error, ')}{shown}")
    return "; ".join(parts)
