"""scripts/trainer_envs.py: how trainer environments are named and what bad input gets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scripts import trainer_envs

ROOT = Path(__file__).resolve().parents[2]


def test_every_trainer_has_a_lock_and_the_key_follows_its_content(tmp_path: Path, monkeypatch) -> None:
    for name in trainer_envs.TRAINERS:
        lock = trainer_envs.lock_file(name).read_text()
        assert "torch==" in lock and "pytest==" in lock
    monkeypatch.setattr(trainer_envs, "ENVS", tmp_path)
    (tmp_path / "trl.txt").write_text("trl==1.16.0\n")
    first = trainer_envs.env_path("trl")
    assert trainer_envs.env_path("trl") == first  # stable: a warm run reuses it
    (tmp_path / "trl.txt").write_text("trl==1.17.0\n")
    assert trainer_envs.env_path("trl") != first  # a changed pin builds a new one


def test_unknown_trainer_is_a_one_line_error() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "trainer_envs.py"), "build", "nosuch"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.strip() == "error: unknown trainer 'nosuch' (expected one of trl, verl, openrlhf, llamafactory)"
