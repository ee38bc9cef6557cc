"""Everything that happens inside one forked job process, from lockdown to the result frame.

The forkserver forks, and the child: puts /dev/null, the stdout and stderr memfds and the
result pipe on fds 0-3 (the setup pipe on fd 4) and closes everything else, starts its own
session (in a fresh /tmp the forkserver mounted for it), sets its rlimits, drops to
the unprivileged job uid, reports "set up" on the setup pipe and closes it. Any failure up
to there is a sandbox fault, never a verdict. Then it cuts the ways from user code into
this runtime (below), runs the module and the call, and writes exactly one result frame to
fd 3 before `os._exit`. The trace cap finishes the run on the spot, so user code cannot
catch it; the output cap ends the process (sandbox/streams.py).

The result frame carries a keyed hash of its body under a per-job key the forkserver drew
before forking; the forkserver drops any frame whose hash does not match, so bytes the
program writes to fd 3 itself are never a result. The key lives only in this module's
frames and closures. Before user code runs: the audit hook (sandbox/guard.py) refuses
heap, frame, ctypes, gc, /proc and signal access and other interpreters; the runtime's
modules and the garbage collector leave `sys.modules`, and `_imp` makes no fresh copy of
them (sandbox/module_gate.py); `sys.gettrace` answers None. This module, the tracer and the encoder define no classes,
and what they call after user code started is bound before (default arguments, private
builtins: sandbox/forkserver.py), so patching a module, a class or builtins from user code
changes nothing here.

Everything a child writes to memory inherited from the forkserver costs a copy-on-write
page fault, so the child does as little as it can: the call's text was already checked on
the host (sandbox/calls.py), and is only compiled here.
"""

from __future__ import annotations

import builtins
import functools
import gc
import io
import os
import resource
import signal
import sys
import time
import types
from _blake2 import blake2b
from _json import encode_basestring_ascii, make_encoder

from . import guard, module_gate
from .boundary import call as call_user, keep
from .encoding import _type_name as type_name_of, encode_value
from .streams import job_streams
from .tracing import TRACE_CHARS, USER_FILENAME, exception_info, make_tracer
from .wire import RESULT_HEADER, RESULT_MAC_BYTES, RESULT_MAGIC

RESULT_FD = 3
SETUP_FD = 4
EXIT_CHANNEL_LOST = 121
MODULE_NAME = "__execsynth__"
RUNTIME_MODULES = ("sandbox", "ctypes", "_ctypes")
OUTPUT_DIGEST = functools.partial(blake2b, digest_size=16)  # a grouped call's own output
# A stream's flush, taken from the type: looking `flush` up on the stream searches its
# instance dict, where the program can plant a key that compares in the caller's frame.
_FLUSH = io.TextIOWrapper.flush


def _no_default(obj, _error=TypeError):
    raise _error("an object that is not JSON in a result payload")


# json.dumps' output (ensure_ascii, ", " and ": ") from the C encoder alone: json.dumps
# itself goes through module globals and JSONEncoder methods that user code could patch
_ENCODE = make_encoder(None, _no_default, encode_basestring_ascii, None, ": ", ", ",
                       False, False, True)


def result_frame(body: bytes, key: bytes, _pack=RESULT_HEADER.pack, _mac=blake2b,
                 _magic=RESULT_MAGIC, _size=RESULT_MAC_BYTES, _len=len) -> bytes:
    """One result frame (sandbox/wire.py): header, the body's keyed hash under the job's
    key, the body. Defined here, out of user code's reach, with its helpers bound."""
    return _pack(_magic, _len(body)) + _mac(body, key=key, digest_size=_size).digest() + body


def _write_all(fd: int, data: bytes, _write=os.write, _view=memoryview) -> None:
    view = _view(data)
    while view:
        view = view[_write(fd, view):]


