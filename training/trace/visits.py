"""Line visits read off a trace, each attributed to the frame it ran in.

A frame is opened by a `call` step and closed by its `return` step, so a helper's lines (C6
programs) and each level of a recursion get their own "what ran next" and "what changed".
Steps of comprehension, lambda and generator-expression frames are skipped: their lines
belong to the statement that created them. Visits are counted per statement line over the
whole run, in trace order ("the 3rd time line 5 executed").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from training.trace.source_map import SourceMap

LEAVES = -1  # next line when execution leaves the function after this line


@dataclass
class Visit:
    line: int
    visit: int
    frame: int
    before: dict[str, Any]
    next_line: int | None = None  # statement line, LEAVES, or None when the trace ends first
    after: dict[str, Any] | None = None  # locals at the frame's next step (line or return)
    raised: bool = False  # an exception was raised while this line ran
    calls: list[int] = field(default_factory=list)  # frames called while this line ran


@dataclass
class FrameRecord:
    """One call: its function, the caller's visit (None for the entry call), the locals
    at the call (the arguments) and the returned typed value (None if it never returned)."""

    id: int
    func: str
    parent: int | None
    caller: Visit | None
    args: dict[str, Any]
    value: dict[str, Any] | None = None
    returned: bool = False


@dataclass
class _Frame:
    id: int
    func: str
    pending: Visit | None = None
    last_statement: int | None = None
    in_continuation: bool = False


@dataclass
class VisitLog:
    visits: list[Visit] = field(default_factory=list)
    by_line: dict[int, list[Visit]] = field(default_factory=dict)
    complete: bool = True  # every frame returned: "never ran" claims are safe
    frames: list[FrameRecord] = field(default_factory=list)  # by id, in call order


def read_visits(steps: list[dict[str, Any]], smap: SourceMap) -> VisitLog:
    log = VisitLog()
    stack: list[_Frame] = []
    next_id = 0
    for step in steps:
        event = step.get("event")
        if event == "call":
            parent = stack[-1] if stack else None
            caller = parent.pending if parent is not None else None
            if caller is not None:
                caller.calls.append(next_id)
            locals_ = step.get("locals")
            log.frames.append(FrameRecord(next_id, str(step.get("func")), None if parent is None else parent.id,
                                          caller, dict(locals_) if isinstance(locals_, dict) else {}))
            stack.append(_Frame(next_id, str(step.get("func"))))
            next_id += 1
            continue
        if not stack:
            continue  # a step outside any traced call (module level)
        frame = stack[-1]
        if event == "line":
            _on_line(frame, step, smap, log)
        elif event == "exception":
            if frame.pending is not None:
                frame.pending.raised = True
        elif event == "return":
            if frame.pending is not None:
                frame.pending.next_line = LEAVES
                locals_ = step.get("locals")
                frame.pending.after = dict(locals_) if isinstance(locals_, dict) else None
            record = log.frames[frame.id]
            record.returned = True
            value = step.get("value")
            record.value = dict(value) if isinstance(value, dict) else None
            stack.pop()
    if stack:
        log.complete = False
    return log


def _on_line(frame: _Frame, step: dict[str, Any], smap: SourceMap, log: VisitLog) -> None:
    raw = int(step.get("line", 0))
    stmt = smap.statement_at(raw)
    if stmt is None or not stmt.in_function or stmt.scope != frame.func:
        return  # comprehension / lambda frame, or a line we do not know
    if stmt.line == frame.last_statement and (raw != stmt.line or frame.in_continuation):
        frame.in_continuation = raw != stmt.line
        return  # a continuation line of the statement already being executed
    frame.in_continuation = raw != stmt.line
    frame.last_statement = stmt.line
    locals_ = step.get("locals")
    before = dict(locals_) if isinstance(locals_, dict) else {}
    if frame.pending is not None:
        frame.pending.next_line = stmt.line
        frame.pending.after = before
    visits = log.by_line.setdefault(stmt.line, [])
    visit = Visit(stmt.line, len(visits) + 1, frame.id, before)
    visits.append(visit)
    log.visits.append(visit)
    frame.pending = visit
