"""Typed errors of the export layer; the API maps `ExportSpecError` to 422-style detail
and the CLI prints it as one line, so a bad request never surfaces as a traceback."""

from __future__ import annotations


class ExportError(Exception):
    """Base of every error raised by `training.export`."""


class ExportSpecError(ExportError, ValueError):
    """The export request is invalid (unknown format, split, task type, bad sizes...)."""


class BenchmarkFileError(ExportError, ValueError):
    """A contamination benchmark file is missing or holds no usable code."""


class OutputDirError(ExportError, OSError):
    """The output folder cannot be used (not empty, not writable)."""
