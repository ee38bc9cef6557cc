"""A stored trace read once for the writer and the verifier: the source map, the visit log,
each frame's visits, loop iterations and which calls are the program's own functions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from training.trace.source_map import LOOP_KINDS, SourceMap, source_map_of
from training.trace.visits import FrameRecord, Visit, VisitLog, read_visits

MAX_VALUE_CHARS = 80  # longer values are stated by type only


class Unreadable(ValueError):
    """The trace cannot be narrated exactly (cut short, unparsable code, a raised line)."""


@dataclass
class Reading:
    code: str
    entry: str
    args: str
    result: dict[str, Any]
    smap: SourceMap
    log: VisitLog
    by_frame: dict[int, list[Visit]] = field(default_factory=dict)
    iteration: dict[int, tuple[int, int]] = field(default_factory=dict)  # id(visit) -> (entry key, iteration)
    totals: dict[int, int] = field(default_factory=dict)  # loop entry key -> header visits
    _changed: dict[int, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict, repr=False)

    def visible(self, frame: FrameRecord) -> bool:
        return frame.func in self.smap.params

    def children(self, visit: Visit) -> list[FrameRecord]:
        return [self.log.frames[f] for f in visit.calls if self.visible(self.log.frames[f])]

    def changed(self, visit: Visit) -> list[tuple[str, dict[str, Any]]]:
        """Names new or changed after the visit, in the order the trace lists them."""
        known = self._changed.get(id(visit))
        if known is not None:
            return known
        out = []
        for name, typed in (visit.after or {}).items():
            if not isinstance(typed, dict) or not name.isidentifier() or name.startswith("__"):
                continue
            old = visit.before.get(name)
            if old is None or old.get("type") != typed.get("type") or old.get("repr") != typed.get("repr"):
                out.append((name, typed))
        self._changed[id(visit)] = out
        return out


def read(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None) -> Reading:
    """Raises Unreadable. Writers and verifiers take an optional `reading` so that one
    sample's trace is read once for all of them."""
    if not trace or not isinstance(trace.get("steps"), list) or trace.get("truncated"):
        raise Unreadable("trace missing or cut short")
    try:
        smap = source_map_of(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise Unreadable("code does not parse") from None
    log = read_visits(trace["steps"], smap)
    if not log.complete or not log.frames or log.frames[0].func != entry or not log.frames[0].returned:
        raise Unreadable("the trace is not one complete call of the entry point")
    reading = Reading(code, entry, args, result, smap, log)
    for visit in log.visits:
        reading.by_frame.setdefault(visit.frame, []).append(visit)
    for visits in reading.by_frame.values():
        _count_iterations(reading, visits)
    return reading


def _count_iterations(reading: Reading, visits: list[Visit]) -> None:
    """Number each loop header visit within its entry into the loop (1, 2, ...)."""
    smap = reading.smap
    current: dict[int, tuple[int, int]] = {}  # header line -> (entry key, iteration)
    for i, visit in enumerate(visits):
        stmt = smap.statements[visit.line]
        if stmt.kind not in LOOP_KINDS:
            continue
        prev = visits[i - 1].line if i else None
        inside = prev is not None and stmt.line < prev <= stmt.end
        if inside and visit.line in current:
            key, n = current[visit.line]
            current[visit.line] = (key, n + 1)
        else:
            current[visit.line] = (id(visit), 1)
        key, n = current[visit.line]
        reading.iteration[id(visit)] = (key, n)
        reading.totals[key] = n


def stateable(text: str) -> bool:
    return "`" not in text and "\n" not in text and "\r" not in text
