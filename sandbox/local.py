"""Host side of the local backend: start, talk to and stop forkserver processes.

A forkserver starts as a plain child process with a scrubbed environment; in `namespaces`
mode the host then writes its uid/gid maps (root inside = the forkserver, JOB_UID inside =
an unprivileged host uid that owns nothing, for the jobs). That write is the moment
namespaces prove to be available: if the kernel refuses, the backend refuses to start.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import wire
from .errors import ForkServerDown, SandboxUnavailable

log = logging.getLogger("sandbox")

PROJECT_ROOT = str(Path(__file__).resolve().parent.parent)
INNER_JOB_ID = 1000
DEFAULT_HOST_JOB_ID = 1_999_000_000  # a host uid/gid no account or file uses
NOBODY = 65534
START_TIMEOUT_S = 20.0
BOOTSTRAP = ("import sys; sys.path.insert(0, sys.argv[2]); "
             "from sandbox.boot import main; main(sys.argv[1:2])")


def _stdlib_paths() -> list[str]:
    """The interpreter's own library directories (never a virtualenv's)."""
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
            "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix}
    stdlib = sysconfig.get_path("stdlib", vars=base)
    platstdlib = sysconfig.get_path("platstdlib", vars=base)
    return sorted({stdlib, platstdlib, os.path.join(platstdlib, "lib-dynload")})


@dataclass
class LaunchSpec:
    """How to start one forkserver: the command prefix, its config and its environment."""

    mode: str  # namespaces | rlimits | container
    command: list[str] = field(default_factory=lambda: [sys.executable])
    root: str = PROJECT_ROOT
    workdir: str = "/tmp"
    tmpfs_mb: int = 64
    host_job_id: int = DEFAULT_HOST_JOB_ID
    job_ids: tuple[int, int] | None = None
    # namespaces mode: a fresh /tmp (tmpfs) per job, detached after it. False shares one /tmp
    # between a forkserver's jobs, emptied by a directory walk after each (what the sandbox
    # did before): only for measuring what the per-job space costs (bench/sandbox.py
    # --shared-tmp), never for untrusted code.
    per_job_tmp: bool = True

    def config(self, hash_seed: int) -> dict:
        namespaces = self.mode == "namespaces"
        ids = (INNER_JOB_ID, INNER_JOB_ID) if namespaces else self.job_ids
        return {"mode": self.mode, "hash_seed": hash_seed, "workdir": self.workdir,
                "tmpfs_mb": self.tmpfs_mb, "keep": _stdlib_paths() if namespaces else [],
                "job_tmpfs_mb": self.tmpfs_mb if namespaces and self.per_job_tmp else None,
                "clean_workdir": not (namespaces and self.per_job_tmp),
                "job_uid": ids[0] if ids else None, "job_gid": ids[1] if ids else None,
                "reap_all": self.mode in ("namespaces", "container")}

    def environment(self, hash_seed: int) -> dict:
        """The forkserver's whole environment: nothing of the host's reaches user code."""
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "HOME": self.workdir, "PYTHONHASHSEED": str(hash_seed),
                "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}

    def argv(self, hash_seed: int) -> list[str]:
        return [*self.command, "-S", "-B", "-c", BOOTSTRAP,
                json.dumps(self.config(hash_seed)), self.root]

    def process_environment(self, hash_seed: int) -> dict:
        return self.environment(hash_seed)


def rlimits_spec() -> LaunchSpec:
    """No namespaces: a private work directory and, when we are root, the nobody uid."""
    workdir = tempfile.mkdtemp(prefix="execsynth-sandbox-")
    ids = None
    if os.geteuid() == 0:
        ids = (NOBODY, NOBODY)
        os.chown(workdir, NOBODY, NOBODY)
    return LaunchSpec(mode="rlimits", workdir=workdir, job_ids=ids)


class ForkServer:
    """One running forkserver (one hash seed), driven over its stdin/stdout pipes."""

    def __init__(self, spec: LaunchSpec, hash_seed: int) -> None:
        self.spec, self.hash_seed = spec, hash_seed
        self.proc: subprocess.Popen | None = None
        self.info: dict = {}

    def start(self) -> "ForkServer":
        spec = self.spec
        self.proc = subprocess.Popen(spec.argv(self.hash_seed), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=spec.process_environment(self.hash_seed),
                                     cwd="/", close_fds=True, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        try:
            first = self._read(deadline)
            if first.get("stage") == "userns":
                self._map_ids()
                os.write(self.proc.stdin.fileno(), b"G")
                first = self._read(deadline)
        except (ForkServerDown, OSError) as exc:
            detail = self._stderr_tail()
            self.close()
            raise SandboxUnavailable(f"the forkserver did not start: {exc}. {detail}") from None
        if not first.get("ready"):
            self.close()
            raise SandboxUnavailable(f"the forkserver refused to start: {first.get('error')}")
        self.info = first
        return self

    def _map_ids(self) -> None:
        pid, host_id = self.proc.pid, self.spec.host_job_id
        try:
            for name, inner_root in (("uid_map", os.geteuid()), ("gid_map", os.getegid())):
                with open(f"/proc/{pid}/{name}", "w") as handle:
                    handle.write(f"0 {inner_root} 1\n{INNER_JOB_ID} {host_id} 1\n")
        except OSError as exc:
            raise SandboxUnavailable(
                f"user namespaces are not usable here ({exc}); the local backend needs them "
                "(and CAP_SETUID to map an unprivileged job uid). Set isolation='rlimits' to "
                "run without namespace isolation (unsafe for untrusted code).") from None

    def _read(self, deadline: float) -> dict:
        try:
            return wire.read_frame(self.proc.stdout.fileno(), deadline)
        except (wire.ChannelClosed, wire.ChannelTimeout, ValueError) as exc:
            raise ForkServerDown(str(exc), hung=isinstance(exc, wire.ChannelTimeout)) from None

    def request(self, job: dict, deadline: float,
                max_bytes: int = wire.MAX_FRAME) -> wire.RunReport | dict:
        """Send one job; its RunReport, or a dict for a run the forkserver could not judge
        (with `fault` when the forkserver itself failed and is exiting)."""
        if self.proc is None or self.proc.poll() is not None:
            raise ForkServerDown("forkserver is not running")
        try:
            wire.write_frame(self.proc.stdin.fileno(), job)
        except OSError as exc:
            raise ForkServerDown(f"cannot send the job: {exc}") from None
        try:
            return wire.read_reply(self.proc.stdout.fileno(), deadline, max_bytes)
        except (wire.ChannelClosed, wire.ChannelTimeout, ValueError) as exc:
            raise ForkServerDown(str(exc), hung=isinstance(exc, wire.ChannelTimeout)) from None

    def _stderr_tail(self) -> str:
        if self.proc is None or self.proc.stderr is None:
            return ""
        try:
            os.set_blocking(self.proc.stderr.fileno(), False)
            data = self.proc.stderr.read() or b""
        except (OSError, ValueError):
            data = b""
        return data.decode(errors="replace")[-2000:]

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            try:  # the boot process and, through its death signal, the whole namespace
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            stream.close()


def remove_workdir(spec: LaunchSpec) -> None:
    if spec.mode == "rlimits" and spec.workdir.startswith(tempfile.gettempdir()):
        shutil.rmtree(spec.workdir, ignore_errors=True)
