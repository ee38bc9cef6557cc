"""The export-format contract: a format turns an `ExportItem` into one record, names its
file kind (parquet or JSONL) and may add side files (LLaMA-Factory's `dataset_info.json`).

Adding a format is one module and one line in `formats.FORMATS` (STYLE.md item 11).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import pyarrow as pa

from training.export.items import ExportItem

ABILITY = "code_execution"


@dataclass(frozen=True)
class SplitFile:
    split: str
    path: str  # relative to the export folder
    rows: int


class ExportFormat(Protocol):
    name: str
    file_kind: str  # "parquet" | "jsonl"
    schema: pa.Schema | None  # parquet only
    needs_solutions: bool  # SFT formats use the teacher's stored solution when there is one
    usage: str  # markdown for the dataset card

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]: ...

    def side_files(self, files: list[SplitFile]) -> dict[str, str]: ...


def chat(item: ExportItem, system_prompt: str | None, with_answer: bool) -> list[dict[str, str]]:
    """OpenAI-style messages: optional system, the user prompt, optionally the answer."""
    messages = [{"role": "system", "content": system_prompt}] if system_prompt else []
    messages.append({"role": "user", "content": item.task.prompt()})
    if with_answer:
        messages.append({"role": "assistant", "content": item.response()})
    return messages


MESSAGES_TYPE = pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
