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
    app(args=argv if argv is not None else sys.argv[1:], prog_name="execsynth")


if __name__ == "__main__":
    main()
