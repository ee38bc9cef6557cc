"""What every generated program records about where it came from (STYLE.md item 10)."""

from __future__ import annotations

import platform
from importlib import metadata
from typing import Any

PYTHON_VERSION = platform.python_version()
try:
    CODE_VERSION = metadata.version("execsynth")
except metadata.PackageNotFoundError:  # run from a source tree that was never installed
    CODE_VERSION = "unknown"


def program_provenance(seed: int, *, teacher: str | None = None, model: str | None = None,
                       prompt_template: str | None = None, mutation: str | None = None,
                       parent_id: int | None = None) -> dict[str, Any]:
    """One shape for programs from a teacher and for their mutants (absent facts left out)."""
    facts = {"seed": seed, "python": PYTHON_VERSION, "code_version": CODE_VERSION, "teacher": teacher,
             "model": model, "prompt_template": prompt_template, "mutation": mutation, "parent_id": parent_id}
    return {key: value for key, value in facts.items() if value is not None}
