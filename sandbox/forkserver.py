"""The forkserver: a warm interpreter that forks one locked-down child per job.

It runs inside the sandbox (namespaces, a container, or bare with rlimits only), reads job
frames from the host, forks, watches the child (result pipe + pidfd, wall deadline), kills
whatever the job left behind, judges the outcome and answers with one result frame. It is
single-threaded on purpose: fork is only safe that way, and one job per forkserver keeps the
RLIMIT_NPROC accounting per job.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import sys
import time

from . import child, wire
from .statuses import STATUSES

# Imported before forking, so jobs start warm and can import them even where the job uid
# could not read the standard library (rlimits mode under a private prefix). Kept small on
# purpose: every resident page makes each fork (page tables) and exit slower.
PRELOAD = ("math", "collections", "itertools", "functools", "operator", "re", "string",
           "heapq", "bisect", "random", "copy", "json", "ast", "io", "time", "types",
           "resource", "sandbox.encoding", "sandbox.tracing", "sandbox.child")
MAX_RESULT_BYTES = 256 << 20
VERDICT_KEYS = {"result": dict, "exception": dict, "trace": dict}


def preload() -> None:
    names = PRELOAD + (("sandbox.tracing_monitoring",) if hasattr(sys, "monitoring") else ())
    for name in names:
        __import__(name)


def serve(proto_in: int, proto_out: int, config: dict, facts: dict | None = None) -> None:
    """Answer job frames until the host closes the channel."""
    preload()
    from . import linux

    linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)  # inherited by every job: exec gains nothing
    child.prepare_streams()
    gc.collect()
    gc.freeze()  # keeps the collector from touching (and copying) inherited pages
    python = "%d.%d.%d" % sys.version_info[:3]
    wire.write_frame(proto_out, {"ready": True, "python": python, **(facts or {})})
    while True:
        try:
            job = wire.read_frame(proto_in)
        except (wire.ChannelClosed, OSError):
            break
        try:
            reply = run_one(job, config)
        except Exception as exc:  # the run could not be judged
            reply = {"id": job.get("id", ""), "status": "sandbox_error",
                     "exception": {"type": "SandboxError", "message": repr(exc)[:500]}}
        reply["python"] = python
        wire.write_frame(proto_out, reply)


def run_one(job: dict, config: dict) -> dict:
    if job.get("hash_seed") != config["hash_seed"]:
        raise RuntimeError(f"job wants hash seed {job.get('hash_seed')}, "
                           f"this forkserver runs {config['hash_seed']}")
    limits = job["limits"]
    out_fd = os.memfd_create("stdout")
    err_fd = os.memfd_create("stderr")
    read_fd, write_fd = os.pipe()
    ids = (config["job_uid"], config["job_gid"]) if config.get("job_uid") is not None else None
    try:
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                child.child_main(job, (out_fd, err_fd, write_fd), ids, config["workdir"])
            finally:
                os._exit(120)
        os.close(write_fd)
        write_fd = -1
        watched = _watch(pid, read_fd, start + limits["timeout_s"])
        watched["duration_ms"] = (time.monotonic() - start) * 1000
        outcome = _judge(job, limits, watched, _read_output(out_fd, limits),
                         _read_output(err_fd, limits))
    finally:
        for fd in (out_fd, err_fd, read_fd, write_fd):
            if fd >= 0:
                os.close(fd)
        _reap(config)
        _clean_workdir(config["workdir"])
    return outcome


def _watch(pid: int, read_fd: int, deadline: float) -> dict:
    """Collect the result bytes until the child exits or the wall deadline passes."""
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(read_fd, select.POLLIN)
    poller.register(pidfd, select.POLLIN)
    buffer, eof, exited, timed_out = bytearray(), False, False, False
    try:
        while not exited:
            wait_ms = (deadline - time.monotonic()) * 1000
            if wait_ms <= 0:
                timed_out = True
                break
            for fd, _ in poller.poll(max(wait_ms, 1)):
                if fd == pidfd:
                    exited = True
                elif not eof:
                    chunk = os.read(read_fd, 1 << 20)
                    if not chunk:
                        eof = True
                        poller.unregister(read_fd)
                    elif len(buffer) + len(chunk) > MAX_RESULT_BYTES:
                        buffer = bytearray(b"oversized")  # judged as a corrupted result
                        eof = True
                        poller.unregister(read_fd)
                    else:
                        buffer += chunk
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        _, status, usage = os.wait4(pid, 0)
    finally:
        os.close(pidfd)
    if not eof:
        os.set_blocking(read_fd, False)
        try:
            while chunk := os.read(read_fd, 1 << 20):
                buffer += chunk
                if len(buffer) > MAX_RESULT_BYTES:
                    break
        except BlockingIOError:
            pass
    return {"buffer": bytes(buffer), "status": status, "timed_out": timed_out,
            "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000}


def _read_output(fd: int, limits: dict) -> tuple[str, bool]:
    cap = limits["output_bytes"]
    size = os.fstat(fd).st_size
    data = os.pread(fd, min(size, cap), 0)
    return data.decode("utf-8", errors="replace"), size > cap


def _valid(payload: dict) -> bool:
    if payload.get("status") not in STATUSES:
        return False
    return all(payload.get(key) is None or isinstance(payload[key], kind)
               for key, kind in VERDICT_KEYS.items())


def _no_result(watched: dict, limits: dict) -> tuple[str, dict]:
    status = watched["status"]
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL
                                     and watched["cpu_ms"] >= limits["cpu_s"] * 1000):
            return "timeout", {"type": "Timeout", "message": f"CPU limit of {limits['cpu_s']} s"}
        return "killed", {"type": "Killed",
                          "message": f"terminated by signal {signal.Signals(sig).name}"}
    code = os.waitstatus_to_exitcode(status)
    if watched["buffer"]:
        return "killed", {"type": "ResultCorrupted",
                          "message": "the program wrote to the sandbox's result channel"}
    if code == child.EXIT_CHANNEL_LOST:
        return "killed", {"type": "ResultChannelLost",
                          "message": "the program closed the sandbox's result channel"}
    return "killed", {"type": "Exited", "message": f"process exited with code {code} "
                                                    "without a result"}


def _judge(job: dict, limits: dict, watched: dict, out, err) -> dict:
    (stdout, out_over), (stderr, err_over) = out, err
    base = {"id": job["id"], "stdout": stdout, "stderr": stderr, "hash_seed": job["hash_seed"],
            "duration_ms": watched["duration_ms"], "cpu_ms": watched["cpu_ms"],
            "result": None, "exception": None, "trace": None}
    if watched["timed_out"]:
        return {**base, "status": "timeout", "exception": {
            "type": "Timeout", "message": f"wall time limit of {limits['timeout_s']} s"}}
    try:
        payload = wire.parse_result(watched["buffer"])
        if not _valid(payload):
            raise ValueError("invalid result")
    except ValueError:
        status, exception = _no_result(watched, limits)
        if status == "killed" and (out_over or err_over):
            status, exception = "output_limit", None
        return {**base, "status": status, "exception": exception}
    reply = {**base, **{k: payload.get(k) for k in ("status", "result", "exception", "trace")}}
    if (out_over or err_over) and reply["status"] != "sandbox_error":
        reply["status"] = "output_limit"
    return reply


def _reap(config: dict) -> None:
    """Kill anything the job left running and collect every zombie."""
    if config.get("reap_all"):
        try:
            os.kill(-1, signal.SIGKILL)  # pid 1 of our own namespace: everything but us
        except ProcessLookupError:
            pass
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _clean_workdir(workdir: str) -> None:
    """Empty the work directory (shutil is not imported: it drags in compression libs)."""
    if not os.listdir(workdir):
        return
    for top, dirs, files in os.walk(workdir, topdown=False):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            try:
                os.unlink(os.path.join(top, name))
            except OSError:
                pass
        for name in dirs:
            try:
                os.rmdir(os.path.join(top, name))
            except OSError:
                pass
