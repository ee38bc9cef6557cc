"""Everything that happens inside one forked job process, from lockdown to the result frame.

The forkserver forks, and the child: starts its own session, puts /dev/null, the stdout and
stderr memfds and the result pipe on fds 0-3 and closes everything else, sets its rlimits,
drops to the unprivileged job uid, then runs the module and the call
and writes exactly one result frame to fd 3 before `os._exit`. Stopping conditions (output
cap, trace cap) finish the run on the spot with `os._exit`, so user code cannot catch them.
"""

from __future__ import annotations

import ast
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


def child_main(job: dict, fds: tuple[int, int, int], job_ids, workdir: str) -> None:
    """Entry point after fork; never returns."""
    out_fd, err_fd, result_fd = fds
    try:
        null = os.open("/dev/null", os.O_RDWR)
        for src, dst in ((null, 0), (out_fd, 1), (err_fd, 2), (result_fd, RESULT_FD)):
            os.dup2(src, dst)
        os.closerange(RESULT_FD + 1, 1 << 16)
        lock_down(job["limits"], job_ids, workdir)
    except BaseException as exc:  # the run cannot be judged: never a verdict
        finish({"status": "sandbox_error",
                "exception": {"type": "SandboxSetupError", "message": repr(exc)[:500]}})
    run_job(job)


def _parse_call(entry: str, args: str):
    """The call `entry(<args>)` as an expression, refusing args that break out of it."""
    tree = ast.parse(f"{entry}({args})", filename="<call>", mode="eval")
    body = tree.body
    if not (isinstance(body, ast.Call) and isinstance(body.func, ast.Name)
            and body.func.id == entry):
        raise SyntaxError("args must be exactly the text between the call's parentheses")
    return compile(tree, "<call>", "eval")


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
        call_code = _parse_call(job["entry_point"], job["args"])
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
