"""First code of a forkserver process: enter the namespaces, build the view, then serve.

Started by the host as `python -S -B -c <bootstrap> <config json>` with a scrubbed
environment. In `namespaces` mode the handshake is: unshare a user namespace, tell the host
(a "userns" frame), wait while the host writes the uid/gid maps (only a process outside the namespace may
map more than one id, and the job needs an unprivileged id next to root), then (byte "G") unshare
mount/pid/net/ipc/uts, fork so the forkserver becomes pid 1 of the new pid namespace, and
pivot into the sandbox's own root (sandbox/namespaces.py). Modules are imported before the
pivot: the project is not part of that root.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from . import forkserver, linux, wire

NAMESPACE_FLAGS = (linux.CLONE_NEWNS | linux.CLONE_NEWPID | linux.CLONE_NEWNET
                   | linux.CLONE_NEWIPC | linux.CLONE_NEWUTS)


def _fail(proto_out: int, message: str) -> None:
    try:
        wire.write_frame(proto_out, {"ready": False, "error": message})
    finally:
        os._exit(4)


def _enter_namespaces(proto_in: int, proto_out: int, config: dict) -> dict:
    try:
        linux.unshare(linux.CLONE_NEWUSER)
    except OSError as exc:
        _fail(proto_out, f"cannot create a user namespace: {exc}")
    wire.write_frame(proto_out, {"stage": "userns"})
    if os.read(proto_in, 1) != b"G":
        os._exit(3)
    try:
        linux.unshare(NAMESPACE_FLAGS)
    except OSError as exc:
        _fail(proto_out, f"cannot create namespaces: {exc}")
    pid = os.fork()
    if pid:  # stays outside the pid namespace; its death takes pid 1 (and all jobs) along
        os.close(proto_in)
        os.close(proto_out)
        _, status = os.waitpid(pid, 0)
        os._exit(min(255, max(0, os.waitstatus_to_exitcode(status))))
    linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
    from . import namespaces

    try:
        facts = namespaces.build_root(config["keep"])
        if config.get("job_tmpfs_mb") is None:  # one shared /tmp (bench comparison only)
            linux.mount("tmpfs", config["workdir"], "tmpfs", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC,
                        f"size={config['tmpfs_mb']}m,mode=0700,uid={config['job_uid']},"
                        f"gid={config['job_gid']}")
        return facts
    except OSError as exc:
        _fail(proto_out, f"cannot build the sandbox filesystem: {exc}")
    return {}


def main(argv: list[str]) -> None:
    config = json.loads(argv[0])
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    if "" in sys.path:
        sys.path.remove("")
    forkserver.preload()
    facts = {}
    if config["mode"] == "namespaces":
        facts = _enter_namespaces(proto_in, proto_out, config)
    os.chdir(config["workdir"])
    forkserver.serve(proto_in, proto_out, config, facts)
