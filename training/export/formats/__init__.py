"""Export formats by name (a registry: one module and one line per format)."""

from __future__ import annotations

from training.export.formats.base import ExportFormat, SplitFile
from training.export.formats.jsonl import LlamaFactoryFormat, OpenAIFormat, OpenRLHFFormat
from training.export.formats.trl import TrlFormat
from training.export.formats.verl import VerlFormat

FORMATS: dict[str, ExportFormat] = {
    f.name: f for f in (VerlFormat(), LlamaFactoryFormat(), OpenAIFormat(), TrlFormat(), OpenRLHFFormat())
}

__all__ = ["FORMATS", "ExportFormat", "SplitFile"]
