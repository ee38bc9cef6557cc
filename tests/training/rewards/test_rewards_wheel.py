"""The execsynth-rewards wheel: what a trainer installs to import `training.rewards` without
the service stack or a checkout."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from scripts.build_rewards_wheel import build
from tests.training.rewards.helpers import whitebox_task

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

# Runs in a fresh interpreter that sees only the unpacked wheel (-I: no cwd, no user site).
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import training.rewards as rewards
gold, gt = sys.argv[2], sys.argv[3]
print(json.dumps({
    "file": rewards.__file__,
    "gold": rewards.compute_score("execsynth/io_whitebox", gold, gt)["score"],
    "junk": rewards.compute_score("execsynth/io_whitebox", "no idea", gt)["score"],
    "modules": sorted({name.split(".")[0] for name in sys.modules}),
}))
"""


def test_wheel_holds_rewards_and_sandbox_but_not_the_exporter(tmp_path: Path) -> None:
    wheel = build(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    assert "training/rewards/__init__.py" in names and "sandbox/__init__.py" in names
    assert not [n for n in names if n.startswith(("training/export/", "app/", "workers/", "execsynth/"))]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert "Name: execsynth-rewards" in metadata and "Requires-Dist" not in metadata
    assert build(tmp_path / "again").read_bytes() == wheel.read_bytes()  # reproducible


def test_installed_wheel_scores_with_the_standard_library_only(tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(build(tmp_path / "dist")).extractall(site)
    task = whitebox_task()
    out = subprocess.run([sys.executable, "-I", "-c", PROBE, str(site), task.gold_answer(), task.ground_truth()],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert Path(result["file"]).is_relative_to(site)
    assert result["gold"] == 2.0 and result["junk"] == 0.0
    third_party = set(result["modules"]) - set(sys.stdlib_module_names) - {"training", "sandbox", "__main__"}
    assert {m for m in third_party if not m.startswith("_")} == set()
