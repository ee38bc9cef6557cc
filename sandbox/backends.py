"""Backend registry: how forkservers are launched (`local` namespaces/rlimits, `docker`).

A backend only provides a LaunchSpec (command prefix, mode, config) and cleanup; the pool,
protocol and judging are shared. Adding a backend is one class and one registry line.
"""

from __future__ import annotations

import logging

from .local import LaunchSpec, remove_workdir, rlimits_spec

log = logging.getLogger("sandbox")

RLIMITS_WARNING = (
    "SANDBOX RUNNING WITHOUT NAMESPACE ISOLATION (isolation='rlimits'): untrusted code can "
    "read the host filesystem, write to world-writable directories and open network "
    "connections. Use this only for trusted code or where namespaces are impossible.")


class LocalBackend:
    name = "local"

    def __init__(self, isolation: str, per_job_tmp: bool = True, **options) -> None:
        """`per_job_tmp=False` (namespaces only) shares one /tmp between a forkserver's jobs,
        emptied by a walk: the old way, kept only so bench/sandbox.py can measure what the
        per-job space costs. Never for untrusted code."""
        if options:
            raise TypeError(f"unknown local backend options: {sorted(options)}")
        if isolation == "rlimits":
            log.warning("!" * 20 + " " + RLIMITS_WARNING + " " + "!" * 20)
            self.spec = rlimits_spec()
        else:
            self.spec = LaunchSpec(mode="namespaces", per_job_tmp=per_job_tmp)

    def close(self) -> None:
        remove_workdir(self.spec)


def _docker(isolation: str, **options):
    from .docker_backend import DockerBackend

    return DockerBackend(isolation, **options)


BACKENDS = {"local": LocalBackend, "docker": _docker}


def make_backend(name: str, isolation: str, **options):
    try:
        factory = BACKENDS[name]
    except KeyError:
        raise ValueError(f"unknown sandbox backend {name!r}; known: {sorted(BACKENDS)}") from None
    return factory(isolation, **options)
