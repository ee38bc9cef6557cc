"""verl RL parquet: `data_source`, `prompt` (chat messages), `ability`, `reward_model`
(`style: "rule"`, `ground_truth` as the task's JSON string) and `extra_info`. An SFT split
is written for verl's multi-turn SFT dataset instead: `messages` (user and assistant turns,
`data.multiturn.enable=true data.multiturn.messages_key=messages`).

The reward is `training.rewards.compute_score`, which reads exactly these fields, so
`custom_reward_function.path=<training/rewards/__init__.py> name=compute_score` works as is.
`extra_info` has a fixed struct schema (parquet needs one); the free-form parts (question
records with their grading payloads, provenance) are JSON strings inside it.
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

from training.export.formats.base import (
    ABILITY, MESSAGES_TYPE, SFT_META_FIELDS, SftSplitLayout, SplitFile, chat, is_sft_split, sft_meta,
)
from training.export.items import ExportItem
from training.export.jsontext import dumps_sorted, dumps_sorted_ascii
from training.training_tasks import Task

EXTRA_INFO_TYPE = pa.struct([
    ("index", pa.int64()), ("split", pa.string()), ("task_type", pa.string()),
    ("function_source", pa.string()), ("entry_point", pa.string()), ("args", pa.string()),
    ("result", pa.string()), ("result_type", pa.string()), ("questions", pa.list_(pa.string())),
    ("gold_answers", pa.list_(pa.string())), ("gold_answer", pa.string()), ("style", pa.string()),
    ("prompt_version", pa.string()), ("hash_seed", pa.int64()), ("question_records", pa.string()),
    ("sample_id", pa.int64()), ("program_id", pa.int64()), ("batch_id", pa.int64()),
    ("level", pa.string()), ("difficulty_level", pa.string()), ("constraint_type", pa.string()),
    ("constraint_method", pa.string()), ("provenance", pa.string()),
])

SCHEMA = pa.schema([
    ("data_source", pa.string()), ("prompt", MESSAGES_TYPE), ("ability", pa.string()),
    ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
    ("extra_info", EXTRA_INFO_TYPE),
])
SFT_SCHEMA = pa.schema([("messages", MESSAGES_TYPE), *SFT_META_FIELDS])


_SLOT = "\x00questions\x00"
_SLOT_JSON = json.dumps(_SLOT)


def ground_truth(task: Task, question_json: str) -> str:
    """`task.ground_truth()` without encoding the questions a second time: `question_json`
    is the row's `question_records` (the same dicts, sorted keys). ASCII-only it is also
    exactly what `ensure_ascii` encoding gives, so it is put in place of a placeholder; with
    any other character, or a placeholder that is not unique, the plain encoding is used."""
    if not question_json.isascii():
        return task.ground_truth()
    data = task.to_dict()
    data["questions"] = _SLOT
    text = dumps_sorted_ascii(data)
    head, slot, tail = text.partition(_SLOT_JSON)
    if not slot or _SLOT_JSON in tail:
        return task.ground_truth()
    return head + question_json + tail


class VerlFormat(SftSplitLayout):
    name = "verl"
    file_kind = "parquet"
    rl_schema = SCHEMA
    sft_schema = SFT_SCHEMA
    usage = (
        "verl RL: `data.train_files=<dir>/rl.parquet data.val_files=<dir>/eval.parquet "
        "custom_reward_function.path=<execsynth>/training/rewards/__init__.py "
        "custom_reward_function.name=compute_score`. verl SFT: `data.train_files=<dir>/sft.parquet "
        "data.multiturn.enable=true data.multiturn.messages_key=messages`."
    )

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        task, row = item.task, item.row
        if is_sft_split(item.split):
            return {"messages": chat(item, system_prompt, with_answer=True), **sft_meta(item)}
        extra = task.extra_info()
        records = dumps_sorted(extra["question_records"])
        extra["question_records"] = records
        extra.update(index=item.index, split=item.split, sample_id=row.sample_id,
                     program_id=row.program_id, batch_id=row.batch_id, level=row.level,
                     difficulty_level=row.difficulty_level, constraint_type=row.constraint_type,
                     constraint_method=row.constraint_method, provenance=item.provenance_json())
        return {
            "data_source": task.data_source,
            "prompt": chat(item, system_prompt, with_answer=False),
            "ability": ABILITY,
            "reward_model": {"style": "rule", "ground_truth": ground_truth(task, records)},
            "extra_info": extra,
        }

    def side_files(self, files: list[SplitFile], system_prompt: str | None) -> dict[str, str]:
        return {}
