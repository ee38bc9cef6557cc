"""Curated, disjoint splits and trainer-ready exports (verl, LLaMA-Factory, OpenAI, TRL,
OpenRLHF) with a manifest, a dataset card and a contamination check.

The one layer of `training` that may use pyarrow and read the database (`app.db`); the rest
of `training` stays standard-library so trainers can import the rewards alone.

The public names are loaded on first use (PEP 562): the row-building worker processes
import `training.export.worker`, which must not pull in SQLAlchemy and the ORM models
through this package (the service does).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ExportSpec": "spec", "SplitSpec": "spec", "TaskQuota": "spec", "PRESETS": "spec",
    "ExportResult": "service", "run_export": "service", "plan_export": "service",
    "ExportError": "errors", "ExportSpecError": "errors", "BenchmarkFileError": "errors",
    "OutputDirError": "errors",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
