"""TRL (GRPOTrainer) parquet: a conversational `prompt` plus the columns its reward
function reads. `training.rewards.trl_reward` takes `ground_truth`; TRL passes every other
column to reward functions as keyword arguments, so they are there for custom rewards."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from training.export.formats.base import MESSAGES_TYPE, SplitFile, chat
from training.export.items import ExportItem

SCHEMA = pa.schema([
    ("prompt", MESSAGES_TYPE), ("ground_truth", pa.string()), ("data_source", pa.string()),
    ("task_type", pa.string()), ("gold_answer", pa.string()), ("sample_id", pa.int64()),
    ("split", pa.string()), ("level", pa.string()), ("constraint_type", pa.string()),
])


class TrlFormat:
    name = "trl"
    file_kind = "parquet"
    schema = SCHEMA
    needs_solutions = False
    usage = (
        "TRL: `GRPOTrainer(reward_funcs=training.rewards.trl_reward, "
        "train_dataset=load_dataset('parquet', data_files='<dir>/rl.parquet')['train'])`."
    )

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        task, row = item.task, item.row
        return {
            "prompt": chat(item, system_prompt, with_answer=False), "ground_truth": task.ground_truth(),
            "data_source": task.data_source, "task_type": task.task_type,
            "gold_answer": task.gold_answer(), "sample_id": row.sample_id, "split": item.split,
            "level": row.level, "constraint_type": row.constraint_type,
        }

    def side_files(self, files: list[SplitFile]) -> dict[str, str]:
        return {}
