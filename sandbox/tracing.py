"""Interpreter traces of user code, recorded inside the sandboxed child only.

Only frames of the job's own code (compiled under USER_FILENAME) are recorded, at any depth,
helpers included; the standard library and the sandbox itself stay invisible. Each step is
`{"event", "func", "line", "depth", "locals"}`; a `return` step adds `value` (the returned
value), an `exception` step adds `exception`. `depth` is 0 for the entry point's frame and
grows by one per nested user frame. Python 3.12+ uses `sys.monitoring` (events only on user
code objects, nothing elsewhere); 3.11 uses `sys.settrace`.
"""

from __future__ import annotations

import sys

from .encoding import encode_value

USER_FILENAME = "<execsynth>"
_SETTRACE = sys.settrace  # kept before user code can replace sys.settrace


def make_tracer(module_code, max_steps: int, value_chars: int, on_limit):
    """The best tracer this interpreter offers, bound to the job's compiled module."""
    if hasattr(sys, "monitoring"):
        from .tracing_monitoring import MonitoringTracer

        return MonitoringTracer(module_code, max_steps, value_chars, on_limit)
    return SetTraceTracer(max_steps, value_chars, on_limit)


def exception_info(exc: BaseException, max_chars: int) -> dict:
    try:
        message = str(exc)
    except Exception:  # a user __str__ may raise
        message = "<unprintable message>"
    return {"type": type(exc).__name__, "message": message[:max_chars]}


class StepRecorder:
    """Shared step bookkeeping: the step list, the depth counter and the step cap."""

    def __init__(self, max_steps: int, value_chars: int, on_limit) -> None:
        self.steps: list[dict] = []
        self.depth = 0
        self.max_steps = max_steps
        self.value_chars = value_chars
        self.on_limit = on_limit
        self.tamper_flag = False

    def record(self, event: str, frame, depth: int) -> dict:
        if len(self.steps) >= self.max_steps:
            self.on_limit(self.steps)
        chars = self.value_chars
        step = {"event": event, "func": frame.f_code.co_name, "line": frame.f_lineno,
                "depth": depth,
                "locals": {name: encode_value(value, chars)
                           for name, value in frame.f_locals.items() if name[:1] != "."}}
        self.steps.append(step)
        return step

    def as_trace(self) -> dict:
        return {"steps": self.steps}


class SetTraceTracer(StepRecorder):
    def __init__(self, max_steps: int, value_chars: int, on_limit) -> None:
        super().__init__(max_steps, value_chars, on_limit)
        self._settrace = _SETTRACE

    def _on_call(self, frame, event, arg):
        if frame.f_code.co_filename != USER_FILENAME:
            return None
        depth = self.depth
        self.depth += 1
        self.record("call", frame, depth)
        record = self.record

        def local(frame, event, arg):
            if event == "line":
                record("line", frame, depth)
            elif event == "return":
                record("return", frame, depth)["value"] = encode_value(arg, self.value_chars)
                self.depth -= 1
            elif event == "exception":
                record("exception", frame, depth)["exception"] = exception_info(
                    arg[1], self.value_chars)
            return local

        return local

    def start(self) -> None:
        self._settrace(self._on_call)

    def stop(self) -> None:
        self._settrace(None)

    def tampered(self) -> bool:
        """True when user code switched tracing off (globally or for one of its frames)."""
        return self.tamper_flag or sys.gettrace() != self._on_call or self.depth != 0
