"""TRL parquet. RL splits (GRPOTrainer): a conversational `prompt` plus the columns its
reward function reads; `training.rewards.trl_reward` takes `ground_truth`, and TRL passes
every other column to reward functions as keyword arguments. SFT splits (SFTTrainer):
conversational prompt-completion, `prompt` (user turns) and `completion` (the assistant
turn), so the loss is on the completion only."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from training.export.formats.base import (
    MESSAGES_TYPE, SFT_META_FIELDS, SftSplitLayout, SplitFile, chat, is_sft_split, sft_meta,
)
from training.export.items import ExportItem

SCHEMA = pa.schema([
    ("prompt", MESSAGES_TYPE), ("ground_truth", pa.string()), ("data_source", pa.string()),
    ("task_type", pa.string()), ("gold_answer", pa.string()), ("sample_id", pa.int64()),
    ("split", pa.string()), ("level", pa.string()), ("constraint_type", pa.string()),
])
SFT_SCHEMA = pa.schema([("prompt", MESSAGES_TYPE), ("completion", MESSAGES_TYPE), *SFT_META_FIELDS])


class TrlFormat(SftSplitLayout):
    name = "trl"
    file_kind = "parquet"
    rl_schema = SCHEMA
    sft_schema = SFT_SCHEMA
    usage = (
        "TRL RL: `GRPOTrainer(reward_funcs=training.rewards.trl_reward, "
        "train_dataset=load_dataset('parquet', data_files='<dir>/rl.parquet')['train'])`. "
        "TRL SFT: `SFTTrainer(train_dataset=load_dataset('parquet', data_files='<dir>/sft.parquet')['train'])` "
        "(conversational prompt + completion)."
    )

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        task, row = item.task, item.row
        if is_sft_split(item.split):
            return {"prompt": chat(item, system_prompt, with_answer=False),
                    "completion": [{"role": "assistant", "content": item.response()}], **sft_meta(item)}
        return {
            "prompt": chat(item, system_prompt, with_answer=False), "ground_truth": task.ground_truth(),
            "data_source": task.data_source, "task_type": task.task_type,
            "gold_answer": task.gold_answer(), "sample_id": row.sample_id, "split": item.split,
            "level": row.level, "constraint_type": row.constraint_type,
        }

    def side_files(self, files: list[SplitFile], system_prompt: str | None) -> dict[str, str]:
        return {}
