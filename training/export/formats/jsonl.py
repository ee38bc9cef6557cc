"""The JSON-lines formats: OpenAI chat SFT, LLaMA-Factory ShareGPT, OpenRLHF prompts and
OpenRLHF SFT pairs."""

from __future__ import annotations

import json
from typing import Any

from training.export.formats.base import ChatLayout, SftSplitLayout, SplitFile, chat, is_sft_split, sft_meta
from training.export.items import ExportItem


class OpenAIFormat(ChatLayout):
    """`{"messages": [...]}` per line: the chat fine-tuning format most SFT tools read.
    Only `messages` is written (OpenAI's own fine-tuning rejects unknown keys)."""

    name = "openai"
    file_kind = "jsonl"
    usage = "OpenAI-style chat SFT: each line is `{\"messages\": [...]}` (user prompt, assistant answer)."

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        return {"messages": chat(item, system_prompt, with_answer=True)}

    def side_files(self, files: list[SplitFile], system_prompt: str | None) -> dict[str, str]:
        return {}


class LlamaFactoryFormat(ChatLayout):
    """ShareGPT records (`conversations` of `from`/`value` turns) plus the matching
    `dataset_info.json`, so `dataset_dir=<dir> dataset=execsynth_sft` works unchanged. The
    `system` column is mapped only when the rows have one (LLaMA-Factory reads every mapped
    column and fails on a missing one)."""

    name = "llamafactory"
    file_kind = "jsonl"
    usage = ("LLaMA-Factory: `dataset_dir: <dir>` and `dataset: execsynth_sft` "
             "(entries are in `dataset_info.json`).")

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        turns = [{"from": "human" if m["role"] == "user" else "gpt", "value": m["content"]}
                 for m in chat(item, None, with_answer=True)]
        record: dict[str, Any] = {"conversations": turns}
        if system_prompt:
            record["system"] = system_prompt
        return record

    def side_files(self, files: list[SplitFile], system_prompt: str | None) -> dict[str, str]:
        info = {}
        columns = {"messages": "conversations", **({"system": "system"} if system_prompt else {})}
        for f in files:
            entry: dict[str, Any] = {
                "file_name": f.path, "formatting": "sharegpt", "columns": dict(columns),
                "tags": {"role_tag": "from", "content_tag": "value", "user_tag": "human", "assistant_tag": "gpt"},
            }
            info[f"execsynth_{f.split}"] = entry
        return {"dataset_info.json": json.dumps(info, indent=2, sort_keys=True) + "\n"}


class OpenRLHFFormat(SftSplitLayout):
    """RL splits: `input` (the prompt text) and `label` (the ground-truth string the reward
    reads): `--data.input_key input --data.label_key label --reward.remote_url <training/rewards/__init__.py>`.
    SFT splits: `input` and `output` (the target): `--data.input_key input --data.output_key output`
    (OpenRLHF 0.11's flag spelling)."""

    name = "openrlhf"
    file_kind = "jsonl"
    usage = ("OpenRLHF RL: `--data.prompt_dataset <dir>/rl.jsonl --data.input_key input --data.label_key label "
             "--data.apply_chat_template --reward.remote_url <installed training/rewards/__init__.py>` "
             "(training/configs/openrlhf_grpo.sh). OpenRLHF SFT: `--data.dataset <dir>/sft.jsonl "
             "--data.input_key input --data.output_key output --data.apply_chat_template`.")

    def record(self, item: ExportItem, system_prompt: str | None) -> dict[str, Any]:
        task, row = item.task, item.row
        prompt = task.prompt() if not system_prompt else f"{system_prompt}\n\n{task.prompt()}"
        if is_sft_split(item.split):
            return {"input": prompt, "output": item.response(), **sft_meta(item)}
        return {"input": prompt, "label": task.ground_truth(), "datasource": task.data_source,
                "task_type": task.task_type, "sample_id": row.sample_id, "split": item.split}

    def side_files(self, files: list[SplitFile], system_prompt: str | None) -> dict[str, str]:
        return {}
