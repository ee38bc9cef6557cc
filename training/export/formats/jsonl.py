"""The JSON-lines formats: OpenAI chat SFT, LLaMA-Factory ShareGPT, OpenRLHF prompts."""

from __future__ import annotations

import json
from typing import Any

from training.export.formats.base import SplitFile, chat
from training.export.items import ExportItem


class OpenAIFormat:
    """`{"messages": [...]}` per line: the chat fine-tuning format most SFT tools read.
    Only `messages` is written (OpenAI's own fine-tuning rejects unknown keys)."""

    name = "openai"
    file_kind = "jsonl"
    schema = None
    needs_solutions = True
    usage = "OpenAI-style chat SFT: each line is `{\"messages\": [...]}` (user prompt, assistant answer)."

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        return {"messages": chat(item, system_prompt, with_answer=True)}

    def side_files(self, files: list[SplitFile]) -> dict[str, str]:
        return {}


class LlamaFactoryFormat:
    """ShareGPT records (`conversations` of `from`/`value` turns) plus the matching
    `dataset_info.json`, so `dataset_dir=<dir> dataset=execsynth_sft` works unchanged."""

    name = "llamafactory"
    file_kind = "jsonl"
    schema = None
    needs_solutions = True
    usage = ("LLaMA-Factory: `dataset_dir: <dir>` and `dataset: execsynth_sft` "
             "(entries are in `dataset_info.json`).")

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        turns = [{"from": "human" if m["role"] == "user" else "gpt", "value": m["content"]}
                 for m in chat(item, None, with_answer=True)]
        record: dict[str, Any] = {"conversations": turns}
        if system_prompt:
            record["system"] = system_prompt
        return record

    def side_files(self, files: list[SplitFile]) -> dict[str, str]:
        info = {}
        for f in files:
            entry: dict[str, Any] = {
                "file_name": f.path, "formatting": "sharegpt",
                "columns": {"messages": "conversations", "system": "system"},
                "tags": {"role_tag": "from", "content_tag": "value", "user_tag": "human", "assistant_tag": "gpt"},
            }
            info[f"execsynth_{f.split}"] = entry
        return {"dataset_info.json": json.dumps(info, indent=2, sort_keys=True) + "\n"}


class OpenRLHFFormat:
    """`input` (the prompt text) and `label` (the ground-truth string the reward reads):
    `--input_key input --label_key label --remote_rm_url <training/rewards/__init__.py>`."""

    name = "openrlhf"
    file_kind = "jsonl"
    schema = None
    needs_solutions = False
    usage = ("OpenRLHF: `--prompt_data <dir>/rl.jsonl --input_key input --label_key label "
             "--apply_chat_template` with `reward_func` from `training.rewards`.")

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        task, row = item.task, item.row
        prompt = task.prompt() if not system_prompt else f"{system_prompt}\n\n{task.prompt()}"
        return {"input": prompt, "label": task.ground_truth(), "datasource": task.data_source,
                "task_type": task.task_type, "sample_id": row.sample_id, "split": item.split}

    def side_files(self, files: list[SplitFile]) -> dict[str, str]:
        return {}
