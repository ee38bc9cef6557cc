"""Candidate white-box questions: every informative (line, visit) a trace supports.

Next statement: loop and branch headers, jumps that do not go to the textually next
statement, and statements that never run (-1). Variable: names that are new or changed
between a line and the next step of the same frame, and names a never-run line would bind
(Nil). A candidate is dropped when its answer would be unreadable or ungradable: a
truncated or non-literal value, a multi-line target line, an exception inside the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from training.values import NotALiteral, canonical_type, parse_literal
from workers.pipeline.questions.source_map import BRANCH_KINDS, LOOP_KINDS, SourceMap
from workers.pipeline.questions.visits import LEAVES, VisitLog

CONTROL, JUMP, NEVER = "control", "jump", "never"


@dataclass(frozen=True)
class NextLineCandidate:
    line: int
    visit: int
    next_line: int  # LEAVES (-1) when the line never runs or the frame returns there
    group: str  # CONTROL | JUMP | NEVER


@dataclass(frozen=True)
class VariableCandidate:
    line: int
    visit: int
    variable: str
    typed: dict[str, Any] | None  # None: the line never runs (answer Nil)
    group: str  # "changed" | NEVER


def never_run_lines(smap: SourceMap, log: VisitLog) -> list[int]:
    if not log.complete:
        return []
    return sorted(line for line, stmt in smap.statements.items()
                  if stmt.askable and line not in log.by_line)


def next_line_candidates(smap: SourceMap, log: VisitLog) -> list[NextLineCandidate]:
    out: list[NextLineCandidate] = []
    for visit in log.visits:
        stmt = smap.statements[visit.line]
        target = visit.next_line
        if not stmt.askable or target is None:
            continue
        if target != LEAVES and not smap.statements[target].askable:
            continue
        if stmt.kind in LOOP_KINDS or stmt.kind in BRANCH_KINDS:
            out.append(NextLineCandidate(visit.line, visit.visit, target, CONTROL))
        elif target != smap.successor(visit.line):
            out.append(NextLineCandidate(visit.line, visit.visit, target, JUMP))
    out.extend(NextLineCandidate(line, 1, LEAVES, NEVER) for line in never_run_lines(smap, log))
    return out


def variable_candidates(smap: SourceMap, log: VisitLog) -> list[VariableCandidate]:
    out: list[VariableCandidate] = []
    gradable: dict[tuple[str, str], bool] = {}  # values recur step after step
    for visit in log.visits:
        if not smap.statements[visit.line].askable or visit.after is None or visit.raised:
            continue
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
            out.append(VariableCandidate(visit.line, visit.visit, name,
                                         {"type": typed["type"], "repr": typed["repr"]}, "changed"))
    for line in never_run_lines(smap, log):
        for name in smap.statements[line].assigned:
            out.append(VariableCandidate(line, 1, name, None, NEVER))
    return out


def _askable_name(name: str) -> bool:
    return name.isidentifier() and not name.startswith("__")


def _gradable(typed: Any) -> bool:
    """Never ask about a truncated value, nor one whose repr is not a literal."""
    if not isinstance(typed, dict) or typed.get("truncated") or "repr" not in typed or "type" not in typed:
        return False
    try:
        value = parse_literal(str(typed["repr"]))
    except NotALiteral:
        return False
    return type(value).__name__ == canonical_type(str(typed["type"]))


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.get("type") == b.get("type") and a.get("repr") == b.get("repr")
