"""Docker backend: the same forkserver, each in a long-lived, locked-down container.

For hosts that want containers rather than bare namespaces. Every forkserver runs as
`docker run -i` with no network, a read-only root, all capabilities dropped,
no-new-privileges, pids and memory limits, a non-root user and a private /tmp tmpfs; the
sandbox package is mounted read-only. The host talks to it over the CLI's stdin/stdout
exactly as it talks to a local forkserver. The docker SDK is imported here only, lazily,
to ask whether an engine answers and to remove this backend's containers on close.
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass

from .errors import SandboxUnavailable
from .local import PROJECT_ROOT, LaunchSpec

CONTAINER_ROOT = "/opt/execsynth"
LABEL = "execsynth.sandbox"


@dataclass
class DockerLaunchSpec(LaunchSpec):
    image: str = "python:3.11-slim"
    memory_mb: int = 1024
    pids: int = 64
    user: str = "65534:65534"
    label: str = ""
    docker: str = "docker"

    def argv(self, hash_seed: int) -> list[str]:
        lockdown = ["--rm", "-i", "--init", "--network", "none", "--read-only",
                    "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                    "--pids-limit", str(self.pids), "--memory", f"{self.memory_mb}m",
                    "--memory-swap", f"{self.memory_mb}m", "--user", self.user,
                    "--ipc", "none", "--tmpfs", f"{self.workdir}:rw,nosuid,nodev,noexec,size="
                    f"{self.tmpfs_mb}m,mode=1777", "--workdir", self.workdir,
                    "--label", f"{LABEL}={self.label}",
                    "-v", f"{PROJECT_ROOT}/sandbox:{CONTAINER_ROOT}/sandbox:ro"]
        env = [item for key, value in self.environment(hash_seed).items()
               for item in ("-e", f"{key}={value}")]
        self.command = [self.docker, "run", *lockdown, *env, self.image, "python"]
        return super().argv(hash_seed)

    def process_environment(self, hash_seed: int) -> dict:
        return dict(os.environ)  # for the docker CLI itself (DOCKER_HOST...), not the container


def engine_problem() -> str | None:
    """None when a Docker engine answers, else why not (for errors and test skips)."""
    if shutil.which("docker") is None:
        return "the docker CLI is not installed"
    try:
        import docker  # the SDK, only here
    except ImportError:
        return "the docker SDK is not installed"
    try:
        client = docker.from_env(timeout=5)
        client.ping()
        client.close()
    except Exception as exc:  # any SDK/transport failure means "no engine"
        return f"no Docker engine answers ({type(exc).__name__}: {exc})"
    return None


class DockerBackend:
    name = "docker"

    def __init__(self, isolation: str, image: str = "python:3.11-slim", memory_mb: int = 1024,
                 pids: int = 64) -> None:
        problem = engine_problem()
        if problem:
            raise SandboxUnavailable(f"docker backend unavailable: {problem}")
        self.spec = DockerLaunchSpec(mode="container", root=CONTAINER_ROOT, workdir="/tmp",
                                     image=image, memory_mb=memory_mb, pids=pids,
                                     label=uuid.uuid4().hex)

    def close(self) -> None:
        import docker

        client = docker.from_env(timeout=10)
        try:
            for container in client.containers.list(
                    all=True, filters={"label": f"{LABEL}={self.spec.label}"}):
                container.remove(force=True)
        finally:
            client.close()
