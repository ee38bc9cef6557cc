"""Benchmark and report of the trace-grounded rationales and the questions they sit on.

Runs one C1-C6 batch with the builtin teacher through `execsynth synth` (a throwaway data
folder), then:
- questions: the share of `-1` next-line answers and `Nil` variable answers, and the share
  of the white-box reward each guessing policy earns (project reward, right assertion given);
- rationales: how many stored samples got a verified account (I->O, O->I, white-box notes),
  why the others failed, and an `execsynth export` of the reference SFT split: the share of
  SFT targets that carry a verified reasoning block (target >= 99%);
- speed: rationales written and verified per second over the batch's stored traces, against
  the baseline of building the questions themselves for the same samples in the same run,
  and their cost as a share of the per-sample budget of 5,000 accepted samples a minute on
  this machine's cores.

    python -m bench.rationale            # 600 programs (1,800 samples)
    python -m bench.rationale --quick    # 120 programs
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from app.db.models import Execution, Program, Question, Sample  # noqa: E402
from training.rationale import build_rationales  # noqa: E402
from training.question_record import Question as QuestionRecord  # noqa: E402
from training.training_tasks import IO_WHITEBOX, Task  # noqa: E402
from workers.pipeline.questions import build_oi_questions, build_questions  # noqa: E402
from workers.pipeline.questions.policies import POLICIES, whitebox_share  # noqa: E402

PIPELINE_TARGET_PER_MINUTE = 5_000
VERIFIED_TARGET = 0.99


def _cli(cwd: Path, *args: str) -> None:
    env = dict(os.environ, EXECSYNTH_DATA_DIR=str(cwd / "data"), COLUMNS="200")
    out = subprocess.run([sys.executable, "-m", "execsynth", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"execsynth {' '.join(args)} failed:\n{out.stderr[-2000:]}")


def _load(db: Path) -> list[dict]:
    engine = create_engine(f"sqlite:///{db}")
    with Session(engine) as session:
        stmt = (select(Sample.id, Program.slot, Program.source, Program.entry_point, Sample.args_source,
                       Execution.result, Execution.trace)
                .join(Program, Program.id == Sample.program_id).join(Execution, Execution.id == Sample.execution_id)
                .where(Sample.status == "accepted").order_by(Sample.id))
        rows = [dict(zip(("id", "slot", "code", "entry", "args", "result", "trace"), r)) for r in session.execute(stmt)]
        stored: dict[int, list] = {}
        for q in session.scalars(select(Question).order_by(Question.sample_id, Question.position, Question.kind)):
            stored.setdefault(q.sample_id, []).append(q)
    engine.dispose()
    for row in rows:
        row["questions"] = [QuestionRecord(q.kind, q.position, q.line, q.visit, q.variable, q.prompt, q.gold_answer, q.payload)
                            for q in stored.get(row["id"], [])]
        row["rationales"] = {(q.kind, q.position): q.rationale for q in stored.get(row["id"], [])}
    return rows


def _share(part: int, whole: int) -> str:
    return f"{part / whole:6.1%}" if whole else "   n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=600)
    parser.add_argument("--quick", action="store_true", help="120 programs")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    programs = 120 if args.quick else args.programs
    work = Path(tempfile.mkdtemp(prefix="execsynth-rationale-"))
    t0 = time.perf_counter()
    _cli(work, "synth", "--programs", str(programs), "--seed", str(args.seed))
    synth_s = time.perf_counter() - t0
    rows = _load(work / "data" / "execsynth.sqlite3")
    print(f"batch: {programs} programs, {len(rows)} accepted samples (C1-C6, builtin teacher) in {synth_s:.0f} s")

    answers: Counter = Counter()
    for row in rows:
        for q in row["questions"]:
            if q.kind in ("next_line", "variable"):
                answers[q.kind] += 1
                answers[(q.kind, q.gold_answer)] += q.gold_answer in ("-1", "Nil")
    print("\nquestions")
    print(f"  next-line answers: {answers['next_line']:6d}   -1:  {_share(answers[('next_line', '-1')], answers['next_line'])}  (limit 10%)")
    print(f"  variable answers:  {answers['variable']:6d}   Nil: {_share(answers[('variable', 'Nil')], answers['variable'])}  (limit 3%)")
    tasks = [Task(IO_WHITEBOX, r["code"], r["entry"], r["args"], {"type": r["result"]["type"], "repr": r["result"]["repr"]},
                  tuple(q for q in r["questions"] if q.kind != "oi")) for r in rows]
    for name, policy in POLICIES.items():
        print(f"  policy {name:<15} earns {whitebox_share(tasks, policy):6.1%} of the white-box reward  (limit 10%)")

    stored = Counter()
    for row in rows:
        parts = row["rationales"]
        stored["io"] += parts.get(("io", 0)) is not None
        stored["oi"] += ("oi", 0) in parts
        stored["oi ok"] += parts.get(("oi", 0)) is not None
        steps = [v for (k, p), v in parts.items() if p > 0]
        stored["steps"] += bool(steps)
        stored["steps ok"] += bool(steps) and all(v is not None for v in steps)
    print("\nstored rationales (verified in the pipeline)")
    print(f"  I->O account:      {_share(stored['io'], len(rows))} of {len(rows)} samples")
    print(f"  O->I reasoning:    {_share(stored['oi ok'], stored['oi'])} of {stored['oi']} samples with an O->I question")
    print(f"  white-box notes:   {_share(stored['steps ok'], stored['steps'])} of {stored['steps']} samples with step questions")

    items = [(r["code"], r["entry"], r["args"], r["result"], r["trace"], r["slot"]) for r in rows]
    t0 = time.process_time()  # CPU time: the machine may be shared
    built = []
    for code, entry, a, result, trace, slot in items:
        qs = build_questions(code, entry, a, result, trace, seed=slot)
        built.append([*qs.questions, *build_oi_questions(entry, a, result).questions])
    questions_s = time.process_time() - t0
    failures: Counter = Counter()
    t0 = time.process_time()
    for (code, entry, a, result, trace, slot), questions in zip(items, built):
        made = build_rationales(code, entry, a, result, trace, questions, slot)
        failures.update(f"{part}: {why.split(':')[-1].strip()[:60]}" for part, why in made.failures.items())
    rationale_s = time.process_time() - t0
    n = len(items)
    per_sample_ms = rationale_s / n * 1000
    budget_ms = (os.cpu_count() or 1) * 60_000 / PIPELINE_TARGET_PER_MINUTE
    print("\nspeed (one process, CPU time)")
    print(f"  rationale sets written + verified: {n / rationale_s:8.0f} samples/s ({per_sample_ms:.2f} ms each: "
          "I->O account, notes, O->I, three reward checks)")
    print(f"  baseline, questions built:         {n / questions_s:8.0f} samples/s   ratio rationales/questions time "
          f"{rationale_s / questions_s:.2f}x")
    print(f"  share of the {budget_ms:.0f} ms of core time per sample that {PIPELINE_TARGET_PER_MINUTE:,}/min allows: "
          f"{per_sample_ms / budget_ms:.0%}")
    if failures:
        print("  failures: " + ", ".join(f"{k} x{v}" for k, v in failures.most_common(6)))

    _cli(work, "export", "--format", "llamafactory", "--split", "sft", "--out", str(work / "sft"))
    manifest = json.loads((work / "sft" / "manifest.json").read_text())
    targets = manifest["splits"]["sft"]["targets"]
    total = sum(targets.values())
    verified = targets.get("trace_rationale", 0) + targets.get("teacher_solution", 0)
    print("\nSFT export (reference split, LLaMA-Factory)")
    print(f"  rows {total}, targets {json.dumps(targets, sort_keys=True)}")
    print(f"  with a verified reasoning block: {_share(verified, total)}   target {VERIFIED_TARGET:.0%}   "
          f"ratio {(verified / total if total else 0) / VERIFIED_TARGET:.3f}x")


if __name__ == "__main__":
    main()
