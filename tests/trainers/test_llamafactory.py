"""LLaMA-Factory 0.9.5 on the LLaMA-Factory export: `get_train_args` on the shipped yaml,
`get_dataset` on the export (with and without a system prompt), and a 2-step SFT run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("llamafactory")

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "training" / "configs" / "llamafactory_sft.yaml"


def _shipped() -> dict:
    import yaml

    return yaml.safe_load(SHIPPED.read_text())


def _cpu_args(dataset_dir: Path, tiny_model: Path, out: Path) -> dict:
    """The shipped recipe with what a 2-core CPU run must change: the tiny model, the export,
    no DeepSpeed (it needs GPUs), fp32, one preprocessing worker, two steps."""
    args = _shipped()
    args.pop("deepspeed")
    args.update(model_name_or_path=str(tiny_model), dataset_dir=str(dataset_dir), output_dir=str(out),
                bf16=False, preprocessing_num_workers=1, per_device_train_batch_size=2,
                gradient_accumulation_steps=1, max_steps=2, logging_steps=1, save_steps=1000,
                plot_loss=False, report_to="none", overwrite_output_dir=True)
    return args


def test_shipped_yaml_parses_and_names_files_that_exist() -> None:
    from llamafactory.hparams import get_train_args

    args = _shipped()
    deepspeed = ROOT / args["deepspeed"]
    assert json.loads(deepspeed.read_text())["zero_optimization"]["stage"] == 3
    assert args["dataset"] == "execsynth_sft" and args["template"] == "qwen" and args["stage"] == "sft"
    # the full yaml goes through the real parser except DeepSpeed, which needs GPUs to load
    model_args, data_args, training_args, finetuning_args, _ = get_train_args(
        {**args, "deepspeed": None, "bf16": False, "output_dir": "/nonexistent/never-written"})
    assert model_args.model_name_or_path == "Qwen/Qwen2.5-Coder-7B-Instruct"
    assert finetuning_args.finetuning_type == "full" and finetuning_args.stage == "sft"
    assert data_args.dataset == ["execsynth_sft"] and data_args.cutoff_len == 8192
    assert training_args.learning_rate == 1e-5 and training_args.num_train_epochs == 3.0


@pytest.mark.parametrize("export", ["llamafactory", "llamafactory-system"])
def test_get_dataset_loads_every_sft_row(export: str, exports: Path, tiny_model: Path, tmp_path: Path) -> None:
    from llamafactory.data import get_dataset, get_template_and_fix_tokenizer
    from llamafactory.hparams import get_train_args
    from llamafactory.model import load_tokenizer

    folder = exports / export
    rows = [json.loads(line) for line in (folder / "sft.jsonl").read_text().splitlines()]
    model_args, data_args, training_args, _, _ = get_train_args(_cpu_args(folder, tiny_model, tmp_path / "out"))
    tokenizer_module = load_tokenizer(model_args)
    template = get_template_and_fix_tokenizer(tokenizer_module["tokenizer"], data_args)
    module = get_dataset(template, model_args, data_args, training_args, stage="sft", **tokenizer_module)
    train = module["train_dataset"]
    assert len(train) == len(rows) == 24
    tokenizer = tokenizer_module["tokenizer"]
    for i, row in enumerate(rows):
        labels = [t for t in train[i]["labels"] if t != -100]
        target = next(turn["value"] for turn in row["conversations"] if turn["from"] == "gpt")
        assert tokenizer.decode(labels, skip_special_tokens=True).strip() == target.strip()
        text = tokenizer.decode(train[i]["input_ids"])
        if row.get("system"):
            assert row["system"] in text


def test_two_step_sft_run(exports: Path, tiny_model: Path, tmp_path: Path) -> None:
    from llamafactory.train.tuner import run_exp

    out = tmp_path / "out"
    run_exp(_cpu_args(exports / "llamafactory", tiny_model, out))
    state = json.loads((out / "trainer_state.json").read_text())
    losses = [log["loss"] for log in state["log_history"] if "loss" in log]
    assert state["global_step"] == 2 and len(losses) == 2
    assert all(math.isfinite(x) and x > 0 for x in losses)
    assert (out / "model.safetensors").exists()
