"""The example training configs carry the reference hyperparameters (METHOD.md section 7)
and point at files and names that exist."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
CONFIGS = ROOT / "training" / "configs"


@pytest.mark.parametrize("name", ["verl_grpo_stage1.yaml", "verl_grpo_stage2.yaml"])
def test_verl_configs_use_the_reference_recipe(name):
    cfg = yaml.safe_load((CONFIGS / name).read_text())
    assert cfg["algorithm"] == {"adv_estimator": "grpo", "use_kl_in_reward": False}
    actor, rollout = cfg["actor_rollout_ref"]["actor"], cfg["actor_rollout_ref"]["rollout"]
    assert rollout["n"] == 8 and cfg["data"]["train_batch_size"] == 128
    assert actor["ppo_mini_batch_size"] == 64 and actor["optim"]["lr"] == 1e-6
    assert actor["use_kl_loss"] is False and cfg["data"]["max_response_length"] == 4096
    # verl 0.9's main_ppo reads only reward.custom_reward_function; pkg:// is an installed module
    assert "custom_reward_function" not in cfg
    reward = cfg["reward"]["custom_reward_function"]
    assert reward["path"].startswith("pkg://") and reward["name"] == "compute_score"
    module = importlib.import_module(reward["path"].removeprefix("pkg://"))
    assert callable(getattr(module, reward["name"]))


def test_llamafactory_config_matches_the_exported_dataset_info(db, tmp_path):
    from tests.training.export.conftest import small_spec

    cfg = yaml.safe_load((CONFIGS / "llamafactory_sft.yaml").read_text())
    assert cfg["stage"] == "sft" and cfg["model_name_or_path"] == "Qwen/Qwen2.5-Coder-7B-Instruct"
    db.export(small_spec("llamafactory"), tmp_path / "lf")
    info = json.loads((tmp_path / "lf" / "dataset_info.json").read_text())
    assert cfg["dataset"] in info and info[cfg["dataset"]]["formatting"] == "sharegpt"
