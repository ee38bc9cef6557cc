"""The rationale writer: an account of one traced call in the rationale language.

Every statement it makes is read off the trace (values after each line, branch outcomes,
the next line, calls and returns); what cannot be stated exactly is stated by type only or
makes the writer give up (None), never guessed. Loops are written out for the first
`detail` iterations and the last one, the iterations between summarized by the state they
leave; the writer lowers `detail` until the text fits its budget.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from training.prompts import ordinal
from training.rationale import language as L
from training.rationale.reading import MAX_VALUE_CHARS, Reading, Unreadable, read, stateable
from training.question_record import COVERAGE, NEXT_LINE, VARIABLE, Question
from training.trace.source_map import LOOP_KINDS
from training.trace.visits import LEAVES, FrameRecord, Visit

MAX_TARGET_CHARS = 4_800  # about 1,500 tokens of code-heavy text
MAX_CALL_DEPTH = 3  # deeper helper calls are stated by their result only
MAX_GOAL_CHARS = 400  # the output an O->I rationale starts from is always written out
DETAILS = (3, 2, 1, 0)  # loop iterations written out before a summary


class _GiveUp(Exception):
    pass


def _typed_text(typed: dict[str, Any] | None, limit: int = MAX_VALUE_CHARS) -> tuple[str, str] | None:
    if not isinstance(typed, dict) or typed.get("truncated") or "repr" not in typed or "type" not in typed:
        return None
    value, type_name = str(typed["repr"]), str(typed["type"])
    if len(value) > limit or not stateable(value) or not stateable(type_name):
        return None
    return value, type_name


class _Writer:
    def __init__(self, reading: Reading, rng: random.Random, detail: int) -> None:
        self.r = reading
        self.rng = rng
        self.detail = detail
        self.lines: list[str] = []

    def pick(self, options: Sequence[str]) -> str:
        return options[self.rng.randrange(len(options))]

    def fact(self, name: str, typed: dict[str, Any], verb: str | None = None) -> str:
        stated = _typed_text(typed)
        if stated is None:
            type_name = str(typed.get("type", ""))
            if not stateable(type_name) or not type_name:
                raise _GiveUp
            return f"`{name}` is updated ({type_name})"
        return f"`{name}` {verb or self.pick(L.FACT_VERBS)} `{stated[0]}` ({stated[1]})"

    def facts(self, pairs: list[tuple[str, dict[str, Any]]], verb: str | None = None) -> str:
        return ", ".join(self.fact(n, t, verb) for n, t in pairs)

    def returns(self, typed: dict[str, Any] | None, short: Sequence[str], long: Sequence[str], **names: str) -> str:
        """A returned value, or only its type when it is too long to write out."""
        stated = _typed_text(typed)
        if stated is not None:
            return self.pick(short).format(v=stated[0], t=stated[1], **names)
        type_name = str((typed or {}).get("type", ""))
        if not type_name or not stateable(type_name) or not type_name.replace(".", "_").isidentifier():
            raise _GiveUp
        return self.pick(long).format(t=type_name, **names)

    def source(self, line: int) -> str:
        src = self.r.smap.statements[line].source
        if not stateable(src):
            raise _GiveUp
        return src

    def call_text(self) -> str:
        text = f"{self.r.entry}({self.r.args})"
        if not stateable(text):
            raise _GiveUp
        return text

    def entry(self) -> None:
        frame = self.r.log.frames[0]
        args = [(n, t) for n, t in frame.args.items() if isinstance(t, dict) and n.isidentifier()]
        head = self.pick(L.ENTRIES).format(call=self.call_text())
        self.lines.append(f"{head}, so {self.facts(args, '=')}." if args else f"{head}.")

    def final(self) -> None:
        self.lines.append(self.returns(self.r.result, L.FINALS, L.FINALS_LONG, call=self.call_text()))

    def frame(self, frame: FrameRecord, depth: int) -> None:
        visits = self.r.by_frame.get(frame.id, [])
        i = 0
        while i < len(visits):
            visit = visits[i]
            jump = self.summary_end(visits, i)
            if jump is not None:
                self.summary(visits, i, jump, depth)
                i = jump
                continue
            self.visit(visit, frame, depth, first=i == 0)
            i += 1

    def summary_end(self, visits: list[Visit], i: int) -> int | None:
        """Index of the header visit that resumes the narration, when visit i starts the
        iterations to summarize."""
        mark = self.r.iteration.get(id(visits[i]))
        if mark is None or mark[1] != self.detail + 1:
            return None
        key, _ = mark
        total = self.r.totals[key]
        if total - 2 - self.detail < 1:
            return None
        for j in range(i + 1, len(visits)):
            if self.r.iteration.get(id(visits[j])) == (key, total - 1):
                return j
        return None

    def summary(self, visits: list[Visit], start: int, end: int, depth: int) -> None:
        header = visits[start].line
        skipped = sum(1 for v in visits[start:end] if v.line == header)
        before, after = visits[start].before, visits[end].before
        changed = [(n, t) for n, t in after.items() if isinstance(t, dict) and n.isidentifier()
                   and not n.startswith("__") and before.get(n) != t]
        text = self.pick(L.SUMMARIES).format(h=header, n=skipped, times=L.times(skipped))
        self.lines.append(L.INDENT * depth + (f"{text}, {self.facts(changed)}." if changed else f"{text}."))

    def visit(self, visit: Visit, frame: FrameRecord, depth: int, first: bool = False) -> None:
        if visit.raised or visit.after is None or visit.next_line is None:
            raise _GiveUp
        children = self.r.children(visit)
        nested = len(children) == 1 and depth + 1 < MAX_CALL_DEPTH
        heads = L.LINE_HEADS[:1] if first or nested else L.LINE_HEADS
        head = self.pick(heads).format(n=visit.line, src=self.source(visit.line))
        pad = L.INDENT * depth
        clauses = self.clauses(visit, frame)
        if nested:
            child = children[0]
            self.lines.append(f"{pad}{head} calls `{child.func}`:")
            self.frame(child, depth + 1)
            back = self.returns(child.value, ("`{f}` returns `{v}` ({t})",),
                                ("`{f}` returns a {t} (too long to write out)",), f=child.func)
            self.lines.append(f"{pad}{back}, {', '.join(clauses)}." if clauses else f"{pad}{back}.")
            return
        if children:
            funcs = {c.func for c in children}
            if len(funcs) != 1:
                raise _GiveUp
            clauses.insert(0, f"calls `{children[0].func}` ({len(children)} {L.times(len(children))})")
        self.lines.append(f"{pad}{head}: {', '.join(clauses) if clauses else 'nothing changes'}.")

    def clauses(self, visit: Visit, frame: FrameRecord) -> list[str]:
        stmt = self.r.smap.statements[visit.line]
        changed = self.r.changed(visit)
        out: list[str] = []
        leaves = visit.next_line == LEAVES
        if stmt.kind == "return" or leaves:
            if changed and stmt.kind != "return":
                out.append(self.facts(changed))
            out.append(self.returns(frame.value, L.RETURNS, L.RETURNS_LONG))
            return out
        if stmt.kind in ("if", "while"):
            taken = visit.next_line == stmt.body_first
            out.append(self.pick(L.CONDITIONS).format(b=str(taken)))
        elif stmt.kind in LOOP_KINDS:
            out.append(self.pick(L.NEXT_ITEMS) if visit.next_line == stmt.body_first else self.pick(L.NO_ITEMS))
        if changed:
            out.append(self.facts(changed))
        if stmt.kind in ("if", "while", "for") or visit.next_line != self.r.smap.successor(visit.line):
            out.append(self.pick(L.NEXTS).format(m=visit.next_line))
        return out


def _narrate(reading: Reading, seed: int, budget: int) -> list[str] | None:
    for detail in DETAILS:
        writer = _Writer(reading, random.Random(seed), detail)
        try:
            writer.entry()
            writer.frame(reading.log.frames[0], 0)
            writer.final()
        except _GiveUp:
            return None
        if sum(len(line) + 1 for line in writer.lines) <= budget:
            return writer.lines
    return None


def _read(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
          reading: Reading | None) -> Reading | None:
    if reading is not None:
        return reading
    try:
        return read(code, entry, args, result, trace)
    except Unreadable:
        return None


def write_forward(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
                  seed: int = 0, budget: int = MAX_TARGET_CHARS, reading: Reading | None = None) -> str | None:
    """The account of the call, line by line, or None when it cannot be written exactly
    within `budget` characters."""
    reading = _read(code, entry, args, result, trace, reading)
    if reading is None:
        return None
    lines = _narrate(reading, seed, budget)
    return None if lines is None else "\n".join(lines)


def write_steps(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
                steps: Sequence[Question], reading: Reading | None = None) -> dict[int, str] | None:
    """One note per white-box question (position -> text), or None if any cannot be written."""
    reading = _read(code, entry, args, result, trace, reading)
    if reading is None:
        return None
    notes: dict[int, str] = {}
    smap = reading.smap
    for q in steps:
        if q.kind == COVERAGE or q.line is None or q.line not in smap.statements:
            return None
        src = smap.statements[q.line].source
        if not stateable(src):
            return None
        visits = reading.log.by_line.get(q.line, [])
        ran = q.visit is not None and 1 <= q.visit <= len(visits)
        if q.kind == NEXT_LINE:
            if not visits:
                notes[q.position] = f"Question {q.position}: line {q.line} (`{src}`) never runs, so the answer is -1."
                continue
            if not ran:
                return None
            target = visits[q.visit - 1].next_line
            head = f"Question {q.position}: when line {q.line} (`{src}`) has run for the {ordinal(q.visit)} time, "
            if target == LEAVES:
                notes[q.position] = head + "execution leaves the function (-1)."
            elif target is not None and stateable(smap.statements[target].source):
                notes[q.position] = head + f"line {target} (`{smap.statements[target].source}`) runs next."
            else:
                return None
        elif q.kind == VARIABLE:
            if not visits:
                notes[q.position] = (f"Question {q.position}: line {q.line} (`{src}`) never runs for this input, "
                                     "so the answer is Nil.")
                continue
            if not ran or q.variable is None:
                return None
            typed = (visits[q.visit - 1].after or {}).get(q.variable)
            if not isinstance(typed, dict) or typed.get("truncated") or not stateable(str(typed.get("repr", ""))):
                return None
            notes[q.position] = (f"Question {q.position}: after line {q.line} (`{src}`) has run for the "
                                 f"{ordinal(q.visit)} time, `{q.variable}` = `{typed['repr']}` ({typed['type']}).")
        else:
            return None
    return notes


def write_oi(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
             seed: int = 0, budget: int = MAX_TARGET_CHARS, reading: Reading | None = None,
             forward: str | None = None) -> str | None:
    """From the required output back to the stored input, then that input traced forward
    (`forward`: an account of the call already written, used when it fits)."""
    reading = _read(code, entry, args, result, trace, reading)
    if reading is None:
        return None
    stated = _typed_text(result, MAX_GOAL_CHARS)
    frame = reading.log.frames[0]
    visits = reading.by_frame.get(0, [])
    if stated is None or not visits:
        return None
    writer = _Writer(reading, random.Random(seed), 1)
    lines = [f"We need `{entry}(????)` to return `{stated[0]}` ({stated[1]})."]
    try:
        last = visits[-1]
        stmt = reading.smap.statements[last.line]
        if stmt.kind == "return":
            src = writer.source(last.line)
            name = _returned_name(stmt.source)
            held = _typed_text(last.before.get(name), MAX_GOAL_CHARS) if name else None
            if name and held == stated:
                lines.append(f"The function returns it at line {last.line} (`{src}`), so `{name}` must be "
                             f"`{stated[0]}` ({stated[1]}) there.")
                setter = _last_change(visits[:-1], name)
                if setter is not None and _typed_text((setter.after or {}).get(name), MAX_GOAL_CHARS) == stated:
                    lines.append(f"`{name}` gets that value at line {setter.line} (`{writer.source(setter.line)}`).")
            else:
                lines.append(f"The function returns it at line {last.line} (`{src}`).")
        args_facts = [(n, t) for n, t in frame.args.items() if isinstance(t, dict) and n.isidentifier()]
        if not args_facts:
            return None
        lines.append(f"Try these arguments: {writer.facts(args_facts, '=')}.")
    except _GiveUp:
        return None
    lines.append("Check it by running the call forward:")
    done = f"That is `{stated[0]}`, the required output, so the input works."
    room = budget - sum(len(x) + 1 for x in lines) - len(done) - 1
    if forward is not None and len(forward) < room:
        return "\n".join([*lines, forward, done])
    narrated = _narrate(reading, seed, room)
    if narrated is None:
        return None
    return "\n".join([*lines, *narrated, done])


def _returned_name(source: str) -> str | None:
    value = source.removeprefix("return").strip()
    return value if value.isidentifier() else None


def _last_change(visits: list[Visit], name: str) -> Visit | None:
    for visit in reversed(visits):
        after = (visit.after or {}).get(name)
        if after is not None and after != visit.before.get(name):
            return visit
    return None
