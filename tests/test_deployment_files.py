"""No Docker engine runs here, so the compose file and Dockerfile are checked statically:
every command they name must exist in this codebase."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from execsynth.cli import build_app

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def _help_ok(argv: list[str]) -> bool:
    result = CliRunner().invoke(build_app(), [*argv, "--help"])
    return result.exit_code == 0


def test_expected_services_with_healthchecks_and_conditions() -> None:
    assert {"postgres", "redis", "migrate", "api", "worker-teacher", "worker-pipeline", "worker-sandbox", "beat"} <= set(SERVICES)
    for name in ("postgres", "redis", "api"):
        assert "healthcheck" in SERVICES[name], name
    assert SERVICES["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert SERVICES["api"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_only_the_sandbox_worker_is_privileged() -> None:
    privileged = {name for name, svc in SERVICES.items() if svc.get("cap_add") or svc.get("privileged")}
    assert privileged == {"worker-sandbox"}


def test_every_execsynth_command_in_compose_exists() -> None:
    checked = 0
    for name, svc in SERVICES.items():
        command = svc.get("command")
        if not command or command[0] != "execsynth":
            continue
        args = command[1:]
        # the longest prefix of subcommands, options stripped
        words = [a for a in args if not a.startswith("-")]
        sub = words[:2] if words[:1] == ["db"] else words[:1]
        assert _help_ok(sub), f"{name}: `execsynth {' '.join(sub)}` does not exist"
        for option in (a for a in args if a.startswith("--")):
            result = CliRunner().invoke(build_app(), [*sub, "--help"])
            assert option in re.sub(r"\x1b\[[0-9;]*m", "", result.output), f"{name}: {option} unknown to execsynth {' '.join(sub)}"
        checked += 1
    assert checked >= 5


def test_beat_is_an_execsynth_command_and_teachers_reach_every_service() -> None:
    assert SERVICES["beat"]["command"][:2] == ["execsynth", "beat"]
    for name, svc in SERVICES.items():
        if svc.get("image") == "execsynth:latest":
            assert svc["environment"]["EXECSYNTH_TEACHERS"].startswith("${EXECSYNTH_TEACHERS"), name


def test_the_data_volume_belongs_to_the_image_user() -> None:
    text = (ROOT / "Dockerfile").read_text()
    user = re.search(r"^USER (\S+)$", text, re.M).group(1)
    chown = re.search(r"^RUN mkdir -p /data && chown (\S+):\S+ /data$", text, re.M)
    assert chown and chown.group(1) == user and text.index(chown.group(0)) < text.index(f"USER {user}")


def test_worker_queues_are_the_celery_queues() -> None:
    from app.core.celery import QUEUES

    named = set()
    for svc in SERVICES.values():
        command = svc.get("command") or []
        if "--queues" in command:
            named |= set(command[command.index("--queues") + 1].split(","))
    assert named == set(QUEUES)


def test_dockerfile_copies_every_package_and_runs_a_real_command() -> None:
    text = (ROOT / "Dockerfile").read_text()
    for package in ("app", "workers", "sandbox", "training", "migrations", "execsynth"):
        assert f"COPY {package} ./{package}" in text
    cmd = re.search(r'^CMD \[(.*)\]$', text, re.M).group(1)
    argv = [part.strip().strip('"') for part in cmd.split(",")]
    assert argv[:2] == ["execsynth", "serve"] and _help_ok(["serve"])
