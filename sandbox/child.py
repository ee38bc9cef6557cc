"""Everything that happens inside one forked job process, from lockdown to the result frame.

The forkserver forks, and the child: starts its own session, puts /dev/null, the stdout and
stderr memfds and the result pipe on fds 0-3 and closes everything else, sets its rlimits,
drops to the unprivileged job uid, then runs the module and the call
and writes exactly one result frame to fd 3 before `os._exit`. Stopping conditions (output
cap, trace cap) finish the run on the spot with `os._exit`, so user code cannot catch them.

Everything a child writes to memory inherited from the forkserver costs a copy-on-write
page fault, so the child does as little as it can: the call's text was already checked on
the host (sandbox/calls.py), and is only compiled here.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import resource
import sys
import types

from .encoding import encode_value
from .tracing import USER_FILENAME, exception_info, make_tracer
from .wire import result_frame

RESULT_FD = 3
EXIT_CHANNEL_LOST = 121
MODULE_NAME = "__execsynth__"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def finish(payload: dict) -> None:
    """Write the one result frame and end the process (never returns)."""
    try:
        data = result_frame(json.dumps(payload).encode())
    except MemoryError:
        data = result_frame(b'{"status": "memory_limit"}')
    try:
        _write_all(RESULT_FD, data)
    except OSError:
        os._exit(EXIT_CHANNEL_LOST)
    os._exit(0)


class _CappedRaw(io.RawIOBase):
    """A raw stream onto fd 1 or 2 that ends the run as `output_limit` past the cap."""

    def __init__(self, fd: int, cap: int) -> None:
        super().__init__()
        self.fd, self.cap, self.total = fd, cap, 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        size = len(data)
        room = self.cap - self.total
        if size > room:
            if room > 0:
                _write_all(self.fd, bytes(data[:room]))
            self.total = self.cap + 1
            finish({"status": "output_limit"})
        _write_all(self.fd, bytes(data))
        self.total += size
        return size


def _stream(fd: int, cap: int) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BufferedWriter(_CappedRaw(fd, cap), 8192), encoding="utf-8",
                            errors="strict", newline="\n")


_STREAMS: list[io.TextIOWrapper] = []


def prepare_streams() -> None:
    """Build the stdout/stderr wrappers once in the forkserver (fds 1 and 2 are fixed in
    every child), so a job does not pay for constructing them."""
    _STREAMS[:] = [_stream(1, 0), _stream(2, 0)]


def _job_streams(cap: int) -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    if not _STREAMS:
        prepare_streams()
    for stream in _STREAMS:
        raw = stream.buffer.raw
        raw.cap, raw.total = cap, 0
    return _STREAMS[0], _STREAMS[1]


def lock_down(limits: dict, job_ids: tuple[int, int] | None, workdir: str) -> None:
    """Session, rlimits and unprivileged ids (no-new-privileges is set on the forkserver)."""
    os.setsid()
    hard = {resource.RLIMIT_CPU: (limits["cpu_s"], limits["cpu_s"] + 1),
            resource.RLIMIT_AS: (limits["memory_mb"] << 20,) * 2,
            resource.RLIMIT_FSIZE: (max(limits["file_bytes"], limits["output_bytes"] + 1),) * 2,
            resource.RLIMIT_NOFILE: (limits["open_files"],) * 2,
            resource.RLIMIT_NPROC: (limits["max_tasks"],) * 2,
            resource.RLIMIT_CORE: (0, 0)}
    for which, value in hard.items():
        resource.setrlimit(which, value)
    if job_ids is not None:
        uid, gid = job_ids
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    os.chdir(workdir)


def child_main(job: dict, fds: tuple[int, int, int, int], job_ids, workdir: str) -> None:
    """Entry point after fork; never returns. `fds`: /dev/null, stdout, stderr, result pipe."""
    null, out_fd, err_fd, result_fd = fds
    try:
        for src, dst in ((null, 0), (out_fd, 1), (err_fd, 2), (result_fd, RESULT_FD)):
            os.dup2(src, dst)
        os.closerange(RESULT_FD + 1, 1 << 16)
        lock_down(job["limits"], job_ids, workdir)
    except BaseException as exc:  # the run cannot be judged: never a verdict
        finish({"status": "sandbox_error",
                "exception": {"type": "SandboxSetupError", "message": repr(exc)[:500]}})
    run_job(job)


class _SeededRandom:
    """Meta path finder and loader for `random`: a job that imports it gets it seeded with
    the job's hash seed, so it draws the same numbers in every run.

    The forkserver does not import `random` itself: the module registers an at-fork hook
    that reseeds it from os.urandom in every forked child, which costs every job about 45
    copy-on-write faults (0.15 ms, a fifteenth of an untraced job). Its code is compiled
    once in the forkserver instead (the C modules it needs are preloaded), and a job's
    import builds a fresh module from that code object, without touching the filesystem
    (the job uid may not be able to read the standard library)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        for finder in sys.meta_path:
            spec = finder.find_spec("random", None)
            if spec is not None:
                break
        else:
            raise ImportError("the random module was not found")
        self.code = spec.loader.get_code("random")
        self.spec_type, self.origin, self.cached = type(spec), spec.origin, spec.cached

    def find_spec(self, name: str, path=None, target=None):
        if name != "random":
            return None
        spec = self.spec_type(name, self, origin=self.origin)
        spec.has_location, spec.cached = True, self.cached
        return spec

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        exec(self.code, module.__dict__)
        module.seed(self.seed)


