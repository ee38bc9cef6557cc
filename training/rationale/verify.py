"""The rationale verifier: reads a rationale back with its own parser and checks each
statement against the trace.

The forward account must follow the trace exactly: each line record is the next visit of
its frame (same line number and source line), each stated value and type is the value
after that visit, each branch outcome, next line, call and return is what the trace shows,
and a loop summary skips exactly the iterations it names. Every backticked value and every
line number in the text must belong to a statement that was checked; a line in any other
shape is an error. Nothing is taken from the writer.
"""

from __future__ import annotations

import re
from typing import Any

from training.rationale import language as L
from training.rationale.reading import Reading, Unreadable, read
from training.question_record import COVERAGE, NEXT_LINE, VARIABLE, Question
from training.trace.source_map import LOOP_KINDS
from training.trace.visits import LEAVES, FrameRecord, Visit


class RationaleError(ValueError):
    """A rationale states something the trace does not show (the message says what)."""


def _same(typed: dict[str, Any] | None, value: str, type_name: str) -> bool:
    return isinstance(typed, dict) and str(typed.get("repr")) == value and str(typed.get("type")) == type_name \
        and not typed.get("truncated")


def _returned(typed: dict[str, Any] | None, m: re.Match[str]) -> bool:
    """A stated return: the value and type, or (too long to write out) the type alone."""
    if m["lt"] is not None:
        return isinstance(typed, dict) and str(typed.get("type")) == m["lt"]
    return _same(typed, m["v"], m["t"])


def _consume(rest: str, match: re.Match[str]) -> str:
    return rest.replace(match.group(0), "", 1)


def _leftover(rest: str, where: str) -> None:
    if "`" in rest or re.search(r"\bline \d+", rest, re.I):
        raise RationaleError(f"{where}: unchecked statement in {rest.strip()[:80]!r}")