def finish(payload: dict, key: bytes, _encode=_ENCODE, _frame=result_frame, _exit=os._exit,
           _write_all=_write_all, _len=len, _type=type, _type_name=type_name_of,
           _MemoryError=MemoryError,
           _unencodable=(TypeError, ValueError, RecursionError), _OSError=OSError) -> None:
    """Write the one authenticated result frame and end the process (never returns). The
    body is the payload's JSON, then, for a traced run, a newline and the trace's JSON: the
    host stores the trace text as it is, without decoding it (sandbox/wire.py)."""
    try:
        trace = payload.pop("trace", None)
        if trace is not None:
            payload["trace_steps"] = _len(trace["steps"])
        body = "".join(_encode(payload, 0)).encode()
        if trace is not None:  # after a newline, which JSON text never holds unescaped
            body += b"\n" + "".join(_encode(trace, 0)).encode()
    except _MemoryError:
        body = b'{"status": "memory_limit"}'
    except _unencodable as exc:  # the program's doing, never a fault
        body = ('{"status": "exception", "exception": {"type": "UnencodableResult", '
                '"message": "the result could not be encoded: %s"}}' % _type_name(_type(exc))).encode()
    try:
        _write_all(RESULT_FD, _frame(body, key))
    except _OSError:
        _exit(EXIT_CHANNEL_LOST)
    _exit(0)


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


def child_main(job: dict, fds: tuple[int, int, int, int, int], key: bytes, job_ids,
               workdir: str) -> None:
    """Entry point after fork; never returns. `fds`: /dev/null, stdout, stderr, result
    pipe, setup pipe. A setup failure goes to the setup pipe: the forkserver treats it as
    its own fault."""
    null, out_fd, err_fd, result_fd, setup_fd = fds
    try:
        for src, dst in ((null, 0), (out_fd, 1), (err_fd, 2), (result_fd, RESULT_FD),
                         (setup_fd, SETUP_FD)):
            os.dup2(src, dst)
        os.closerange(SETUP_FD + 1, 1 << 16)
        lock_down(job["limits"], job_ids, workdir)
        os.write(SETUP_FD, b"S")
        os.close(SETUP_FD)
    except BaseException as exc:
        try:
            os.write(SETUP_FD, ("E" + repr(exc)[:500]).encode(errors="replace"))
        finally:
            os._exit(120)
    # no cyclic collection in a job: a collection runs the finalizers of the program's
    # garbage in whatever frame allocates, runtime frames included (sandbox/boundary.py)
    gc.disable()
    if job.get("calls") is not None:
        run_calls(job, key)
    run_job(job, key)


def _compile_call(entry: str, args: str):
    """The call `entry(<args>)`; the host has checked that args cannot break out of it
    (sandbox/calls.py), so no syntax tree is built here."""
    return compile(f"{entry}({args})", "<call>", "eval")


def _seal_runtime(module) -> None:
    """Take the runtime out of user code's reach (see the module docstring)."""
    for name in list(sys.modules):
        if name.split(".")[0] in RUNTIME_MODULES:
            del sys.modules[name]
    guard.refuse_signal_handlers()
    module_gate.seal(guard.HIDDEN_MODULES, guard.BLOCKED_IMPORTS)
    guard.no_bytecode_cache()
    sys.modules[MODULE_NAME] = module
    sys.modules["__main__"] = module
    sys.gettrace = type(None)  # a call answers None and leads nowhere
    sys.getprofile = type(None)


def _call_traced(module_code, call_code, namespace: dict, tracer, _exec=exec, _eval=eval):
    """Run the module, then the call under `tracer` (None: untraced): (the value, whether
    the program switched the tracer off)."""
    _exec(module_code, namespace)
    if tracer is None:
        return _eval(call_code, namespace), False
    tracer.start()
    try:
        value = _eval(call_code, namespace)
    finally:
        tampered = tracer.tampered()
        tracer.stop()
    return value, tampered


