"""Fixture builder: realistic batches, programs, executions, samples and questions, inserted
through the ORM the way the pipeline stores them.

Results are real (the test's own trusted programs are run here and their value's repr and
type stored as {"type", "repr"}); white-box questions are built with `training.make` from a
real `sys.settrace` trace of the call, so every gold answer is the true one; that trace is
stored in the sandbox's format and the rationales are written and verified from it, as the
pipeline does.
"""

from __future__ import annotations

import hashlib
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.db.models import Batch, Execution, Program, Question, Sample
from training import make
from training.rationale import build_rationales

LEVELS = ("C1", "C2", "C3", "C4", "C5", "C6")
TYPES = ("str", "list", "dict")

# one template per type; {c} is a literal that makes each program distinct after normalization
TEMPLATES = {
    "str": ("""
def f(s, k):
    out = s.upper()
    if k > 1:
        out = out * k
    return out + '{c}'
""", ["'ab', 2", "'xyz', 1", "'q', 3"]),
    "list": ("""
def g(xs, n):
    total = 0
    for x in xs:
        total = total + x * {c}
    return total - n
""", ["[1, 2, 3], 4", "[5], 0", "[2, 2, 2, 2], 1"]),
    "dict": ("""
def h(d, key):
    items = sorted(d.items())
    found = d.get(key, {c})
    return [items, found]
""", ["{'a': 1, 'b': 2}, 'a'", "{'z': 3}, 'q'", "{}, 'k'"]),
}


def run_traced(code: str, entry: str, args: str) -> tuple[Any, list[tuple[int, dict[str, Any]]], dict[str, Any]]:
    """The call's value, the entry frame's (line, locals-before-line) events (the final
    locals are appended as line -1) and the trace in the sandbox's contract format."""
    ns: dict[str, Any] = {}
    exec(compile(code, "<prog>", "exec"), ns)
    events: list[tuple[int, dict[str, Any]]] = []
    steps: list[dict[str, Any]] = []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != "<prog>":
            return None
        if event == "line":
            events.append((frame.f_lineno, dict(frame.f_locals)))
        elif event == "return":
            events.append((-1, dict(frame.f_locals)))
        if event in ("call", "line", "return"):
            steps.append({"event": event, "func": frame.f_code.co_name, "line": frame.f_lineno, "depth": 0,
                          "locals": {k: typed(v) for k, v in frame.f_locals.items()}})
            if event == "return":
                steps[-1]["value"] = typed(arg)
        return tracer

    sys.settrace(tracer)
    try:
        value = eval(f"{entry}({args})", ns)
    finally:
        sys.settrace(None)
    return value, events, {"steps": steps}


def typed(value: Any) -> dict[str, str]:
    return {"type": type(value).__name__, "repr": repr(value)}


def step_questions(code: str, events: list[tuple[int, dict[str, Any]]]) -> list:
    """Next-line and variable questions about the first line event that assigns a variable."""
    lines = code.split("\n")
    out = []
    for i, (line, before) in enumerate(events[:-1]):
        nxt_line, after = events[i + 1]
        changed = sorted(k for k in after if k not in before or after[k] != before[k])
        if line > 0 and changed:
            src = lines[line - 1].strip()
            nxt_src = None if nxt_line == -1 else lines[nxt_line - 1].strip()
            out.append(make.next_line_question(1, line, src, 1, nxt_line, nxt_src))
            out.append(make.variable_question(2, line, src, 1, changed[0], typed(after[changed[0]])))
            break
    return out


@dataclass
class Built:
    batch_ids: list[int]
    program_ids: list[int]
    sample_ids: list[int]


