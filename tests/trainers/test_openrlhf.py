"""OpenRLHF 0.11 on the OpenRLHF export: `train_ppo_ray` accepts the shipped launch command
(parsed and validated up to `ray.init`), `PromptDataset` loads the export through the parsed
arguments, and the single-turn executor calls `reward_func` on fake rollouts."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("openrlhf")

from trainer_helpers import JUNK, MAX_REWARD, stand_in_gpu_only_packages  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ROOT / "training" / "configs" / "openrlhf_grpo.sh"
REACHED_TRAIN = 86  # the probe's exit status once every check before training has passed

# Runs `openrlhf.cli.train_ppo_ray` as `python -m` would, records the parsed arguments and
# stops at `ray.init`, the first thing `train()` does (vLLM and flash-attn, imported at the
# top, get stand-ins when missing: nothing before `ray.init` calls into them).
PROBE = """
import json, os, runpy, sys
sys.path.insert(0, os.environ["HELPERS_DIR"])
from trainer_helpers import stand_in_gpu_only_packages
stand_in_gpu_only_packages()
import ray
import openrlhf.utils.config as config
real = config.hierarchize
def record(args):
    with open(os.environ["PROBE_OUT"], "w") as f:
        json.dump(vars(args), f, default=str)
    return real(args)
config.hierarchize = record
def stop(*a, **k):
    raise SystemExit(%d)
ray.is_initialized = lambda: False
ray.init = stop
sys.argv = ["train_ppo_ray", *sys.argv[1:]]
runpy.run_module("openrlhf.cli.train_ppo_ray", run_name="__main__")
""" % REACHED_TRAIN


def _shim(tmp_path: Path) -> Path:
    """A `python` for the launch script: the train_ppo_ray module goes to the probe, anything
    else (the script asks where training.rewards is installed) to the real interpreter."""
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    shim = tmp_path / "python"
    shim.write_text(f'#!/bin/sh\nif [ "$1" = "-m" ] && [ "$2" = "openrlhf.cli.train_ppo_ray" ]; then\n'
                    f'  shift 2; exec "{sys.executable}" "{probe}" "$@"\nfi\nexec "{sys.executable}" "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    return shim


def _launch(exports: Path, tiny_model: Path, tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path / "args.json"
    env = {**os.environ, "PYTHON": str(_shim(tmp_path)), "DATA": str(exports / "openrlhf"), "MODEL": str(tiny_model),
           "SAVE": str(tmp_path / "ckpt"), "PROBE_OUT": str(out), "HELPERS_DIR": str(Path(__file__).parent)}
    done = subprocess.run(["bash", str(LAUNCH), *extra], env=env, capture_output=True, text=True, timeout=300)
    return done, out


@pytest.fixture(scope="module")
def parsed(exports: Path, tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    done, out = _launch(exports, tiny_model, tmp_path_factory.mktemp("openrlhf-launch"))
    assert done.returncode == REACHED_TRAIN, done.stderr[-3000:]
    return json.loads(out.read_text())


def test_train_ppo_ray_accepts_the_shipped_command(parsed: dict, exports: Path, rewards_module) -> None:
    assert parsed["data.prompt_dataset"] == str(exports / "openrlhf" / "rl.jsonl")
    assert parsed["data.input_key"] == "input" and parsed["data.label_key"] == "label"
    assert parsed["data.apply_chat_template"] is True
    assert Path(parsed["reward.remote_url"]).resolve() == Path(rewards_module.__file__).resolve()
    assert parsed["algo.advantage.estimator"] == "group_norm" and parsed["rollout.n_samples_per_prompt"] == 8
    assert float(parsed["actor.adam.lr"]) == 1e-6 and float(parsed["algo.kl.init_coef"]) == 0.0


def test_the_old_flat_flags_are_rejected(exports: Path, tiny_model: Path, tmp_path: Path) -> None:
    done, _ = _launch(exports, tiny_model, tmp_path, "--prompt_data", "x.jsonl", "--input_key", "input")
    assert done.returncode == 2 and "unrecognized arguments" in done.stderr


def _args(parsed: dict):
    """The parsed launch arguments as OpenRLHF's code reads them; its DeepSpeed strategy module
    imports the models, which import flash-attn, so the GPU-only stand-ins go in first."""
    from openrlhf.utils.config import hierarchize

    stand_in_gpu_only_packages()
    return hierarchize(argparse.Namespace(**parsed))


def test_prompt_dataset_loads_the_export(parsed: dict, tiny_model: Path) -> None:
    from openrlhf.datasets import PromptDataset
    from openrlhf.datasets.utils import blending_datasets
    from openrlhf.utils import get_strategy
    from transformers import AutoTokenizer

    args = _args(parsed)
    strategy = get_strategy(args)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    data = blending_datasets(args.data.prompt_dataset, None, strategy, args.train.seed,
                             max_count=args.data.max_samples, dataset_split=args.data.prompt_split)
    dataset = PromptDataset(data, tokenizer, strategy, input_template=args.data.input_template)
    rows = [json.loads(line) for line in Path(args.data.prompt_dataset).read_text().splitlines()]
    assert len(dataset) == len(rows) == 32
    datasource, prompt, label, _ = dataset[0]
    assert prompt.startswith("<|im_start|>user\n") and prompt.endswith("<|im_start|>assistant\n")
    assert label == rows[0]["label"] and datasource == rows[0]["datasource"]


class _Engine:
    """Stands in for the vLLM engine (not installable on CPU): 'generates' a fixed answer."""

    def __init__(self, token_ids: list[int]):
        self.token_ids = token_ids

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        return SimpleNamespace(outputs=[SimpleNamespace(token_ids=self.token_ids, finish_reason="stop", logprobs=None)])


def test_single_turn_executor_scores_gold_maximum_and_junk_zero(parsed: dict, tiny_model: Path) -> None:
    from openrlhf.datasets import PromptDataset
    from openrlhf.datasets.utils import blending_datasets
    from openrlhf.utils import get_strategy
    from openrlhf.utils.agent import SingleTurnAgentExecutor
    from training.training_tasks import Task
    from transformers import AutoTokenizer

    args = _args(parsed)
    strategy = get_strategy(args)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    data = blending_datasets(args.data.prompt_dataset, None, strategy, args.train.seed, dataset_split="train")
    dataset = PromptDataset(data, tokenizer, strategy)
    executor = SingleTurnAgentExecutor(remote_rm_url=args.reward.remote_url)
    assert executor.reward_func is not None  # loaded from the installed module's file
    params = SimpleNamespace(max_tokens=512, logprobs=None)

    def run(prompt: str, label: str, answer: str) -> float:
        ids = tokenizer(answer + tokenizer.eos_token, add_special_tokens=False)["input_ids"]
        out = asyncio.run(executor.execute(prompt, label, params, args.data.max_len, tokenizer, _Engine(ids)))
        assert out["reward"] is not None, "reward_func raised (OpenRLHF logs and drops the error)"
        return float(out["reward"])

    for i in range(len(dataset)):
        _, prompt, label, _ = dataset[i]
        assert run(prompt, label, Task.from_ground_truth(label).gold_answer()) == MAX_REWARD
        assert run(prompt, label, JUNK) == 0.0