def run_job(job: dict, key: bytes, _encode=encode_value, _exception=exception_info,
            _call=_call_traced, _keep=keep, _MemoryError=MemoryError,
            _BaseException=BaseException) -> None:
    limits = job["limits"]
    chars = limits["value_chars"]
    streams = job_streams(limits["output_bytes"])
    sys.stdout, sys.stderr = streams
    if "random" in sys.modules:
        sys.modules["random"].seed(job["hash_seed"])
    tracer = None
    payload: dict = {"status": "ok"}
    permitted, refused = guard.install()
    try:
        call_code = _compile_call(job["entry_point"], job["args"])
        module_code = compile(job["code"], USER_FILENAME, "exec")
        if job["trace"]:
            def on_limit(steps):
                payload.update(status="trace_limit", trace={"steps": steps})
                _conclude(payload, key, refused, streams)

            tracer = make_tracer(module_code, limits["trace_steps"], chars, on_limit,
                                 permitted, limits.get("trace_chars", TRACE_CHARS))
        module = types.ModuleType(MODULE_NAME)
        module.__dict__["__builtins__"] = builtins
        _seal_runtime(module)
        value, tampered = _call(module_code, call_code, module.__dict__, tracer)
        _keep(value)  # never let go of here (sandbox/boundary.py)
        if tampered:
            payload.update(status="exception", exception={
                "type": "TraceTampered", "message": "the program switched the tracer off"})
        else:
            payload["result"] = _encode(value, chars)
        del value
    except _MemoryError as exc:  # (possibly the program's own subclass: kept, boundary.py)
        _keep(exc)
        payload = {"status": "memory_limit",
                   "exception": {"type": "MemoryError", "message": "memory limit reached"}}
    except _BaseException as exc:
        _keep(exc)
        payload.update(status="exception", exception=_exception(exc, chars))
    if tracer is not None:
        payload["trace"] = {"steps": tracer.steps}
    _conclude(payload, key, refused, streams)


