"""The `sys.monitoring` tracer (Python 3.12+): same steps as the settrace tracer, cheaper.

Local events (start, resume, line, return, yield) are switched on only for the job's own
code objects, so library code runs at full speed; raise/unwind can only be global events
and are filtered by code object. Written against the 3.12 API; this project's CI runs 3.11,
where the settrace tracer is used instead.
"""

from __future__ import annotations

import sys

from .tracing import StepRecorder, exception_info

_TOOL_NAME = "execsynth"


def _user_codes(module_code) -> set:
    found, stack = set(), [module_code]
    while stack:
        code = stack.pop()
        found.add(code)
        stack.extend(c for c in code.co_consts if hasattr(c, "co_code"))
    found.discard(module_code)
    return found


class MonitoringTracer(StepRecorder):
    def __init__(self, module_code, max_steps: int, value_chars: int, on_limit) -> None:
        super().__init__(max_steps, value_chars, on_limit)
        self.codes = _user_codes(module_code)
        self.mon = sys.monitoring
        self.tool = self.mon.DEBUGGER_ID
        self._depths: dict[int, list[int]] = {}

    def _enter(self, code, offset):
        if code in self.codes:
            frame = sys._getframe(1)
            depth = self.depth
            self.depth += 1
            self._depths.setdefault(id(frame), []).append(depth)
            self.record("call", frame, depth)

    def _depth_of(self, frame) -> int:
        stack = self._depths.get(id(frame))
        return stack[-1] if stack else max(self.depth - 1, 0)

    def _leave(self, frame, value) -> None:
        depth = self._depth_of(frame)
        self.record("return", frame, depth)["value"] = value
        stack = self._depths.get(id(frame))
        if stack:
            stack.pop()
        self.depth -= 1

    def _line(self, code, line):
        frame = sys._getframe(1)
        self.record("line", frame, self._depth_of(frame))

    def _return(self, code, offset, retval):
        from .encoding import encode_value

        self._leave(sys._getframe(1), encode_value(retval, self.value_chars))

    def _raise(self, code, offset, exc):
        if code in self.codes:
            frame = sys._getframe(1)
            self.record("exception", frame, self._depth_of(frame))["exception"] = \
                exception_info(exc, self.value_chars)

    def _unwind(self, code, offset, exc):
        if code in self.codes:
            self._leave(sys._getframe(1), {"type": "NoneType", "repr": "None",
                                           "json": None, "truncated": False})

    def start(self) -> None:
        mon, events, tool = self.mon, self.mon.events, self.tool
        mon.use_tool_id(tool, _TOOL_NAME)
        for event, callback in ((events.PY_START, self._enter), (events.PY_RESUME, self._enter),
                                (events.LINE, self._line), (events.PY_RETURN, self._return),
                                (events.PY_YIELD, self._return), (events.RAISE, self._raise),
                                (events.PY_UNWIND, self._unwind)):
            mon.register_callback(tool, event, callback)
        local = (events.PY_START | events.PY_RESUME | events.LINE | events.PY_RETURN
                 | events.PY_YIELD)
        for code in self.codes:
            mon.set_local_events(tool, code, local)
        mon.set_events(tool, events.RAISE | events.PY_UNWIND)

    def stop(self) -> None:
        self.mon.set_events(self.tool, 0)
        for code in self.codes:
            self.mon.set_local_events(self.tool, code, 0)
        self.mon.free_tool_id(self.tool)

    def tampered(self) -> bool:
        return (self.tamper_flag or self.mon.get_tool(self.tool) != _TOOL_NAME
                or self.mon.get_events(self.tool) == 0 or self.depth != 0)
