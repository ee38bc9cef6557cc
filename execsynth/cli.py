"""The `execsynth` command: one Typer app with a sub-app per command group.

Each group lives in its own module under `execsynth.commands` and exposes `app` (a Typer
sub-app) or `register(root)`; adding a group is one module and one line in COMMAND_GROUPS.
"""

from __future__ import annotations

import importlib
import sys

import typer

# group name -> module; a module exposes either `app` (mounted as a group) or
# `register(root)` (adds top-level commands).
COMMAND_GROUPS: dict[str, str] = {
    "db": "execsynth.commands.db",
    "serve": "execsynth.commands.serve",  # serve + worker
    "sandbox": "execsynth.commands.sandbox",
    "synth": "execsynth.commands.synth",
    "generate": "execsynth.commands.generate",  # constraints list + generate
    "export": "execsynth.commands.export",
    "demo": "execsynth.commands.demo",
    "apikey": "execsynth.commands.apikey",
}


def build_app() -> typer.Typer:
    root = typer.Typer(
        name="execsynth",
        help="Synthesize verified code-execution reasoning data (ExecVerify method).",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # usage errors as plain lines, not boxes
    )
    for name, module_name in COMMAND_GROUPS.items():
        module = importlib.import_module(module_name)
        if hasattr(module, "register"):
            module.register(root)
        else:
            root.add_typer(module.app, name=name)
    return root


def main(argv: list[str] | None = None) -> None:
    app = build_app()
    try:
        app(args=argv if argv is not None else sys.argv[1:], prog_name="execsynth", standalone_mode=True)
    except Exception as exc:  # what a user's environment did (no schema, a full disk), said in one line
        message = describe_failure(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        sys.exit(1)


def describe_failure(exc: BaseException) -> str | None:
    """One line for the failures a user causes or can fix; None for bugs (they keep their traceback)."""
    from sqlalchemy.exc import OperationalError, ProgrammingError

    if isinstance(exc, (OperationalError, ProgrammingError)):
        first = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc).splitlines()[0]
        if "no such table" in first or "does not exist" in first and "relation" in first:
            return f"the database has no execsynth schema ({first}); run `execsynth db upgrade`"
        return f"the database refused the write or read: {first}"
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return None


if __name__ == "__main__":
    main()