def run_calls(job: dict, key: bytes, _encode=encode_value, _exception=exception_info,
              _call=_call_traced, _module=types.ModuleType, _clock=time.perf_counter,
              _cpu=time.process_time, _fstat=os.fstat, _modules=sys.modules,
              _builtins=builtins.__dict__, _snapshot=dict, _write_all=_write_all,
              _frame=result_frame, _exit=os._exit, _json=_ENCODE, _timer=signal.setitimer,
              _cpu_timer=signal.ITIMER_PROF, _keep=keep, _call_user=call_user,
              _list=list, _len=len, _enumerate=enumerate, _MemoryError=MemoryError,
              _BaseException=BaseException, _Exception=Exception, _OSError=OSError,
              _unencodable=(TypeError, ValueError, RecursionError, MemoryError),
              _flush=_FLUSH, _pread=os.pread, _digest=OUTPUT_DIGEST, _max=max) -> None:
    """Several calls of one program in this process, one after another (`job["calls"]`,
    argument texts in the order given), each in a fresh module namespace with the builtins
    as they were before the first; never returns. The one result frame holds, per call, a
    line of its payload (status, result or exception, its wall and CPU ms, where its output
    ends in stdout and stderr) and, when traced, a line of its trace. A call that reaches
    the trace cap or tries a refused event ends the job there: the frame then holds fewer
    calls than asked, and the host runs them one job each (sandbox/core.py). State a call
    leaves elsewhere (a changed module, a file) may reach the next: the host compares runs
    in two orders and a fresh run, and never takes a result that depends on it. Each call
    runs under a CPU timer of `job["call_cpu_s"]` whose signal ends the process (user code
    cannot handle signals; one that stops the timer still meets the job's own limits)."""
    limits = job["limits"]
    chars = limits["value_chars"]
    streams = job_streams(limits["output_bytes"])
    sys.stdout, sys.stderr = streams
    permitted, refused = guard.install()
    lines: list[bytes] = []

    def emit() -> None:
        try:
            _write_all(RESULT_FD, _frame(b"\n".join(lines), key))
        except _OSError:
            _exit(EXIT_CHANNEL_LOST)
        _exit(0)

    try:
        module_code = compile(job["code"], USER_FILENAME, "exec")
        calls = [_compile_call(job["entry_point"], args) for args in job["calls"]]
    except _BaseException:
        emit()  # no call ran: the host runs each as a job of its own, which reports it
    pristine = _snapshot(_builtins)
    sealed = False
    written = {1: 0, 2: 0}  # where each output stream stood after the last call
    for index, call_code in _enumerate(calls):
        if index:  # (what the last call left is kept, not let go of here: boundary.py)
            # The program can put its own keys in these dicts (a str subclass whose __eq__
            # is `eval`, on a colliding hash): a copy or a lookup here would compare them
            # in this frame. So the builtins are kept by their items (no key compared)
            # and sys.modules is written through the boundary.
            _keep(_list(_builtins.items()))
            _builtins.clear()
            _builtins.update(pristine)  # (into an empty dict: no key of the program's left)
            _keep(_call_user(_modules.pop, "random", None))  # imported again, seeded again
        tracer = None
        payload: dict = {"status": "ok", "call": index}
        if job["trace"]:
            def on_limit(steps):
                emit()  # the call is cut short: no verdict here, its own job gives it

            tracer = make_tracer(module_code, limits["trace_steps"], chars, on_limit, permitted,
                                 limits.get("trace_chars", TRACE_CHARS))
        module = _module(MODULE_NAME)
        module.__dict__["__builtins__"] = builtins
        if sealed:
            _call_user(_modules.__setitem__, MODULE_NAME, module)
            _call_user(_modules.__setitem__, "__main__", module)
        else:
            _seal_runtime(module)
            sealed = True
        before = _len(refused)
        started, started_cpu = _clock(), _cpu()
        _timer(_cpu_timer, job["call_cpu_s"])
        try:
            value, tampered = _call(module_code, call_code, module.__dict__, tracer)
            _keep(value)
            if tampered:
                emit()
            payload["result"] = _encode(value, chars)
            del value
        except _MemoryError:
            emit()
        except _BaseException as exc:
            _keep(exc)
            payload.update(status="exception", exception=_exception(exc, chars))
        _timer(_cpu_timer, 0)
        payload["ms"] = (_clock() - started) * 1000
        payload["cpu_ms"] = (_cpu() - started_cpu) * 1000
        if _len(refused) > before:
            emit()
        for stream in streams:
            try:
                _call_user(_flush, stream)
            except _Exception:
                emit()
        try:  # where each stream ends, and a digest of what this call wrote to it: a later
            # call can rewrite earlier bytes (pwrite, lseek), and the host checks the digests
            ends = (_fstat(1).st_size, _fstat(2).st_size)
            for fd, name, end in ((1, "out", ends[0]), (2, "err", ends[1])):
                start = written[fd]
                payload[name] = end
                payload[name + "_digest"] = _digest(_pread(fd, _max(0, end - start), start)).hexdigest()
                written[fd] = end
        except _OSError:
            emit()
        trace = None if tracer is None else {"steps": tracer.steps}
        if trace is not None:
            payload["trace_steps"] = _len(trace["steps"])
        try:
            lines.append("".join(_json(payload, 0)).encode())
            if trace is not None:
                lines.append("".join(_json(trace, 0)).encode())
        except _unencodable:
            emit()
        _keep(module)  # (the tracer is the runtime's own: it holds nothing of the program's,
        del trace, tracer, module  # and the kept list is reachable from the program)
    emit()


def _conclude(payload: dict, key: bytes, refused: list, streams, _finish=finish,
              _call_user=call_user, _keep=keep, _Exception=Exception, _flush=_FLUSH) -> None:
    """Flush the output and finish; a run that tried a refused event is no verdict on its
    value, whatever it did with the error. (A stream's flush may be the program's code.)"""
    for stream in streams:
        try:
            _call_user(_flush, stream)
        except _Exception as exc:
            _keep(exc)
    if refused:
        payload["status"] = "exception"
        payload["exception"] = {"type": "SandboxViolation",
                                "message": f"the program tried {refused[0]}, "
                                           "which the sandbox refuses"}
        payload.pop("result", None)
    _finish(payload, key)