class _Forward:
    def __init__(self, reading: Reading) -> None:
        self.r = reading
        self.stack: list[tuple[FrameRecord, int, Visit | None]] = []  # frame, next visit index, caller visit
        self.started = False
        self.finished = False

    def run(self, lines: list[str]) -> None:
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            stripped = raw.lstrip(" ")
            depth = (len(raw) - len(stripped)) // len(L.INDENT)
            self.where = f"rationale line {number}"
            self.record(stripped, depth)
        if not self.started or self.stack or not self.finished:
            raise RationaleError("the account does not cover the whole call")

    def fail(self, why: str) -> None:
        raise RationaleError(f"{self.where}: {why}")

    def facts(self, rest: str, state: dict[str, Any] | None, before: dict[str, Any] | None = None) -> str:
        for m in list(L.FACT_RE.finditer(rest)):
            if state is None or not _same(state.get(m["name"]), m["v"], m["t"]):
                self.fail(f"`{m['name']}` is not `{m['v']}` ({m['t']}) there")
            rest = _consume(rest, m)
        for m in list(L.UPDATED_RE.finditer(rest)):
            typed = None if state is None else state.get(m["name"])
            if not isinstance(typed, dict) or str(typed.get("type")) != m["t"]:
                self.fail(f"`{m['name']}` is not a {m['t']} there")
            if before is not None and before.get(m["name"]) == typed:
                self.fail(f"`{m['name']}` did not change")
            rest = _consume(rest, m)
        return rest

    def record(self, text: str, depth: int) -> None:
        if (m := L.ENTRY_RE.match(text)) is not None:
            return self.entry(text, m, depth)
        if not self.started:
            self.fail("the account must start with the call")
        if (m := L.FINAL_RE.match(text)) is not None:
            return self.final(m, depth)
        if (m := L.LINE_RE.match(text)) is not None:
            return self.line(text, m, depth)
        if (m := L.RETURN_OUT_RE.match(text)) is not None:
            return self.return_out(text, m, depth)
        if (m := L.SUMMARY_RE.match(text)) is not None:
            return self.summary(text, m, depth)
        self.fail(f"not a statement of the rationale language: {text[:80]!r}")

    def entry(self, text: str, m: re.Match[str], depth: int) -> None:
        if self.started or depth:
            self.fail("a second call record")
        if m["call"] != f"{self.r.entry}({self.r.args})":
            self.fail(f"the call is `{self.r.entry}({self.r.args})`, not `{m['call']}`")
        frame = self.r.log.frames[0]
        _leftover(self.facts(_consume(text, m), frame.args), self.where)
        self.stack.append((frame, 0, None))
        self.started = True

    def final(self, m: re.Match[str], depth: int) -> None:
        if len(self.stack) != 1 or depth or self.finished:
            self.fail("the result is stated before the call has returned")
        frame, index, _ = self.stack[0]
        if index != len(self.r.by_frame.get(frame.id, [])):
            self.fail("the result is stated before the call has returned")
        self.stack.pop()
        if m["call"] != f"{self.r.entry}({self.r.args})" or not _returned(self.r.result, m):
            self.fail("the stated result is not the call's result")
        self.finished = True

    def top(self, depth: int) -> tuple[FrameRecord, int, Visit | None]:
        if not self.stack or depth != len(self.stack) - 1:
            self.fail("indentation does not match the call depth")
        return self.stack[-1]

    def line(self, text: str, m: re.Match[str], depth: int) -> None:
        frame, index, caller = self.top(depth)
        visits = self.r.by_frame.get(frame.id, [])
        if index >= len(visits):
            self.fail(f"`{frame.func}` has no more lines to run")
        visit = visits[index]
        if int(m["n"]) != visit.line:
            self.fail(f"line {visit.line} runs here, not line {m['n']}")
        if m["src"] != self.r.smap.statements[visit.line].source:
            self.fail(f"line {visit.line} is not `{m['src']}`")
        self.stack[-1] = (frame, index + 1, caller)
        rest = _consume(text, m)
        nested = L.CALLS_NESTED_RE.search(rest)
        if nested is not None:
            children = self.r.children(visit)
            if len(children) != 1 or children[0].func != nested["func"]:
                self.fail(f"line {visit.line} does not call `{nested['func']}` once")
            _leftover(_consume(rest, nested), self.where)
            self.stack.append((children[0], 0, visit))
            return
        if (c := L.CALLS_SUMMARY_RE.search(rest)) is not None:
            funcs = [f.func for f in self.r.children(visit)]
            if funcs != [c["func"]] * int(c["n"]):
                self.fail(f"line {visit.line} does not call `{c['func']}` {c['n']} times")
            rest = _consume(rest, c)
        elif self.r.children(visit):
            self.fail(f"line {visit.line} calls a function the account leaves out")
        self.outcome(rest, visit, frame)

    def outcome(self, rest: str, visit: Visit, frame: FrameRecord) -> None:
        """Branch, loop, values, next line and return of one visit."""
        stmt = self.r.smap.statements[visit.line]
        if (m := L.CONDITION_RE.search(rest)) is not None:
            if stmt.kind not in ("if", "while") or (m["b"] == "True") != (visit.next_line == stmt.body_first):
                self.fail(f"the condition at line {visit.line} is not {m['b']}")
            rest = _consume(rest, m)
        if (m := L.NEXT_ITEM_RE.search(rest)) is not None:
            if stmt.kind not in LOOP_KINDS or visit.next_line != stmt.body_first:
                self.fail(f"the loop at line {visit.line} does not take another item")
            rest = _consume(rest, m)
        if (m := L.NO_ITEMS_RE.search(rest)) is not None:
            if stmt.kind not in LOOP_KINDS or visit.next_line == stmt.body_first:
                self.fail(f"the loop at line {visit.line} is not over")
            rest = _consume(rest, m)
        if (m := L.NEXT_RE.search(rest)) is not None:
            if int(m["a"] or m["b"]) != visit.next_line:
                self.fail(f"line {visit.next_line} runs after line {visit.line}, not line {m['a'] or m['b']}")
            rest = _consume(rest, m)
        if (m := L.RETURNS_RE.search(rest)) is not None:
            if visit.next_line != LEAVES or not _returned(frame.value, m):
                self.fail(f"`{frame.func}` does not return that after line {visit.line}")
            rest = _consume(rest, m)
        rest = self.facts(rest, visit.after, visit.before)
        if "nothing changes" in rest:
            if self.r.changed(visit):
                self.fail(f"line {visit.line} changes a value")
            rest = rest.replace("nothing changes", "", 1)
        _leftover(rest, self.where)

    def return_out(self, text: str, m: re.Match[str], depth: int) -> None:
        if len(self.stack) < 2 or depth != len(self.stack) - 2:
            self.fail("a return with no call open at this depth")
        frame, index, caller = self.stack[-1]
        if m["func"] != frame.func or index != len(self.r.by_frame.get(frame.id, [])):
            self.fail(f"`{m['func']}` is not the call that returns here")
        if not _returned(frame.value, m):
            self.fail(f"`{frame.func}` returns something else")
        self.stack.pop()
        parent = self.stack[-1][0]
        assert caller is not None
        self.outcome(_consume(text, m), caller, parent)

    def summary(self, text: str, m: re.Match[str], depth: int) -> None:
        frame, index, caller = self.top(depth)
        visits = self.r.by_frame.get(frame.id, [])
        header, count = int(m["h"]), int(m["n"])
        stmt = self.r.smap.statements.get(header)
        if stmt is None or stmt.kind not in LOOP_KINDS or count < 1:
            self.fail(f"line {header} is not a loop")
        seen, j = 0, index
        while j < len(visits):
            v = visits[j]
            if not (v.line == header or stmt.line < v.line <= stmt.end):
                self.fail(f"the loop at line {header} ends before {count} more iterations")
            if v.line == header:
                if seen == count:
                    break
                seen += 1
            j += 1
        if j >= len(visits) or visits[j].line != header or visits[index].line != header:
            self.fail(f"the loop at line {header} does not run {count} more times and come back")
        rest = self.facts(_consume(text, m), visits[j].before, visits[index].before)
        _leftover(rest, self.where)
        self.stack[-1] = (frame, j, caller)


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def _reading(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
             reading: Reading | None = None) -> Reading:
    if reading is not None:
        return reading
    try:
        return read(code, entry, args, result, trace)
    except Unreadable as exc:
        raise RationaleError(str(exc)) from None


