"""The README's main job (`execsynth demo`, which `make demo` runs) on embedded defaults, at a
small size: it finishes, and its exports load the way verl and LLaMA-Factory load them, with
gold answers earning the maximum reward."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest

from tests.support import service_env
from training.rewards import compute_score

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, str]:
    cwd = tmp_path_factory.mktemp("demo")
    out = subprocess.run(
        [sys.executable, "-m", "execsynth", "demo", "--programs", "24"],
        cwd=cwd, env=service_env(COLUMNS="200"), capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return cwd / "execsynth-data" / "exports" / "batch-1", out.stderr + out.stdout


def test_demo_prints_where_the_files_and_dashboard_are(demo) -> None:
    root, output = demo
    assert str(root / "verl") in output and str(root / "llamafactory") in output
    assert "/dashboard" in output and "execsynth serve" in output
    for level in ("C1", "C2", "C3", "C4", "C5", "C6"):
        assert level in output  # the funnel table covers every level


def test_verl_export_loads_and_gold_answers_score_the_maximum(demo) -> None:
    root, _ = demo
    table = pq.read_table(root / "verl" / "rl.parquet")
    assert table.schema.names == ["data_source", "prompt", "ability", "reward_model", "extra_info"]
    rows = datasets.load_dataset("parquet", data_files=str(root / "verl" / "rl.parquet"))["train"]
    assert rows.num_rows == table.num_rows > 0
    for row in rows:
        assert row["reward_model"]["style"] == "rule"
        gold = f"<reasoning>traced</reasoning>\n{row['extra_info']['gold_answer']}"
        result = compute_score(row["data_source"], gold, row["reward_model"]["ground_truth"], row["extra_info"])
        assert result["score"] == 2.0, row["extra_info"]["task_type"]
    card = (root / "verl" / "README.md").read_text()
    assert "rl" in card and "## Counts" in card
    manifest = json.loads((root / "verl" / "manifest.json").read_text())
    assert {f["path"] for f in manifest["files"]} >= {"rl.parquet", "eval.parquet"}


def test_llamafactory_export_loads_as_sharegpt(demo) -> None:
    root, _ = demo
    info = json.loads((root / "llamafactory" / "dataset_info.json").read_text())
    entry = info["execsynth_sft"]
    assert entry["formatting"] == "sharegpt" and entry["columns"]["messages"] == "conversations"
    rows = datasets.load_dataset("json", data_files=str(root / "llamafactory" / entry["file_name"]))["train"]
    assert rows.num_rows > 0
    for record in rows:
        roles = [turn["from"] for turn in record["conversations"]]
        assert roles[-2:] == ["human", "gpt"] and all(turn["value"] for turn in record["conversations"])
    assert (root / "llamafactory" / "README.md").exists()
