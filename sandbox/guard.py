"""The audit hook a job child installs before user code runs: the ways from the program
into the runtime that records its result and trace are refused.

CPython cannot remove an audit hook once added, so the program cannot switch this off. What
is refused (RuntimeError, like any other failing call): heap and frame introspection
(`gc.get_objects`/`get_referrers`/`get_referents`, `sys._getframe`, `sys._current_frames`,
the restricted frame attributes `tb_frame`, `gi_frame`, `cr_frame`, `ag_frame`), tracing
and profiling hooks (`sys.settrace`, `sys.setprofile`, `sys.monitoring`), new audit hooks,
ctypes (import and every call), signal handlers (a handler is handed the frame it
interrupts: `signal` cannot be imported), replacing a function's code or defaults,
hand-made code objects (`code.__new__`, `marshal`), opening anything under /proc
(`/proc/self/mem`, `/proc/self/fd/...`), and starting programs (exec, spawn, fork, system).
Every refused event is recorded; the runtime turns a run that tried one into a
`SandboxViolation` exception, whatever the program did with the error. The runtime's own calls that raise these events (the tracer switching
itself on and off) go through `permitted`, which runs no user code.
"""

from __future__ import annotations

import sys
from os.path import realpath

BLOCKED = frozenset({
    "gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._getframe",
    "sys._current_frames", "sys._current_exceptions", "sys._getframemodulename",
    "sys.settrace", "sys.setprofile", "sys.addaudithook", "code.__new__", "marshal.loads",
    "marshal.load", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "os.system", "subprocess.Popen", "pty.spawn", "os.startfile"})
BLOCKED_PREFIXES = ("ctypes.", "sys.monitoring.")
BLOCKED_IMPORTS = ("ctypes", "_ctypes", "signal", "_signal", "sandbox")
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
FUNCTION_INTERNALS = frozenset({"__code__", "__defaults__", "__kwdefaults__"})


def install() -> tuple:
    """Add the hook (armed at once); returns (`permitted(fn, *args)`, the list of refused
    events, which the runtime reads after user code: a run that tried any is no verdict)."""
    permit = [0]
    refused: list[str] = []

    def hook(event: str, args: tuple) -> None:
        if permit[0]:
            return
        try:
            _check(event, args)
        except RuntimeError:
            refused.append(event)
            raise

    def permitted(fn, *args):
        permit[0] += 1
        try:
            return fn(*args)
        finally:
            permit[0] -= 1

    sys.addaudithook(hook)
    return permitted, refused


def _check(event: str, args: tuple) -> None:
    if event == "object.__getattr__":
        if args[1] in FRAME_ATTRIBUTES:
            raise RuntimeError(f"{args[1]} is not available inside the sandbox")
    elif event == "object.__setattr__" or event == "object.__delattr__":
        if args[1] in FUNCTION_INTERNALS:
            raise RuntimeError(f"setting {args[1]} is not available inside the sandbox")
    elif event == "open":
        path = args[0]
        if isinstance(path, (str, bytes)) and _under_proc(path):
            raise RuntimeError("/proc is not available inside the sandbox")
    elif event == "import":
        if args[0].split(".")[0] in BLOCKED_IMPORTS:
            raise RuntimeError(f"{args[0]} is not available inside the sandbox")
    elif event in BLOCKED or event.startswith(BLOCKED_PREFIXES):
        raise RuntimeError(f"{event} is not available inside the sandbox")


def _under_proc(path) -> bool:
    if isinstance(path, bytes):
        path = path.decode(errors="replace")
    resolved = realpath(path)
    return resolved == "/proc" or resolved.startswith("/proc/")
