"""verl 0.9 on the verl export: the shipped GRPO configs compose with Hydra and pass
`validate_config`, `RLHFDataset` loads the export, and the reward loop worker that verl's Ray
reward loop runs scores fake rollouts through the reward the shipped config names."""

from __future__ import annotations

from pathlib import Path

import pytest

verl = pytest.importorskip("verl")

from trainer_helpers import JUNK, MAX_REWARD  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "training" / "configs"
STAGES = ("verl_grpo_stage1", "verl_grpo_stage2")


def _compose(name: str, overrides: list[str] | None = None):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONFIGS), version_base=None):
        return compose(config_name=name, overrides=overrides or [])


def _tiny(exports: Path, tiny_model: Path) -> list[str]:
    return [f"data.train_files={exports / 'verl' / 'rl.parquet'}", f"data.val_files={exports / 'verl' / 'eval.parquet'}",
            f"actor_rollout_ref.model.path={tiny_model}", "data.train_batch_size=4", "data.max_prompt_length=4096",
            "actor_rollout_ref.actor.ppo_mini_batch_size=4", "trainer.n_gpus_per_node=1", "trainer.device=cpu"]


@pytest.mark.parametrize("name", STAGES)
def test_shipped_config_composes_and_validates(name: str) -> None:
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import validate_config

    config = _compose(name)
    reward = config.reward.custom_reward_function
    assert reward.path == "pkg://training.rewards" and reward.name == "compute_score"
    assert config.custom_reward_function.path is None  # nothing left where only fully_async reads it
    expected = {"verl_grpo_stage1": {"alpha": 0.5}, "verl_grpo_stage2": {"format_bonus": 0.05}}[name]
    assert dict(reward.reward_kwargs) == expected
    assert config.algorithm.adv_estimator == "grpo" and config.actor_rollout_ref.rollout.n == 8
    assert config.data.train_batch_size == 128 and config.actor_rollout_ref.actor.ppo_mini_batch_size == 64
    validate_config(config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config))


def test_the_reward_function_the_config_names_loads_from_the_installed_module(rewards_module) -> None:
    from verl.trainer.ppo.reward import get_custom_reward_fn

    fn = get_custom_reward_fn(_compose("verl_grpo_stage1"))
    assert fn.func.__name__ == "_call_with_kwargs" and fn.args[0] is rewards_module.compute_score
    assert fn.args[1] == {"alpha": 0.5}


def _dataset(exports: Path, tiny_model: Path):
    from transformers import AutoTokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    config = _compose("verl_grpo_stage1", _tiny(exports, tiny_model))
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    return config, tokenizer, RLHFDataset(data_files=[str(exports / "verl" / "rl.parquet")], tokenizer=tokenizer,
                                          config=config.data)


def test_rlhf_dataset_loads_the_export(exports: Path, tiny_model: Path) -> None:
    import pyarrow.parquet as pq

    _, _, dataset = _dataset(exports, tiny_model)
    assert len(dataset) == pq.read_metadata(exports / "verl" / "rl.parquet").num_rows == 32
    row = dataset[0]
    assert row["raw_prompt"][-1]["role"] == "user" and "```python" in row["raw_prompt"][-1]["content"]
    assert row["data_source"].startswith("execsynth/")
    assert row["reward_model"]["style"] == "rule" and row["reward_model"]["ground_truth"].startswith("{")
    assert {dataset[i]["data_source"] for i in range(len(dataset))} == {"execsynth/io_whitebox", "execsynth/oi"}


def _rollouts(dataset, tokenizer, responses: list[str]):
    """A DataProto as the rollout hands it to the reward loop: prompt + response ids, the mask
    over both, and the row's non-tensor fields."""
    import numpy as np
    import torch
    from verl import DataProto

    rows = [dataset[i] for i in range(len(responses))]
    prompts = [tokenizer.apply_chat_template(r["raw_prompt"], add_generation_prompt=True, tokenize=True) for r in rows]
    prompts = [list(p["input_ids"]) if hasattr(p, "keys") else list(p) for p in prompts]
    answers = [tokenizer(text + tokenizer.eos_token, add_special_tokens=False)["input_ids"] for text in responses]
    p_len, r_len, pad = max(map(len, prompts)), max(map(len, answers)), tokenizer.pad_token_id
    prompt_ids = torch.tensor([[pad] * (p_len - len(p)) + p for p in prompts])
    response_ids = torch.tensor([a + [pad] * (r_len - len(a)) for a in answers])
    mask = torch.tensor([[0] * (p_len - len(p)) + [1] * len(p) + [1] * len(a) + [0] * (r_len - len(a))
                         for p, a in zip(prompts, answers, strict=True)])
    non_tensors = {key: np.array([r[key] for r in rows], dtype=object)
                   for key in ("data_source", "reward_model", "extra_info")}
    return DataProto.from_dict(
        tensors={"prompts": prompt_ids, "responses": response_ids, "attention_mask": mask,
                 "input_ids": torch.cat([prompt_ids, response_ids], dim=1)},
        non_tensors=non_tensors)


def test_reward_loop_worker_scores_gold_maximum_and_junk_zero(exports: Path, tiny_model: Path) -> None:
    from training.training_tasks import Task
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    config, tokenizer, dataset = _dataset(exports, tiny_model)
    worker = RewardLoopWorker(config)  # what each Ray reward worker builds from the shipped config
    n = len(dataset)
    gold = [Task.from_ground_truth(dataset[i]["reward_model"]["ground_truth"]).gold_answer() for i in range(n)]

    async def score(responses: list[str]) -> list[dict]:
        return await worker.compute_score_batch(_rollouts(dataset, tokenizer, responses))

    gold_scores = worker.loop.run_until_complete(score(gold))  # the loop verl bound the worker to
    assert [s["reward_score"] for s in gold_scores] == [MAX_REWARD] * n
    junk_scores = worker.loop.run_until_complete(score([JUNK] * n))
    assert [s["reward_score"] for s in junk_scores] == [0.0] * n