def verify_forward(text: str, code: str, entry: str, args: str, result: dict[str, Any],
                   trace: dict[str, Any] | None, reading: Reading | None = None) -> None:
    """Raises RationaleError unless every statement of the account holds in the trace."""
    _Forward(_reading(code, entry, args, result, trace, reading)).run(_lines(text))


def verify_steps(notes: dict[int, str], steps: list[Question], code: str, entry: str, args: str,
                 result: dict[str, Any], trace: dict[str, Any] | None, reading: Reading | None = None) -> None:
    """Each note must answer its own question with what the trace shows."""
    reading = _reading(code, entry, args, result, trace, reading)
    smap, by_line = reading.smap, reading.log.by_line
    for q in steps:
        note = notes.get(q.position)
        if note is None or q.kind == COVERAGE:
            raise RationaleError(f"question {q.position} has no note")
        where = f"note {q.position}"
        m = L.STEP_NEVER_RE.match(note) or L.STEP_NEXT_RE.match(note) or L.STEP_VAR_RE.match(note)
        if m is None or int(m["q"]) != q.position or int(m["n"]) != q.line:
            raise RationaleError(f"{where}: not a note on question {q.position} about line {q.line}")
        if m["src"] != smap.statements[q.line].source:
            raise RationaleError(f"{where}: line {q.line} is not `{m['src']}`")
        visits = by_line.get(q.line, [])
        if m.re is L.STEP_NEVER_RE:
            if visits or ("Nil" in note) != (q.kind == VARIABLE):
                raise RationaleError(f"{where}: line {q.line} does run")
            continue
        k = int(m["k"])
        if k != q.visit or not 1 <= k <= len(visits):
            raise RationaleError(f"{where}: line {q.line} does not run a {k}th time")
        visit = visits[k - 1]
        if m.re is L.STEP_NEXT_RE:
            target = LEAVES if m["m"] is None else int(m["m"])
            if q.kind != NEXT_LINE or target != visit.next_line:
                raise RationaleError(f"{where}: line {visit.next_line} runs next")
            if m["m"] is not None and m["msrc"] != smap.statements[target].source:
                raise RationaleError(f"{where}: line {target} is not `{m['msrc']}`")
        elif q.kind != VARIABLE or m["name"] != q.variable or not _same((visit.after or {}).get(q.variable), m["v"], m["t"]):
            raise RationaleError(f"{where}: `{m['name']}` is not `{m['v']}` ({m['t']}) there")


