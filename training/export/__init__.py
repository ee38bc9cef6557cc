"""Curated, disjoint splits and trainer-ready exports (verl, LLaMA-Factory, OpenAI, TRL,
OpenRLHF) with a manifest, a dataset card and a contamination check.

The one layer of `training` that may use pyarrow and read the database (`app.db`); the rest
of `training` stays standard-library so trainers can import the rewards alone.
"""

from training.export.errors import BenchmarkFileError, ExportError, ExportSpecError, OutputDirError
from training.export.service import ExportResult, plan_export, run_export
from training.export.spec import PRESETS, ExportSpec, SplitSpec, TaskQuota

__all__ = [
    "ExportSpec", "SplitSpec", "TaskQuota", "PRESETS", "ExportResult", "run_export", "plan_export",
    "ExportError", "ExportSpecError", "BenchmarkFileError", "OutputDirError",
]
