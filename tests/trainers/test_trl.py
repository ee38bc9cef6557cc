"""TRL on the TRL export: GRPO with `training.rewards.trl_reward` as is, and SFT."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

trl = pytest.importorskip("trl")

from trainer_helpers import JUNK, MAX_REWARD, trained_parameters_changed  # noqa: E402



def _load(path: Path):
    from datasets import load_dataset

    return load_dataset("parquet", data_files=str(path), split="train")


def _common(tmp_path: Path) -> dict:
    return {"output_dir": str(tmp_path / "out"), "max_steps": 2, "learning_rate": 1e-3, "logging_steps": 1,
            "report_to": [], "save_strategy": "no", "use_cpu": True, "bf16": False, "seed": 0,
            "dataloader_num_workers": 0}


def test_grpo_trains_with_the_shipped_reward_and_gold_replays_score_the_maximum(
        exports: Path, tiny_model: Path, tmp_path: Path, rewards_module) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    dataset = _load(exports / "trl" / "rl.parquet")
    assert {"prompt", "ground_truth"} <= set(dataset.column_names)
    assert {"io_whitebox", "oi"} <= set(dataset["task_type"])
    seen: list[dict] = []
    noise = random.Random(0)

    def recorder(completions, **kwargs):
        """Sees exactly what trl_reward sees. A random model earns 0 from execsynth's reward on
        every completion (no advantage, no gradient), so this adds seeded noise to make the
        optimiser step observable."""
        seen.append({"completions": completions, **kwargs})
        return [noise.random() for _ in completions]

    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    before = {k: v.detach().clone() for k, v in model.named_parameters()}
    config = GRPOConfig(**_common(tmp_path), per_device_train_batch_size=4, num_generations=4,
                        max_completion_length=12, reward_weights=[1.0, 1.0], temperature=1.0)
    trainer = GRPOTrainer(model=model, reward_funcs=[rewards_module.trl_reward, recorder], args=config,
                          train_dataset=dataset, processing_class=AutoTokenizer.from_pretrained(tiny_model))
    trainer.train()

    steps = [log for log in trainer.state.log_history if "rewards/execsynth_reward/mean" in log]
    assert len(steps) == 2
    # a random model writes no answer block: the white-box reward gives it 0, not an error
    assert all(log["rewards/execsynth_reward/mean"] == 0.0 for log in steps)
    assert trained_parameters_changed(before, model)

    # the gold answers, passed through the very kwargs GRPO gave the reward, score the maximum
    assert seen and all("ground_truth" in call for call in seen)
    for call in seen:
        kwargs = {k: v for k, v in call.items() if k not in ("completions", "prompts", "completion_ids")}
        gold = [[{"role": "assistant", "content": g}] for g in call["gold_answer"]]
        assert rewards_module.trl_reward(completions=gold, prompts=call["prompts"], **kwargs) == [MAX_REWARD] * len(gold)
        junk = [[{"role": "assistant", "content": JUNK}]] * len(gold)
        assert rewards_module.trl_reward(completions=junk, prompts=call["prompts"], **kwargs) == [0.0] * len(gold)
    scored_types = {t for call in seen for t in call["task_type"]}
    assert scored_types, "GRPO passed no task_type column to the reward"


def test_gold_answers_of_every_rl_row_score_the_maximum(exports: Path, rewards_module) -> None:
    dataset = _load(exports / "trl" / "rl.parquet")
    gold = [[{"role": "assistant", "content": g}] for g in dataset["gold_answer"]]
    scores = rewards_module.trl_reward(completions=gold, ground_truth=dataset["ground_truth"])
    assert scores == [MAX_REWARD] * len(dataset)
    assert "oi" in set(dataset["task_type"])  # O->I answers went through the sandbox


def test_sft_trains_on_prompt_completion(exports: Path, tiny_model: Path, tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    dataset = _load(exports / "trl" / "sft.parquet")
    assert {"prompt", "completion"} <= set(dataset.column_names), dataset.column_names
    first = dataset[0]
    assert first["prompt"][-1]["role"] == "user" and first["completion"][0]["role"] == "assistant"
    assert first["completion"][0]["content"].strip()

    model = AutoModelForCausalLM.from_pretrained(tiny_model)
    before = {k: v.detach().clone() for k, v in model.named_parameters()}
    config = SFTConfig(**_common(tmp_path), per_device_train_batch_size=2, max_length=4096)
    trainer = SFTTrainer(model=model, args=config, train_dataset=dataset,
                         processing_class=AutoTokenizer.from_pretrained(tiny_model))
    trainer.train()

    losses = [log["loss"] for log in trainer.state.log_history if "loss" in log]
    assert len(losses) == 2 and all(math.isfinite(x) and x > 0 for x in losses)
    assert trained_parameters_changed(before, model)