def seed_random_on_import(seed: int) -> None:
    """In the forkserver: jobs that import `random` get it seeded with `seed`."""
    sys.meta_path.insert(0, _SeededRandom(seed))


def _compile_call(entry: str, args: str):
    """The call `entry(<args>)`; the host has checked that args cannot break out of it
    (sandbox/calls.py), so no syntax tree is built here."""
    return compile(f"{entry}({args})", "<call>", "eval")


def _guard_settrace(tracer) -> None:
    def settrace(func):
        if tracer is not None:
            tracer.tamper_flag = True
        raise RuntimeError("sys.settrace is not available inside the sandbox")

    sys.settrace = settrace
    sys.setprofile = settrace


def run_job(job: dict) -> None:
    limits = job["limits"]
    chars = limits["value_chars"]
    sys.stdout, sys.stderr = _job_streams(limits["output_bytes"])
    if "random" in sys.modules:
        sys.modules["random"].seed(job["hash_seed"])
    tracer = None
    payload: dict = {"status": "ok"}
    try:
        call_code = _compile_call(job["entry_point"], job["args"])
        module_code = compile(job["code"], USER_FILENAME, "exec")
        if job["trace"]:
            def on_limit(steps):
                payload.update(status="trace_limit", trace={"steps": steps})
                _flush_and_finish(payload)

            tracer = make_tracer(module_code, limits["trace_steps"], chars, on_limit)
        _guard_settrace(tracer)
        module = types.ModuleType(MODULE_NAME)
        module.__dict__["__builtins__"] = builtins
        sys.modules[MODULE_NAME] = module
        exec(module_code, module.__dict__)
        if tracer is not None:
            tracer.start()
        try:
            value = eval(call_code, module.__dict__)
        finally:
            if tracer is not None:
                tampered = tracer.tampered()
                tracer.stop()
        if tracer is not None and tampered:
            payload.update(status="exception", exception={
                "type": "TraceTampered", "message": "the program switched the tracer off"})
        else:
            payload["result"] = encode_value(value, chars)
        del value
    except MemoryError:
        payload = {"status": "memory_limit",
                   "exception": {"type": "MemoryError", "message": "memory limit reached"}}
    except RecursionError as exc:
        payload.update(status="exception", exception=exception_info(exc, chars))
    except BaseException as exc:
        payload.update(status="exception", exception=exception_info(exc, chars))
    if tracer is not None:
        payload["trace"] = tracer.as_trace()
    _flush_and_finish(payload)


def _flush_and_finish(payload: dict) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    finish(payload)
