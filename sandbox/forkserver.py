"""The forkserver: a warm interpreter that forks one locked-down child per job.

It runs inside the sandbox (namespaces, a container, or bare with rlimits only), reads job
frames from the host, forks, watches the child (result pipe + pidfd, wall deadline), kills
whatever the job left behind and answers with one run report: the result bytes (only when
they are one frame authenticated under the job's key), output and exit status, which the
host judges (sandbox/verdict.py), so that no result or trace is decoded and re-encoded
here. A job whose setup or teardown fails is this process's fault: it answers with a
`fault` frame and exits, and the host starts a fresh forkserver. Every page this process writes after a fork is a copy-on-write
fault, so the per-job work here is kept small. It is
single-threaded on purpose: fork is only safe that way, and one job per forkserver keeps the
RLIMIT_NPROC accounting per job.
"""

from __future__ import annotations

import builtins
import gc
import os
import select
import signal
import sys
import time
import types

from . import child, namespaces, seeded_random, streams, wire

# Imported before forking, so jobs start warm and can import them even where the job uid
# could not read the standard library (rlimits mode under a private prefix). Kept small on
# purpose: every resident page makes each fork (page tables) and exit slower. `random`
# itself is not imported here (its at-fork hook would run in every job): jobs get it from
# seeded_random.seed_random_on_import, built from code compiled once, with its C modules
# preloaded.
PRELOAD = ("math", "collections", "itertools", "functools", "operator", "re", "string",
           "heapq", "bisect", "_random", "copy", "json", "ast", "io", "time", "types",
           "resource", "typing", "_blake2", "_json", "sandbox.encoding", "sandbox.tracing",
           "sandbox.guard", "sandbox.module_gate", "sandbox.streams", "sandbox.seeded_random",
           "sandbox.namespaces", "sandbox.child")
# What runs in a job after user code started; re-executed with a private copy of builtins,
# so that user code replacing builtins.repr (or any other) changes nothing in them.
# (Not sandbox.module_gate: user code reaches its functions through `_imp`, and through
# their globals it would reach this private copy; it binds what it calls instead.)
RUNTIME = ("sandbox.encoding", "sandbox.tracing", "sandbox.tracing_monitoring",
           "sandbox.guard", "sandbox.child")
# The standard library's functions that read their caller's module name through
# sys._getframe (namedtuple, Enum's functional API, typing._caller) see a sys without it
# and fall back as on interpreters that lack it. sys._getframe is refused from anywhere:
# a C callable the program hands them (`map(sys._getframe, ...)` as namedtuple's field
# names) runs with their frame as the caller, so no caller can be trusted.
# Their `sys` holds only what those modules read besides _getframe: a copy of the whole
# module kept the real gettrace (set aside before a job seals sys), which hands out the
# tracer and, through its closures, the runtime.
FRAME_READERS = (("collections", "_sys"), ("enum", "sys"), ("typing", "sys"))
FRAMELESS_SYS = ("intern", "getsizeof", "maxsize", "modules")
# random's sha512 comes from _sha512 up to 3.11, from _sha2 since 3.12
PRELOAD_IF_PRESENT = ("_sha512", "_sha2")
MAX_RESULT_BYTES = 256 << 20
KEY_BYTES = 32


class SandboxFault(RuntimeError):
    """Setting up or tearing down a job failed: this forkserver is not to be trusted."""


def preload() -> None:
    names = PRELOAD + (("sandbox.tracing_monitoring",) if hasattr(sys, "monitoring") else ())
    for name in names:
        __import__(name)
    for name in PRELOAD_IF_PRESENT:
        try:
            __import__(name)
        except ImportError:
            pass
    frameless = types.ModuleType("sys")  # a module of ours, no function: nothing to walk to
    frameless.__dict__.update((name, getattr(sys, name)) for name in FRAMELESS_SYS)
    for name, attribute in FRAME_READERS:
        setattr(sys.modules[name], attribute, frameless)
    private = dict(builtins.__dict__)
    for name in RUNTIME:
        module = sys.modules.get(name)
        current = None if module is None else module.__dict__.get("__builtins__")
        if current is builtins or current is builtins.__dict__:
            module.__dict__["__builtins__"] = private
            module.__spec__.loader.exec_module(module)


