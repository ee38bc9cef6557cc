"""Trainer virtualenvs (TRL, verl, OpenRLHF, LLaMA-Factory) and the trainer integration tests.

Each trainer gets its own environment, built with uv from the lock file in
training/configs/envs/<name>.txt and cached outside the repository under
$EXECSYNTH_TRAINER_CACHE (default ~/.cache/execsynth/trainers), keyed by a hash of the lock,
the Python version and the uv version: a warm run reuses it, a changed pin builds
a new one. uv's cache hard-links the packages the environments share (torch among them), so the
shared files are on disk once.

    python scripts/trainer_envs.py build [NAME ...]    # build or reuse; prints each path
    python scripts/trainer_envs.py test [NAME ...]     # `make test-trainers`
    python scripts/trainer_envs.py exports DIR         # the test exports (execsynth synth + export)
    python scripts/trainer_envs.py lock [NAME ...]     # re-resolve NAME.in into NAME.txt

Torch is the CPU build: pip's find-links ($PIP_FIND_LINKS) is passed on to uv, so a host that
keeps the CPU wheel on disk installs it from there.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENVS = ROOT / "training" / "configs" / "envs"
TRAINERS = ("trl", "verl", "openrlhf", "llamafactory")
UV_VERSION = "0.13.8"
PYTHON_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"
# The export the tests train on: small, but every split and task type has rows.
EXPORT_PROGRAMS = 40
EXPORT_SIZES = ("sft.io=12", "sft.oi=12", "rl.io_whitebox=16", "rl.oi=16", "eval.io_whitebox=4", "eval.oi=4")
SYSTEM_PROMPT = "You are a careful Python execution tracer."
OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
    "WANDB_MODE": "disabled", "TOKENIZERS_PARALLELISM": "false", "RAY_USAGE_STATS_ENABLED": "0",
    "DISABLE_VERSION_CHECK": "1", "PYTHONNOUSERSITE": "1",
}


class EnvError(RuntimeError):
    """A step of building or using a trainer environment failed; the message says which."""


def cache_root() -> Path:
    return Path(os.environ.get("EXECSYNTH_TRAINER_CACHE") or Path.home() / ".cache" / "execsynth" / "trainers")


def _run(cmd: list[str], what: str, **kwargs) -> None:
    if subprocess.run(cmd, **kwargs).returncode != 0:
        raise EnvError(f"{what} failed: {' '.join(map(str, cmd))}")


def _find_links() -> list[str]:
    links = os.environ.get("PIP_FIND_LINKS", "").split()
    return [arg for link in links if Path(link).exists() for arg in ("--find-links", link)]


def uv() -> Path:
    """uv itself, installed once with pip into its own venv under the cache."""
    home = cache_root() / f"uv-{UV_VERSION}"
    binary = home / "bin" / "uv"
    if not binary.exists():
        shutil.rmtree(home, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(home)], "creating the uv venv")
        _run([str(home / "bin" / "python"), "-m", "pip", "install", "--quiet", f"uv=={UV_VERSION}"], "installing uv")
    return binary


def _uv_env() -> dict[str, str]:
    return {**os.environ, "UV_CACHE_DIR": str(cache_root() / "uv-cache"), "UV_PYTHON_DOWNLOADS": "never",
            "UV_LINK_MODE": "hardlink"}


def lock_file(name: str) -> Path:
    if name not in TRAINERS:
        raise EnvError(f"unknown trainer {name!r} (expected one of {', '.join(TRAINERS)})")
    return ENVS / f"{name}.txt"


def overrides(name: str) -> list[str]:
    """`--override <name>.overrides.txt` when the trainer has one (packages dropped on CPU)."""
    path = ENVS / f"{name}.overrides.txt"
    return ["--override", str(path)] if path.exists() else []


def env_key(name: str) -> str:
    digest = hashlib.sha256()
    for part in (lock_file(name).read_bytes(), PYTHON_VERSION.encode(),
                 platform.machine().encode(), UV_VERSION.encode()):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:16]


def env_path(name: str) -> Path:
    return cache_root() / f"{name}-py{PYTHON_VERSION}-{env_key(name)}"


def build(name: str) -> Path:
    """The environment for `name`, built from its lock file unless a complete one is cached."""
    path = env_path(name)
    done = path / ".complete"
    if done.exists():
        return path
    shutil.rmtree(path, ignore_errors=True)
    started = time.monotonic()
    env = _uv_env()
    _run([str(uv()), "venv", "--quiet", "--python", sys.executable, str(path)], f"creating the {name} venv", env=env)
    _run([str(uv()), "pip", "sync", "--python", str(path / "bin" / "python"), *_find_links(), str(lock_file(name))],
         f"installing the {name} lock", env=env)
    done.write_text(f"built in {time.monotonic() - started:.0f} s\n")
    for stale in cache_root().glob(f"{name}-py*-*"):  # older pins of this trainer
        if stale != path:
            shutil.rmtree(stale, ignore_errors=True)
    print(f"{name}: built {path} in {time.monotonic() - started:.0f} s", flush=True)
    return path


def install_rewards(env_dir: Path, wheel_dir: Path) -> Path:
    """Install this checkout's execsynth-rewards wheel (no dependencies) into a trainer env."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from build_rewards_wheel import build as build_wheel

    wheel = build_wheel(wheel_dir)
    _run([str(uv()), "pip", "install", "--quiet", "--no-deps", "--reinstall", "--python",
          str(env_dir / "bin" / "python"), str(wheel)], "installing the rewards wheel", env=_uv_env())
    return wheel


