"""The export-format contract: a format turns an `ExportItem` into one record, names its
file kind (parquet or JSONL) and may add side files (LLaMA-Factory's `dataset_info.json`).

Chat formats (LLaMA-Factory, OpenAI) carry the target in every split. The RL formats (verl,
TRL, OpenRLHF) write their RL layout for RL and eval splits and their trainer's SFT layout
for an SFT split (`sft`, or a name starting with `sft_`), so each trainer's SFT loader reads
that file as it is. Adding a format is one module and one line in `formats.FORMATS`
(STYLE.md item 11).
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
    usage: str  # markdown for the dataset card

    def schema_for(self, split: str) -> pa.Schema | None: ...  # parquet only

    def carries_targets(self, split: str) -> bool: ...  # records hold an SFT assistant turn

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]: ...

    def side_files(self, files: list[SplitFile], system_prompt: str | None) -> dict[str, str]: ...


def is_sft_split(split: str) -> bool:
    return split == "sft" or split.startswith("sft_")


class ChatLayout:
    """For chat SFT formats: JSON lines with the target in every split."""

    def schema_for(self, split: str) -> pa.Schema | None:
        return None

    def carries_targets(self, split: str) -> bool:
        return True


class SftSplitLayout:
    """For RL formats: the RL layout (`rl_schema`) for RL and eval splits, the trainer's SFT
    layout (`sft_schema`, with the target) for SFT splits."""

    rl_schema: pa.Schema | None = None
    sft_schema: pa.Schema | None = None

    def schema_for(self, split: str) -> pa.Schema | None:
        return self.sft_schema if is_sft_split(split) else self.rl_schema

    def carries_targets(self, split: str) -> bool:
        return is_sft_split(split)


def chat(item: ExportItem, system_prompt: str | None, with_answer: bool) -> list[dict[str, str]]:
    """OpenAI-style messages: optional system, the user prompt, optionally the answer."""
    messages = [{"role": "system", "content": system_prompt}] if system_prompt else []
    messages.append({"role": "user", "content": item.task.prompt()})
    if with_answer:
        messages.append({"role": "assistant", "content": item.response()})
    return messages


def sft_meta(item: ExportItem) -> dict[str, Any]:
    """The columns every SFT layout adds beside the conversation."""
    row = item.row
    return {"data_source": item.task.data_source, "task_type": item.task.task_type,
            "target_source": item.target()[1], "sample_id": row.sample_id, "program_id": row.program_id,
            "batch_id": row.batch_id, "split": item.split,
            "level": row.level, "constraint_type": row.constraint_type}


SFT_META_FIELDS = [
    ("data_source", pa.string()), ("task_type", pa.string()), ("target_source", pa.string()),
    ("sample_id", pa.int64()), ("program_id", pa.int64()), ("batch_id", pa.int64()), ("split", pa.string()), ("level", pa.string()), ("constraint_type", pa.string()),
]


MESSAGES_TYPE = pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