def serve(proto_in: int, proto_out: int, config: dict, facts: dict | None = None) -> None:
    """Answer job frames until the host closes the channel."""
    preload()
    from . import linux

    linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)  # inherited by every job: exec gains nothing
    streams.prepare_streams()
    seeded_random.seed_random_on_import(config["hash_seed"])
    null = os.open("/dev/null", os.O_RDWR | os.O_CLOEXEC)  # every job's stdin
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
            report = run_one(job, config, null)
        except Exception as exc:  # the run could not be judged, and this process is suspect
            wire.write_frame(proto_out, {
                "id": job.get("id", ""), "status": "sandbox_error", "fault": True,
                "exception": {"type": type(exc).__name__, "message": repr(exc)[:500]}})
            break
        wire.write_report(proto_out, report)


def run_one(job: dict, config: dict, null: int) -> wire.RunReport:
    """Fork the job's child, watch it, clean up after it; the host judges the report."""
    if job.get("hash_seed") != config["hash_seed"]:
        raise RuntimeError(f"job wants hash seed {job.get('hash_seed')}, "
                           f"this forkserver runs {config['hash_seed']}")
    limits = job["limits"]
    key = os.urandom(KEY_BYTES)
    out_fd = os.memfd_create("stdout")
    err_fd = os.memfd_create("stderr")
    read_fd, write_fd = os.pipe()
    setup_read, setup_write = os.pipe()
    ids = (config["job_uid"], config["job_gid"]) if config.get("job_uid") is not None else None
    space, mounted = config.get("job_tmpfs_mb"), False
    try:
        if space is not None:
            namespaces.mount_job_space(config["workdir"], space, *(ids or (None, None)))
            mounted = True
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                child.child_main(job, (null, out_fd, err_fd, write_fd, setup_write), key, ids,
                                 config["workdir"])
            finally:
                os._exit(120)
        os.close(write_fd)
        os.close(setup_write)
        write_fd = setup_write = -1
        result, wait_status, timed_out, cpu_ms = _watch(pid, read_fd,
                                                        start + limits["timeout_s"])
        duration_ms = (time.monotonic() - start) * 1000
        _check_setup(setup_read)
        cap = limits["output_bytes"]
        stdout, stdout_over = _read_output(out_fd, cap)
        stderr, stderr_over = _read_output(err_fd, cap)
    finally:
        for fd in (out_fd, err_fd, read_fd, write_fd, setup_read, setup_write):
            if fd >= 0:
                os.close(fd)
        _reap(config)
        if mounted:
            namespaces.drop_job_space(config["workdir"])
    if config.get("clean_workdir"):
        _clean_workdir(config["workdir"])
    forged = bool(result) and not wire.authentic(result, key)
    return wire.RunReport(wait_status, timed_out, duration_ms, cpu_ms,
                          b"" if forged else result, stdout, stderr, stdout_over,
                          stderr_over, forged)


def _check_setup(fd: int) -> None:
    """The child reports "S" once it is locked down; anything else is a setup fault."""
    os.set_blocking(fd, False)
    try:
        message = os.read(fd, 1024)
    except BlockingIOError:
        message = b""
    if message[:1] != b"S":
        detail = message[1:].decode(errors="replace") or "the job child died during setup"
        raise SandboxFault(f"job setup failed: {detail}")


def _watch(pid: int, read_fd: int, deadline: float) -> tuple[bytes, int, bool, float]:
    """Collect the result bytes until the child exits or the wall deadline passes; kill the
    job's process group. Returns (result bytes, wait status, timed out, CPU ms)."""
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
    return bytes(buffer), status, timed_out, (usage.ru_utime + usage.ru_stime) * 1000


def _read_output(fd: int, cap: int) -> tuple[bytes, bool]:
    size = os.fstat(fd).st_size
    return os.pread(fd, min(size, cap), 0), size > cap


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
    """Without a per-job tmpfs (rlimits, container, bench): empty the shared work
    directory. Any failure is a fault that replaces this forkserver. shutil is not
    imported: it drags in compression libs."""
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