def verify_oi(text: str, code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
              reading: Reading | None = None, verified_forward: str | None = None) -> None:
    """The backward part (goal, returning line, the value there, where it was set, the
    chosen arguments) and then the forward account of the chosen input (not checked again
    when it is `verified_forward`, an account of this trace that passed `verify_forward`)."""
    reading = _reading(code, entry, args, result, trace, reading)
    lines = _lines(text)
    try:
        split = next(i for i, line in enumerate(lines) if L.OI_CHECK_RE.match(line))
    except StopIteration:
        raise RationaleError("no forward check of the chosen input") from None
    frame = reading.log.frames[0]
    visits = reading.by_frame.get(0, [])
    if not visits:
        raise RationaleError("the entry point runs no line")
    last = visits[-1]
    for number, line in enumerate(lines[:split], 1):
        where = f"rationale line {number}"
        if (m := L.OI_GOAL_RE.match(line)) is not None:
            if m["entry"] != entry or not _same(result, m["v"], m["t"]):
                raise RationaleError(f"{where}: the required output is not `{m['v']}`")
        elif (m := L.OI_RETURN_AT_RE.match(line)) is not None:
            if int(m["n"]) != last.line or m["src"] != reading.smap.statements[last.line].source:
                raise RationaleError(f"{where}: the call does not return at line {m['n']}")
            if m["name"] is not None and not _same(last.before.get(m["name"]), m["v"], m["t"]):
                raise RationaleError(f"{where}: `{m['name']}` is not `{m['v']}` there")
        elif (m := L.OI_SET_AT_RE.match(line)) is not None:
            name = m["name"]
            setter = next((v for v in reversed(visits[:-1])
                           if (v.after or {}).get(name) is not None and (v.after or {}).get(name) != v.before.get(name)), None)
            if setter is None or setter.line != int(m["n"]) or m["src"] != reading.smap.statements[setter.line].source \
                    or (setter.after or {}).get(name) != last.before.get(name):
                raise RationaleError(f"{where}: `{name}` does not get its final value at line {m['n']}")
        elif (m := L.OI_TRY_RE.match(line)) is not None:
            rest = m["facts"]
            stated = set()
            for f in list(L.FACT_RE.finditer(rest)):
                if not _same(frame.args.get(f["name"]), f["v"], f["t"]):
                    raise RationaleError(f"{where}: the chosen `{f['name']}` is not `{f['v']}`")
                stated.add(f["name"])
                rest = _consume(rest, f)
            if stated != {n for n in frame.args if n.isidentifier()}:
                raise RationaleError(f"{where}: the chosen input does not name every parameter")
            _leftover(rest, where)
        else:
            raise RationaleError(f"{where}: not a statement of the rationale language: {line[:80]!r}")
    tail = lines[split + 1:]
    if not tail or (m := L.OI_DONE_RE.match(tail[-1])) is None or str(result.get("repr")) != m["v"]:
        raise RationaleError("the forward check does not end with the required output")
    if verified_forward is None or "\n".join(tail[:-1]) != "\n".join(_lines(verified_forward)):
        _Forward(reading).run(tail[:-1])
