"""Candidate white-box questions: every informative (line, visit) a trace supports.

Next statement: loop and branch headers and jumps that do not go to the textually next
statement, plus statements that never run (-1). Never after a `return` line or the
function's last line: their answer is -1 or the caller's business, a guess that needs no
reading. Variable: names that are new or changed between a line and the next step of the
same frame, never one just assigned a literal (its value is printed in the code), and names
a never-run line would bind (Nil). A candidate is dropped when its answer would be
unreadable or ungradable: a truncated or non-literal value, a multi-line target line, an
exception inside the line.

Each candidate carries a priority: input-dependent values (the line reads a parameter or
something computed from one), loop-carried values (a loop line updating what it read) and
later visits of loop lines are worth more than first visits of straight-line code; a value
equal to one of the call's arguments is printed in the prompt, so it comes last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from training.trace.source_map import BRANCH_KINDS, LOOP_KINDS, SourceMap
from training.trace.visits import LEAVES, VisitLog
from training.values import NotALiteral, canonical_type, parse_literal

CONTROL, JUMP, NEVER = "control", "jump", "never"


@dataclass(frozen=True)
class NextLineCandidate:
    line: int
    visit: int
    next_line: int  # LEAVES (-1) when the line never runs or the frame returns there
    group: str  # CONTROL | JUMP | NEVER
    priority: int = 0

    @property
    def constant(self) -> bool:
        """The answer is -1, the one a guessing policy would give."""
        return self.next_line == LEAVES


@dataclass(frozen=True)
class VariableCandidate:
    line: int
    visit: int
    variable: str
    typed: dict[str, Any] | None  # None: the line never runs (answer Nil)
    group: str  # "changed" | NEVER
    priority: int = 0

    @property
    def constant(self) -> bool:
        return self.typed is None


def never_run_lines(smap: SourceMap, log: VisitLog) -> list[int]:
    if not log.complete:
        return []
    return sorted(line for line, stmt in smap.statements.items()
                  if stmt.askable and line not in log.by_line)


def input_dependent_names(smap: SourceMap) -> set[str]:
    """Names (any function) whose value can flow from a parameter: parameters, and what a
    statement reading one of them binds or updates (to a fixpoint, loops included)."""
    tainted = {p for params in smap.params.values() for p in params}
    changed = True
    while changed:
        changed = False
        for stmt in smap.statements.values():
            if not stmt.in_function or not tainted.intersection(stmt.reads):
                continue
            bound = set(stmt.assigned)
            if stmt.kind == "simple" and not stmt.assigned and stmt.reads:
                bound.add(stmt.reads[0])  # `out.append(x)`: the receiver changes
            if not bound <= tainted:
                tainted |= bound
                changed = True
    return tainted


def _askable_next(smap: SourceMap, line: int) -> bool:
    stmt = smap.statements[line]
    return stmt.askable and stmt.kind != "return" and line != smap.last_line(stmt.scope)


def next_line_candidates(smap: SourceMap, log: VisitLog, tainted: set[str] | None = None) -> list[NextLineCandidate]:
    tainted = input_dependent_names(smap) if tainted is None else tainted
    out: list[NextLineCandidate] = []
    for visit in log.visits:
        stmt = smap.statements[visit.line]
        target = visit.next_line
        if target is None or not _askable_next(smap, visit.line):
            continue
        if target != LEAVES and not smap.statements[target].askable:
            continue
        priority = int(bool(tainted.intersection(stmt.reads)))
        if stmt.kind in LOOP_KINDS:
            out.append(NextLineCandidate(visit.line, visit.visit, target, CONTROL, priority + (visit.visit > 1)))
        elif stmt.kind in BRANCH_KINDS:
            out.append(NextLineCandidate(visit.line, visit.visit, target, CONTROL, priority))
        elif target != smap.successor(visit.line):
            out.append(NextLineCandidate(visit.line, visit.visit, target, JUMP, priority))
    out.extend(NextLineCandidate(line, 1, LEAVES, NEVER) for line in never_run_lines(smap, log)
               if _askable_next(smap, line))
    return out


def variable_candidates(smap: SourceMap, log: VisitLog, tainted: set[str] | None = None) -> list[VariableCandidate]:
    tainted = input_dependent_names(smap) if tainted is None else tainted
    out: list[VariableCandidate] = []
    gradable: dict[tuple[str, str], bool] = {}  # values recur step after step
    shown = {(str(t.get("type")), str(t.get("repr"))) for t in (log.frames[0].args.values() if log.frames else ())
             if isinstance(t, dict)}
    for visit in log.visits:
        stmt = smap.statements[visit.line]
        if not stmt.askable or stmt.assigns_literal or visit.after is None or visit.raised:
            continue
        dependent = bool(tainted.intersection(stmt.reads))
        in_loop = stmt.kind in LOOP_KINDS or bool(smap.enclosing_loops(visit.line))
        for name, typed in visit.after.items():
            if not isinstance(typed, dict) or not _askable_name(name):
                continue
            old = visit.before.get(name)
            if old is not None and _same(old, typed):
                continue
            if typed.get("truncated") or "repr" not in typed or "type" not in typed:
                continue  # never gradable
            key = (str(typed["type"]), str(typed["repr"]))  # all _gradable reads of the rest
            if key not in gradable:
                gradable[key] = _gradable(typed)
            if not gradable[key]:
                continue
            carried = in_loop and old is not None and (name in stmt.reads or stmt.kind in LOOP_KINDS)
            priority = 2 * dependent + 2 * carried + (in_loop and visit.visit > 1) - 6 * (key in shown)
            out.append(VariableCandidate(visit.line, visit.visit, name,
                                         {"type": typed["type"], "repr": typed["repr"]}, "changed", priority))
    for line in never_run_lines(smap, log):
        for name in smap.statements[line].assigned:
            out.append(VariableCandidate(line, 1, name, None, NEVER))
    return out


def _askable_name(name: str) -> bool:
    return name.isidentifier() and not name.startswith("__")


_PLAIN = (int, str, bool, type(None))  # types whose repr is always a literal of themselves


def _gradable(typed: Any) -> bool:
    """Never ask about a truncated value, nor one whose repr is not a literal."""
    if not isinstance(typed, dict) or typed.get("truncated") or "repr" not in typed or "type" not in typed:
        return False
    plain = typed.get("json")
    if (type(plain) in _PLAIN or (type(plain) is float and math.isfinite(plain))) \
            and repr(plain) == typed["repr"] and type(plain).__name__ == canonical_type(str(typed["type"])):
        return True  # the repr is the literal of this value: no need to parse it
    try:
        value = parse_literal(str(typed["repr"]))
    except NotALiteral:
        return False
    return type(value).__name__ == canonical_type(str(typed["type"]))


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.get("type") == b.get("type") and a.get("repr") == b.get("repr")
