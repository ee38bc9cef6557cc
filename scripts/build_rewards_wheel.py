"""Build `execsynth-rewards`, the small distribution a trainer installs for the reward functions.

It holds `training` (without `training.export`) and `sandbox`, which import only the standard
library, and declares no dependencies: `pip install execsynth_rewards-*.whl` in a trainer's
environment makes `training.rewards` importable by module path (verl `pkg://training.rewards`,
TRL `training.rewards.trl_reward`, OpenRLHF's `reward_func`) with no checkout and no service
stack. The wheel is byte-identical for the same sources.

    python scripts/build_rewards_wheel.py --out dist/   # prints the wheel's path
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "execsynth_rewards"
PACKAGES = ("training", "sandbox")
EXCLUDED = ("training/export/", "training/configs/")
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def _version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def _sources() -> list[str]:
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "__pycache__" not in rel and not rel.startswith(EXCLUDED):
                files.append(rel)
    return files


def _metadata(version: str) -> str:
    return (
        "Metadata-Version: 2.1\n"
        f"Name: execsynth-rewards\nVersion: {version}\n"
        "Summary: execsynth reward functions and answer grading for trainers (standard library + sandbox)\n"
        "License: Apache-2.0\nRequires-Python: >=3.11\n"
    )


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build(out_dir: Path) -> Path:
    version = _version()
    info = f"{NAME}-{version}.dist-info"
    entries = [(rel, (ROOT / rel).read_bytes()) for rel in _sources()]
    entries += [
        (f"{info}/METADATA", _metadata(version).encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: execsynth\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/top_level.txt", "".join(p + "\n" for p in PACKAGES).encode()),
    ]
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{NAME}-{version}-py3-none-any.whl"
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            item = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            item.external_attr = 0o644 << 16
            item.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(item, data)
    tmp.replace(wheel)
    return wheel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="folder for the wheel (default: dist/)")
    args = parser.parse_args(argv)
    print(build(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
