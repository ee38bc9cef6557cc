"""The audit hook a job child installs before user code runs: the ways from the program
into the runtime that records its result and trace are refused.

CPython cannot remove an audit hook once added, so the program cannot switch this off. What
is refused (RuntimeError, like any other failing call): heap and frame introspection
(`gc.get_objects`/`get_referrers`/`get_referents`, `sys._getframe` (from anywhere: the
standard library's three readers of their caller's module name see a `sys` without it,
sandbox/forkserver.py `FRAME_READERS`), `sys._current_frames`,
the restricted frame attributes `tb_frame`, `gi_frame`, `cr_frame`, `ag_frame`), tracing
and profiling hooks (`sys.settrace`, `sys.setprofile`, `sys.monitoring`), new audit hooks,
ctypes (import and every call), the garbage collector (`gc`: `set_debug(DEBUG_SAVEALL)`
would hand out collected frames in `gc.garbage`, and a frame's `f_back` leads into this
runtime), interpreters of their own (`_xxsubinterpreters`: a hook added from Python is its
own interpreter's alone, so another one runs without it), the C API test modules, signal
handlers (a handler is handed the frame it interrupts: `refuse_signal_handlers`),
replacing a function's code,
hand-made code objects (`code.__new__`, `marshal`: imports compile from source, see
`no_bytecode_cache`), opening anything under /proc
(`/proc/self/mem`, `/proc/self/fd/...`), new namespaces (`os.unshare`, `os.setns`, 3.12+)
and starting programs (exec, spawn, fork, system).
Every refused event is recorded; the runtime turns a run that tried one into a
`SandboxViolation` exception, whatever the program did with the error. The runtime's own
calls that raise these events (the tracer switching itself on and off) go through
`permitted`, which runs no user code.
"""

from __future__ import annotations

import os
import sys
from functools import partial

BLOCKED = frozenset({
    "gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._getframe",
    "sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys.addaudithook", "code.__new__", "marshal.loads", "marshal.load", "os.exec",
    "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.system", "subprocess.Popen",
    "pty.spawn", "os.startfile", "signal.signal", "os.unshare", "os.setns",
    "cpython.PyInterpreterState_New"})
BLOCKED_PREFIXES = ("ctypes.", "sys.monitoring.")
# modules that leave sys.modules before user code runs (importing a loaded module raises no
# event) and that `_imp` will not create afresh (sandbox/module_gate.py)
HIDDEN_MODULES = ("gc", "_xxsubinterpreters", "_xxinterpchannels", "_interpreters",
                  "_interpchannels", "_interpqueues", "_testcapi", "_testinternalcapi",
                  "_testbuffer", "_testclinic", "_testimportmultiple", "_testmultiphase",
                  "_testsinglephase", "_xxtestfuzz", "_ctypes_test", "xxlimited", "xxlimited_35",
                  "xxsubtype", "_posixsubprocess")
# `_signal` only once removed from sys.modules: the loaded one has its `signal` replaced
BLOCKED_IMPORTS = frozenset(("ctypes", "_ctypes", "_signal", "sandbox") + HIDDEN_MODULES)
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
FUNCTION_INTERNALS = frozenset({"__code__"})


def _resolved(path: str, _getcwd=os.getcwd, _readlink=os.readlink, _error=OSError) -> str:
    """`path` made absolute with its symbolic links followed (at most 40), by the C
    functions of `posix` bound here: `os.path.realpath` is Python that reads `posixpath`'s
    globals, which the program can change, and would run the program's code in this hook."""
    parts = path.split("/")
    done = [] if path.startswith("/") else [p for p in _getcwd().split("/") if p]
    hops = 0
    while parts:
        part = parts.pop(0)
        if part == "" or part == ".":
            continue
        if part == "..":
            if done:
                done.pop()
            continue
        done.append(part)
        try:
            target = _readlink("/" + "/".join(done))
        except _error:  # not a link (or not there): the name stays
            continue
        hops += 1
        if hops > 40:
            break
        done.pop()
        if target.startswith("/"):
            done = []
        parts = target.split("/") + parts
    return "/" + "/".join(done)