def lock(name: str) -> None:
    source = ENVS / f"{name}.in"
    _run([str(uv()), "pip", "compile", "--quiet", "--python-version", PYTHON_VERSION, "--python-platform",
          "x86_64-manylinux_2_28", *overrides(name), *_find_links(), "--no-header",
          "--output-file", str(lock_file(name)), str(source)], f"locking {name}", env=_uv_env())


def exports(dest: Path) -> Path:
    """A small batch (builtin teacher, embedded SQLite) exported in each trainer's format."""
    cli = os.environ.get("EXECSYNTH_CLI") or shutil.which("execsynth")
    if not cli:
        raise EnvError("the execsynth CLI is needed to build the test exports: set EXECSYNTH_CLI")
    dest.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "EXECSYNTH_DATA_DIR": str(dest / "data")}
    log = dest / "export.log"
    with log.open("w") as out:
        _run([cli, "synth", "--programs", str(EXPORT_PROGRAMS), "--teacher", "builtin"], "execsynth synth",
             env=env, stdout=out, stderr=subprocess.STDOUT)
        for fmt in TRAINERS:
            sizes = [arg for size in EXPORT_SIZES for arg in ("--size", size)]
            _run([cli, "export", "--format", fmt, *sizes, "--out", str(dest / fmt), "--overwrite"],
                 f"execsynth export --format {fmt}", env=env, stdout=out, stderr=subprocess.STDOUT)
        # LLaMA-Factory maps a `system` column only when rows carry one: test both layouts
        _run([cli, "export", "--format", "llamafactory", *sizes, "--system-prompt", SYSTEM_PROMPT,
              "--out", str(dest / "llamafactory-system"), "--overwrite"],
             "execsynth export --format llamafactory --system-prompt", env=env, stdout=out, stderr=subprocess.STDOUT)
    return dest


def run_tests(names: list[str], pytest_args: list[str]) -> int:
    """Build/reuse each env, install the rewards wheel, build the exports once, run pytest per env."""
    results: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="execsynth-trainers-") as tmp:
        work = Path(tmp)
        exports(work / "exports")
        for name in names:
            started = time.monotonic()
            env_dir = build(name)
            install_rewards(env_dir, work / "wheel")
            run_dir = work / f"run-{name}"
            run_dir.mkdir()
            env = {**os.environ, **OFFLINE_ENV, "EXECSYNTH_TRAINER_EXPORTS": str(work / "exports"),
                   "HF_HOME": str(run_dir / "hf"), "EXECSYNTH_REWARD_SANDBOX_ISOLATION":
                   os.environ.get("EXECSYNTH_REWARD_SANDBOX_ISOLATION", "namespaces")}
            env.pop("PYTHONPATH", None)
            cmd = [str(env_dir / "bin" / "python"), "-m", "pytest", "-c", str(ROOT / "tests" / "trainers" / "pytest.ini"),
                   "--rootdir", str(ROOT / "tests" / "trainers"), "-p", "no:cacheprovider",
                   str(ROOT / "tests" / "trainers" / f"test_{name}.py"), *pytest_args]
            code = subprocess.run(cmd, cwd=run_dir, env=env).returncode
            results[name] = f"{'passed' if code == 0 else f'FAILED (pytest exit {code})'} in {time.monotonic() - started:.0f} s"
    for name, outcome in results.items():
        print(f"trainer tests {name}: {outcome}")
    return 0 if all(v.startswith("passed") for v in results.values()) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Trainer virtualenvs and their integration tests.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in ("build", "test", "lock"):
        p = sub.add_parser(command)
        p.add_argument("names", nargs="*", metavar="NAME", help=f"trainers (default: all of {', '.join(TRAINERS)})")
    sub.add_parser("exports").add_argument("dest", type=Path)
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    names = list(getattr(args, "names", []) or TRAINERS)
    try:
        for name in names:
            lock_file(name)
        if args.command == "build":
            for name in names:
                print(build(name))
        elif args.command == "lock":
            for name in names:
                lock(name)
        elif args.command == "exports":
            print(exports(args.dest))
        else:
            return run_tests(names, rest)
    except EnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
