"""A small but real data set for the dashboard tests, written through the ORM.

Programs are hand-written, but everything derived from them is real: each input is run by the
real sandbox (`execsynth sandbox batch`, a subprocess) with tracing on, and features, the
difficulty score and the questions come from the pipeline's own stage functions. Two batches
differ in status and age (one finished three days ago, one running now), so the batch table,
ETA, the funnel and the date filter all have something to show.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from sqlalchemy.orm import Session

from app.db.models import Batch, Execution, Program, Question, Sample, TeacherCall
from workers.pipeline.difficulty import compute_features, difficulty_score
from workers.pipeline.questions import build_questions

# (type, method, level, source, inputs); an input that raises becomes an exec_error rejection
PROGRAMS = [
    ("str", "upper", "C1", "def f(s):\n    return s.upper().upper()\n", ["'abc'", "'Hello'"]),
    ("str", "split", "C2", "def f(s, sep):\n    parts = s.split(sep)\n    return len(parts), sorted(parts)\n",
     ["'b,a,c', ','", "'x y', ' '"]),
    ("list", "append", "C3", """
        def f(xs, n):
            out = []
            for x in xs:
                out.append(x * n)
            return out
        """, ["[1, 2, 3], 2", "[4], 3", "None, 1"]),
    ("list", "sort", "C4", """
        def f(xs):
            ys = sorted(xs)
            i = 0
            while i < len(ys):
                if ys[i] < 0:
                    ys[i] = -ys[i]
                i += 1
            return ys
        """, ["[3, -1, 2]", "[-5, -6]"]),
    ("dict", "get", "C5", """
        def f(d, keys):
            out = {}
            for k in keys:
                v = d.get(k, 0)
                if v > 2:
                    while v > 2:
                        v -= 2
                elif v == 0:
                    v = -1
                out[k] = v
            return out
        """, ["{'a': 7, 'b': 1}, ['a', 'b', 'c']", "{'z': 4}, ['z']"]),
    ("set", "add", "C6", """
        def helper(x):
            return x * x % 7

        def f(xs):
            seen = set()
            for x in xs:
                y = helper(x)
                if y in seen:
                    continue
                for _ in range(2):
                    while y > 3:
                        y -= 3
                seen.add(y)
            return sorted(seen)
        """, ["[1, 2, 3, 4]", "[5, 6]"]),
    ("str", "replace", "C3", """
        def f(s, n):
            out = s
            for _ in range(n):
                out = out.replace('a', 'ab', 1)
            return out
        """, ["'banana', 2", "'aaa', 1"]),
    ("dict", "items", "C2", "def f(d):\n    return sorted(d.items(), key=lambda kv: kv[1])\n",
     ["{'x': 3, 'y': 1}", "{'k': 0}"]),
    ("tuple", "count", "C1", "def f(t):\n    return t.count(t[0])\n", ["(1, 2, 1)", "()"]),
    ("list", "pop", "C4", """
        def f(xs):
            total = 0
            while xs:
                x = xs.pop()
                if x % 2 == 0:
                    total += x
                else:
                    total -= 1
            return total
        """, ["[1, 2, 3, 4]", "[6]"]),
]
OLD_BATCH_PROGRAMS = 6  # programs 0..5 go to the finished batch, the rest to the running one
SOLVER_K = 10
IN_FLIGHT = 3  # pending samples of the running batch
KEEP_PASSES = 3  # accepted when the solver passes at most this many of k


@dataclass
class Seeded:
    batch_ids: list[int] = field(default_factory=list)
    accepted_ids: list[int] = field(default_factory=list)
    sample_ids: list[int] = field(default_factory=list)
    sample_program_of_new: int = 0  # a program of the running batch


def run_in_sandbox(jobs: list[dict]) -> dict[str, dict]:
    """Runs jobs through the real sandbox CLI (JSONL contract in ARCHITECTURE.md)."""
    lines = "".join(json.dumps(job) + "\n" for job in jobs)
    done = subprocess.run([sys.executable, "-m", "execsynth.cli", "sandbox", "batch", "--trace", "--workers", "2"],
                          input=lines, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"sandbox batch failed ({done.returncode}): {done.stderr[-2000:]}")
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {r["id"]: r for r in results}


def seed(session: Session) -> Seeded:
    now = datetime.now(timezone.utc)
    sources = [textwrap.dedent(src).strip("\n") + "\n" for _, _, _, src, _ in PROGRAMS]
    jobs = [{"id": f"{i}:{k}", "code": sources[i], "entry_point": "f", "args": args}
            for i, (*_, inputs) in enumerate(PROGRAMS) for k, args in enumerate(inputs)]
    runs = run_in_sandbox(jobs)
    old = Batch(spec={"levels": ["C1", "C2", "C3", "C4", "C5", "C6"], "programs": 8}, seed=11, status="completed",
                teacher="builtin", programs_requested=8, created_at=now - timedelta(days=3, minutes=30),
                started_at=now - timedelta(days=3, minutes=29), finished_at=now - timedelta(days=3, minutes=20))
    new = Batch(spec={"levels": ["C1", "C2", "C3", "C4"], "programs": 12}, seed=12, status="running",
                teacher="builtin", programs_requested=12, created_at=now - timedelta(minutes=6),
                started_at=now - timedelta(minutes=5))
    session.add_all([old, new])
    session.flush()
    out = Seeded(batch_ids=[old.id, new.id])
    for i, (ctype, method, level, _, inputs) in enumerate(PROGRAMS):
        batch = old if i < OLD_BATCH_PROGRAMS else new
        created = batch.created_at + timedelta(minutes=2, seconds=i)
        call = TeacherCall(batch_id=batch.id, request_key=f"slot:{i}/generate", purpose="generate", teacher="builtin",
                           model="builtin-v1", prompt=[{"role": "user", "content": f"test {ctype}.{method}"}],
                           status="ok", prompt_tokens=300 + 10 * i, completion_tokens=120 + 5 * i,
                           cost_usd=0.002 * (i + 1), created_at=created)
        session.add(call)
        session.flush()
        program = _program(batch, i, call.id, ctype, method, level, sources[i], inputs[0], created)
        session.add(program)
        session.flush()
        out.sample_program_of_new = program.id
        for k, args in enumerate(inputs):
            sample = _sample(session, batch, program, runs[f"{i}:{k}"], i, k, args, created)
            out.sample_ids.append(sample.id)
            if sample.status == "accepted":
                out.accepted_ids.append(sample.id)
    # samples of the running batch still in flight (created, not executed yet): they count in
    # the totals but are no verdict, so the acceptance rate must leave them out
    in_flight = session.get(Program, out.sample_program_of_new)
    for k in range(IN_FLIGHT):
        args = f"[{k}, {k + 1}]"
        sample = Sample(batch_id=new.id, program_id=in_flight.id, args_hash=hashlib.sha256(args.encode()).hexdigest(),
                        args_source=args, input_index=100 + k, input_origin="mutation", status="pending",
                        constraint_type=in_flight.constraint_type, constraint_method=in_flight.constraint_method,
                        level=in_flight.level, created_at=now)
        session.add(sample)
        session.flush()
        out.sample_ids.append(sample.id)
    # programs the static check threw out, so the funnel shows program-stage reasons too
    for slot, reason in ((90, "constraint_mismatch"), (91, "no_code_block"), (92, "constraint_mismatch")):
        session.add(Program(batch_id=new.id, slot=slot, origin="builtin", constraint_type="list", constraint_method="append",
                            level="C2", requested={}, status="rejected", reject_reason=reason, created_at=now))
    session.add(TeacherCall(batch_id=new.id, request_key="slot:93/generate", purpose="generate", teacher="builtin",
                            model="builtin-v1", prompt=[], status="error", error="timeout", created_at=now))
    session.flush()
    return out


def _program(batch, slot, call_id, ctype, method, level, source, call_args, created) -> Program:
    digest = hashlib.sha256(source.encode()).hexdigest()
    return Program(batch_id=batch.id, slot=slot, origin="builtin", teacher_call_id=call_id, constraint_type=ctype,
                   constraint_method=method, level=level, requested={"level": level}, measured={"level": level},
                   prompt_template="gen-v1", source=source, entry_point="f", call_args=call_args,
                   normalized_hash=digest, dedup_key=digest, status="kept",
                   provenance={"teacher_model": "builtin-v1", "seed": batch.seed}, created_at=created)


def _sample(session, batch, program, run, i, k, args, created) -> Sample:
    args_hash = hashlib.sha256(args.encode()).hexdigest()
    execution = Execution(program_id=program.id, args_source=args, args_hash=args_hash, input_origin="teacher",
                          hash_seed=0, status=run["status"], result=run["result"], exception=run["exception"],
                          stdout=run["stdout"], trace=run["trace"], duration_ms=run["duration_ms"],
                          python_version="3.11", created_at=created)
    session.add(execution)
    session.flush()
    sample = Sample(batch_id=batch.id, program_id=program.id, execution_id=execution.id, args_hash=args_hash,
                    args_source=args, input_index=k, input_origin="teacher", constraint_type=program.constraint_type,
                    constraint_method=program.constraint_method, level=program.level, created_at=created)
    if run["status"] != "ok":
        sample.status, sample.reject_reason, sample.reject_detail = "rejected", "exec_error", json.dumps(run["exception"])
        session.add(sample)
        session.flush()
        return sample
    features = compute_features(program.source, "f", run["trace"], run["result"]["repr"])
    passes = (3 * i + k) % (SOLVER_K + 1)
    sample.features = features.to_dict()
    sample.difficulty_score = round(difficulty_score(features), 4)
    sample.difficulty_level = program.level
    sample.solver_passes, sample.solver_k = passes, SOLVER_K
    sample.result_chars, sample.trace_steps = len(run["result"]["repr"]), len(run["trace"]["steps"])
    questions = build_questions(program.source, "f", args, run["result"], run["trace"], seed=i * 10 + k)
    if passes > KEEP_PASSES:
        sample.status, sample.reject_reason = "rejected", "too_easy"
    elif questions.status != "kept":
        sample.status, sample.reject_reason = "rejected", questions.reason
    else:
        sample.status, sample.teacher_solved = "accepted", True
    session.add(sample)
    session.flush()
    if sample.status == "accepted":
        for q in questions.questions:
            session.add(Question(sample_id=sample.id, position=q.position, kind=q.kind, line=q.line, visit=q.visit,
                                 variable=q.variable, prompt=q.text, gold_answer=q.gold_answer, payload=q.payload))
    return sample