def build(session: Session, n_programs: int = 36, seed: int = 7, mutants_every: int = 4,
          extra_code: dict[int, str] | None = None) -> Built:
    """`n_programs` teacher programs over levels x types, each with 3 inputs; every
    `mutants_every`-th program also gets an AST mutant child (same cluster, new hash).
    `extra_code` replaces the code of program number i (for contamination tests)."""
    batch = Batch(spec={"levels": list(LEVELS), "types": list(TYPES)}, seed=seed, status="completed",
                  teacher="builtin")
    session.add(batch)
    session.flush()
    built = Built([batch.id], [], [])
    slot = 0
    for i in range(n_programs):
        ctype = TYPES[i % len(TYPES)]
        level = LEVELS[(i // len(TYPES)) % len(LEVELS)]
        template, inputs = TEMPLATES[ctype]
        code = _render(template, i)
        if extra_code and i in extra_code:
            code, inputs = extra_code[i], ["'abc'", "'hello'", "'xy'"]
        parent = _program(session, batch, slot, 0, None, ctype, level, code, inputs, i)
        built.program_ids.append(parent.id)
        built.sample_ids += _samples(session, batch, parent, ctype, level, code, inputs, i)
        if mutants_every and i % mutants_every == 0 and not (extra_code and i in extra_code):
            mutant_code = _render(template, i + 1000)
            child = _program(session, batch, slot, 1, parent.id, ctype, level, mutant_code, inputs, i)
            built.program_ids.append(child.id)
            built.sample_ids += _samples(session, batch, child, ctype, level, mutant_code, inputs, i)
        slot += 1
    session.flush()
    return built


def _render(template: str, c: int) -> str:
    return textwrap.dedent(template).strip("\n").format(c=c) + "\n"


def _entry(code: str) -> str:
    return code.split("def ", 1)[1].split("(", 1)[0]


def _program(session, batch, slot, variant, parent_id, ctype, level, code, inputs, i) -> Program:
    nhash = hashlib.sha256(f"norm:{code}".encode()).hexdigest()
    p = Program(batch_id=batch.id, slot=slot, variant=variant, parent_id=parent_id,
                origin="teacher" if variant == 0 else "mutation", constraint_type=ctype,
                constraint_method={"str": "upper", "list": "+", "dict": "get"}[ctype], level=level,
                requested={"nested_calls": True}, measured={"control_flow_depth": 1},
                prompt_template="gen-v1", source=code, entry_point=_entry(code), call_args=inputs[0],
                normalized_hash=nhash, dedup_key=nhash, status="kept",
                provenance={"teacher_model": "builtin", "temperature": 0.8, "seed": batch.seed * 1000 + i})
    session.add(p)
    session.flush()
    return p


def _samples(session, batch, program, ctype, level, code, inputs, i) -> list[int]:
    ids = []
    for k, args in enumerate(inputs):
        value, events, trace = run_traced(code, program.entry_point, args)
        result = typed(value)
        ex = Execution(program_id=program.id, args_source=args, args_hash=hashlib.sha256(args.encode()).hexdigest(),
                       input_origin="teacher" if k == 0 else "synthesized", hash_seed=0, status="ok",
                       result=result, stdout="", trace=trace, duration_ms=1.5, python_version="3.11.9")
        session.add(ex)
        session.flush()
        s = Sample(batch_id=batch.id, program_id=program.id, execution_id=ex.id, args_hash=ex.args_hash,
                   args_source=args,
                   input_index=k, input_origin=ex.input_origin, status="accepted", constraint_type=ctype,
                   constraint_method=program.constraint_method, level=level,
                   difficulty_level=level, difficulty_score=round(((i * 7 + k * 3) % 10) / 10, 2),
                   features={}, solver_passes=(i + k) % 4, solver_k=10, teacher_solved=True,
                   result_chars=len(result["repr"]), trace_steps=len(events))
        session.add(s)
        session.flush()
        questions = [make.io_question(program.entry_point, args, result),
                     make.oi_question(program.entry_point, args, result), *step_questions(code, events)]
        notes = build_rationales(code, program.entry_point, args, result, trace, questions, seed=i * 10 + k)
        for q in questions:
            session.add(Question(sample_id=s.id, position=q.position, kind=q.kind, line=q.line, visit=q.visit,
                                 variable=q.variable, prompt=q.text, gold_answer=q.gold_answer, payload=q.payload,
                                 rationale=notes.for_question(q)))
        ids.append(s.id)
    # one rejected sample per program: must never be exported
    session.add(Sample(batch_id=batch.id, program_id=program.id, execution_id=None, args_hash=f"rej{program.id}",
                       args_source="None",
                       input_index=9, input_origin="synthesized", status="rejected", reject_reason="timeout",
                       constraint_type=ctype, constraint_method=program.constraint_method, level=level))
    return ids