def _under_proc(path, _type=type, _str=str, _bytes=bytes, _issubclass=issubclass,
                _resolved=_resolved) -> bool | None:
    """Whether `path` names something under /proc; None when it is no text at all (a file
    descriptor is fine, anything else is refused: an object's __fspath__ or a str
    subclass's methods would be the program's code running in this hook)."""
    kind = _type(path)
    if kind is not _str and kind is not _bytes:
        if kind is int:
            return False
        if _issubclass(kind, _str):
            path = "".join((path,))
        elif _issubclass(kind, _bytes):
            path = b"".join((path,))
        else:
            return None
    if _type(path) is _bytes:
        path = path.decode("utf-8", "replace")
    resolved = _resolved(path)
    return resolved == "/proc" or resolved.startswith("/proc/")


def _text(value, _type=type, _str=str, _issubclass=issubclass, _join="".join):
    """`value` as an exact str when it is text, else None. An event's arguments can be the
    program's objects (it can raise any event with `sys.audit`, and import a str subclass):
    their `__str__`, `__hash__` or `__eq__` would be the program's code running in the hook,
    whose globals are the runtime's private builtins, so nothing else is asked of them."""
    kind = _type(value)
    if kind is _str:
        return value
    return _join((value,)) if _issubclass(kind, _str) else None


def _check(event: str, args: tuple, _blocked=BLOCKED, _prefixes=BLOCKED_PREFIXES,
           _imports=BLOCKED_IMPORTS, _frames=FRAME_ATTRIBUTES, _internals=FUNCTION_INTERNALS,
           _under_proc=_under_proc, _text=_text, _len=len, _refuse=RuntimeError) -> None:
    """Raise RuntimeError(message, what to record) for a refused event (`event` is an exact
    str). Every builtin it calls is bound here, and of the arguments only exact text and
    numbers are looked at."""
    if event == "object.__getattr__" or event == "object.__setattr__" or event == "object.__delattr__":
        name = _text(args[1]) if _len(args) > 1 else None
        if name is not None and name in (_frames if event == "object.__getattr__" else _internals):
            raise _refuse(f"{name} is not available inside the sandbox", event)
    elif event == "open":
        under = _under_proc(args[0]) if _len(args) else False
        if under is None:
            raise _refuse("a path is opened here only as str or bytes (or a descriptor)", event)
        if under:
            raise _refuse("/proc is not available inside the sandbox", event)
    elif event == "import":  # any part of the name (`x._ctypes` loads the same library)
        name = _text(args[0]) if _len(args) else None
        if name is not None and not _imports.isdisjoint(name.split(".")):
            raise _refuse(f"{name} is not available inside the sandbox", f"import {name}")
    elif event in _blocked or event.startswith(_prefixes):
        raise _refuse(f"{event} is not available inside the sandbox", event)


def install() -> tuple:
    """Add the hook (armed at once); returns (`permitted(fn, *args)`, the list of refused
    events, which the runtime reads after user code: a run that tried any is no verdict)."""
    permit = [0]
    refused: list[str] = []

    def hook(event: str, args: tuple, _check=_check, _text=_text, _refused=RuntimeError,
             _recursion=RecursionError) -> None:
        if permit[0]:
            return
        event = _text(event)  # (sys.audit takes a str subclass as the event's name)
        if event is None:
            return
        try:
            _check(event, args)
        except _refused as exc:  # (a recursion limit the program set low: the event is
            if exc.__class__ is not _recursion:  # not performed, and not its refusal)
                refused.append(exc.args[1])
            raise

    def permitted(fn, *args):
        permit[0] += 1
        try:
            return fn(*args)
        finally:
            permit[0] -= 1

    sys.addaudithook(hook)
    return permitted, refused


def refuse_signal_handlers() -> None:
    """`signal.signal` becomes a call that raises the refused "signal.signal" event."""
    refuse = partial(sys.audit, "signal.signal")
    for name in ("_signal", "signal"):
        module = sys.modules.get(name)
        if module is not None:
            module.signal = refuse


def no_bytecode_cache() -> None:
    """Imports read no .pyc (that would be a `marshal.loads`): the cache is looked up under
    a path that cannot exist, so modules compile from source."""
    sys.pycache_prefix = "/dev/null/pycache"
