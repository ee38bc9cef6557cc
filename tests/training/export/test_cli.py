"""`execsynth export` through Typer's runner, against the fixture database."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from app.core.config import get_settings
from execsynth.commands.export import app


def _flat(text: str) -> str:
    """Rich wraps long error lines to the terminal width."""
    return " ".join(text.split())


@pytest.fixture
def env(db, monkeypatch, tmp_path):
    monkeypatch.setenv("EXECSYNTH_DATABASE_URL", db.url)
    monkeypatch.setenv("EXECSYNTH_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    return tmp_path


def test_cli_writes_the_chosen_splits(env):
    out = env / "out"
    args = ["--format", "verl", "--split", "rl", "--split", "eval", "--out", str(out),
            "--size", "rl.io_whitebox=12", "--size", "rl.oi=3", "--size", "eval.oi=all", "--seed", "4"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["out_dir"] == str(out)
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "eval.parquet", "manifest.json", "rl.parquet"]
    rl = pq.read_table(out / "rl.parquet").to_pylist()
    assert sorted(r["extra_info"]["task_type"] for r in rl).count("io_whitebox") == 12 and len(rl) == 15
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["spec"]["seed"] == 4 and manifest["spec"]["write"] == ["rl", "eval"]
    assert manifest["splits"]["eval"]["requested"] == {"io_whitebox": 1000, "oi": None}
    assert summary["samples"] == len(rl) + manifest["splits"]["eval"]["rows"]
    # a second run into the same folder needs --overwrite
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 1 and "not empty" in _flat(again.output)
    assert CliRunner().invoke(app, [*args, "--overwrite"]).exit_code == 0


def test_cli_rejects_bad_requests_with_one_line(env):
    bad_format = CliRunner().invoke(app, ["--format", "csv", "--out", str(env / "x")])
    assert bad_format.exit_code == 2 and "unknown format 'csv'" in _flat(bad_format.output)
    bad_size = CliRunner().invoke(app, ["--format", "verl", "--size", "rl=3"])
    assert bad_size.exit_code == 2 and "SPLIT.TASK=COUNT" in _flat(bad_size.output)
    bad_split = CliRunner().invoke(app, ["--format", "verl", "--split", "train"])
    assert bad_split.exit_code == 2 and "unknown split" in _flat(bad_split.output)
    missing = CliRunner().invoke(app, ["--format", "verl", "--benchmark", str(env / "nope.jsonl"), "--out", str(env / "y")])
    # refused before anything runs (exit 2, like the other usage errors), not reported after the run
    assert missing.exit_code == 2 and "benchmark file not found" in _flat(missing.output)
    assert not (env / "y").exists()
