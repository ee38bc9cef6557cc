"""The `sys.monitoring` tracer (Python 3.12+): same steps as the settrace tracer, cheaper.

Local events (start, resume, line, return, yield) are switched on only for the job's own
code objects, so library code runs at full speed; raise/unwind can only be global events
and are filtered by code object. Built from closures like the settrace tracer
(sandbox/tracing.py). Written against the 3.12 API; this project's CI runs 3.11, where the
settrace tracer is used instead.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

from .encoding import encode_value
from .tracing import TRACE_CHARS, exception_info, step_recorder, user_codes

_TOOL_NAME = "execsynth"
_NONE_VALUE = {"type": "NoneType", "repr": "None", "json": None, "truncated": False}


def monitoring_tracer(module_code, max_steps: int, value_chars: int, on_limit, permitted,
                      max_chars: int = TRACE_CHARS, _mon=getattr(sys, "monitoring", None),
                      _getframe=sys._getframe, _encode=encode_value, _exception=exception_info):
    steps, record = step_recorder(max_steps, value_chars, on_limit, max_chars)
    codes = user_codes(module_code)
    tool = _mon.DEBUGGER_ID
    depth_now = [0]
    depths: dict[int, list[int]] = {}

    def caller():  # the user frame that raised the event (guarded: sys._getframe)
        return permitted(_getframe, 3)

    def enter(code, offset):
        if code in codes:
            frame = caller()
            depth = depth_now[0]
            depth_now[0] = depth + 1
            depths.setdefault(id(frame), []).append(depth)
            record("call", frame, depth, code.co_name)

    def depth_of(frame) -> int:
        stack = depths.get(id(frame))
        return stack[-1] if stack else max(depth_now[0] - 1, 0)

    def leave(code, frame, value) -> None:
        record("return", frame, depth_of(frame), code.co_name)["value"] = value
        stack = depths.get(id(frame))
        if stack:
            stack.pop()
        depth_now[0] -= 1

    def line(code, number):
        frame = caller()
        record("line", frame, depth_of(frame), code.co_name)

    def returned(code, offset, retval):
        leave(code, caller(), _encode(retval, value_chars))

    def raised(code, offset, exc):
        if code in codes:
            frame = caller()
            record("exception", frame, depth_of(frame), code.co_name)["exception"] = \
                _exception(exc, value_chars)

    def unwound(code, offset, exc):
        if code in codes:
            leave(code, caller(), dict(_NONE_VALUE))

    def start() -> None:
        events = _mon.events
        _mon.use_tool_id(tool, _TOOL_NAME)
        for event, callback in ((events.PY_START, enter), (events.PY_RESUME, enter),
                                (events.LINE, line), (events.PY_RETURN, returned),
                                (events.PY_YIELD, returned), (events.RAISE, raised),
                                (events.PY_UNWIND, unwound)):
            _mon.register_callback(tool, event, callback)
        local = (events.PY_START | events.PY_RESUME | events.LINE | events.PY_RETURN
                 | events.PY_YIELD)
        for code in codes:
            _mon.set_local_events(tool, code, local)
        _mon.set_events(tool, events.RAISE | events.PY_UNWIND)

    def stop() -> None:
        _mon.set_events(tool, 0)
        for code in codes:
            _mon.set_local_events(tool, code, 0)
        _mon.free_tool_id(tool)

    def tampered() -> bool:
        return (_mon.get_tool(tool) != _TOOL_NAME or _mon.get_events(tool) == 0
                or depth_now[0] != 0)

    return SimpleNamespace(steps=steps, start=lambda: permitted(start),
                           stop=lambda: permitted(stop), tampered=tampered)
