"""Benchmark of the verl export (issue 8): N samples from Postgres to verl parquet.

Fills a throwaway Postgres database with N accepted samples (4 per program, every 10th
program an AST-mutant child of the previous one, io + oi + 2 white-box questions each)
through COPY, vacuums it as autovacuum would a live database, then runs `run_export` in a
child process and reports its wall time and peak memory (the child's max RSS, so the fill
does not count). Target: 1,000,000 samples in under 2 minutes and under 1 GiB.

Run from the repository root: `python -m bench.export [--samples 1000000] [--keep]`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ADMIN_URL = os.environ.get("EXECSYNTH_TEST_PG_ADMIN_URL", "postgresql+psycopg://127.0.0.1:5432/test")
TARGET_S, TARGET_MIB = 120.0, 1024.0
LEVELS = ("C1", "C2", "C3", "C4", "C5", "C6")
WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")

TEMPLATES = (
    ("str", "upper", "f", "def f(s, k):\n    out = s.upper()\n    out = out * k\n    return out + '{c}'\n"),
    ("list", "sum", "g", "def g(xs, n):\n    total = sum(xs) * {c}\n    total = total - n\n    return total\n"),
    ("dict", "get", "h", "def h(d, key):\n    found = d.get(key, {c})\n    pair = [found, len(d)]\n    return pair\n"),
)


def _case(t: int, c: int, i: int, rng: random.Random) -> tuple[str, object, str, object]:
    """(args, result, line-2 variable, its value after line 2); `i` keeps inputs distinct."""
    if t == 0:
        word, k = rng.choice(WORDS) + str(i), rng.randint(1, 3)
        return f"{word!r}, {k}", word.upper() * k + str(c), "out", word.upper()
    if t == 1:
        xs, n = [i] + [rng.randint(0, 9) for _ in range(rng.randint(0, 5))], rng.randint(0, 5)
        return f"{xs!r}, {n}", sum(xs) * c - n, "total", sum(xs) * c
    d = {w: rng.randint(0, 9) for w in rng.sample(WORDS, rng.randint(0, 3))}
    d[f"k{i}"] = i
    key = rng.choice(WORDS)
    return f"{d!r}, {key!r}", [d.get(key, c), len(d)], "found", d.get(key, c)


def _typed(value: object) -> dict[str, str]:
    return {"type": type(value).__name__, "repr": repr(value)}


def fill(url: str, n_samples: int, seed: int = 1) -> None:
    import psycopg

    from training import make

    rng = random.Random(seed)
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    n_programs = (n_samples + 3) // 4
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        cur.execute("INSERT INTO batches (id, spec, seed, status, priority, teacher, programs_requested,"
                    " prompt_tokens, completion_tokens, cost_usd, created_at) VALUES (1, '{}', 42, 'completed', 5,"
                    " 'builtin', %s, 0, 0, 0, %s)", (n_programs, now))
        with cur.copy("COPY programs (id, batch_id, slot, variant, parent_id, origin, constraint_type, constraint_method,"
                      " level, requested, measured, prompt_template, source, entry_point, call_args, normalized_hash,"
                      " dedup_key, status, provenance, created_at) FROM STDIN") as cp:
            for p in range(1, n_programs + 1):
                t = p % 3
                ctype, method, entry, template = TEMPLATES[t]
                code = template.format(c=p)
                h = hashlib.sha256(code.encode()).hexdigest()
                mutant = p % 10 == 0
                cp.write_row((p, 1, p, 1 if mutant else 0, p - 1 if mutant else None,
                              "mutation" if mutant else "teacher", ctype, method, LEVELS[(p // 3) % 6],
                              '{"nested_calls": true}', '{"control_flow_depth": 0}', "gen-v1", code, entry, "",
                              h, h, "kept", '{"teacher_model": "builtin"}', now))
        sid = 0
        ex_cp = "COPY executions (id, program_id, args_source, args_hash, input_origin, hash_seed, status, result," \
                " stdout, duration_ms, python_version, created_at) FROM STDIN"
        sa_cp = "COPY samples (id, batch_id, program_id, execution_id, args_hash, args_source, input_index," \
                " input_origin, status, constraint_type, constraint_method, level, difficulty_level," \
                " difficulty_score, features, solver_passes, solver_k, teacher_solved, result_chars, trace_steps," \
                " created_at) FROM STDIN"
        q_cp = "COPY questions (id, sample_id, position, kind, line, visit, variable, prompt, gold_answer, payload) FROM STDIN"
        rows_ex, rows_sa, rows_q = [], [], []
        qid = 0

        def flush() -> None:
            for stmt, rows in ((ex_cp, rows_ex), (sa_cp, rows_sa), (q_cp, rows_q)):
                with cur.copy(stmt) as cp:
                    for row in rows:
                        cp.write_row(row)
                rows.clear()

        for p in range(1, n_programs + 1):
            t = p % 3
            ctype, method, entry, template = TEMPLATES[t]
            lines = template.format(c=p).split("\n")
            for k in range(4):
                sid += 1
                if sid > n_samples:
                    break
                args, value, var, var_value = _case(t, p, k, rng)
                result = _typed(value)
                ah = hashlib.sha256(args.encode()).hexdigest()
                rows_ex.append((sid, p, args, ah, "synthesized", 0, "ok", json.dumps(result), "", 1.0, "3.11.9", now))
                level = LEVELS[(p // 3) % 6]
                rows_sa.append((sid, 1, p, sid, ah, args, k, "synthesized", "accepted", ctype, method, level, level,
                                rng.random(), "{}", rng.randint(0, 3), 10, True, len(result["repr"]), 6, now))
                qs = (make.io_question(entry, args, result), make.oi_question(entry, args, result),
                      make.next_line_question(1, 2, lines[1].strip(), 1, 3, lines[2].strip()),
                      make.variable_question(2, 2, lines[1].strip(), 1, var, _typed(var_value)))
                for q in qs:
                    qid += 1
                    rows_q.append((qid, sid, q.position, q.kind, q.line, q.visit, q.variable, q.text,
                                   q.gold_answer, json.dumps(q.payload)))
            if len(rows_sa) >= 20_000:
                flush()
        flush()
    # A live database has been vacuumed since its rows were written (autovacuum); a table filled
    # a moment ago has not, and its first full read would also write every page back (hint bits).
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


EXPORT_CHILD = """
import glob, json, resource, sys, threading, time
sys.path.insert(0, sys.argv[3])
from sqlalchemy.orm import Session
from app.db.session import make_engine
from training.export import ExportSpec, SplitSpec, TaskQuota, run_export
from training.export.parallel import worker_count

def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0

def read(path):  # a thread (the candidates prefetch) may end between glob and open
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""

WORKER_ARGS = ["-m", "training.export.worker"]
peak = {"tree": 0, "workers": 0, "worker": 0}
done = threading.Event()

def sample():  # the exporter plus its worker processes, summed, every 0.2 s
    while not done.wait(0.2):
        kids = [int(p) for f in glob.glob("/proc/self/task/*/children") for p in read(f).split()]
        # a child between fork and exec (vfork: it shares the exporter's pages) shows the
        # exporter's RSS a second time: only started workers count, known by their exact
        # arguments (this script's own command line holds the module name too)
        sizes = [rss_kib(k) for k in kids if read(f"/proc/{k}/cmdline").split("\\0")[1:3] == WORKER_ARGS]
        peak["tree"] = max(peak["tree"], rss_kib("self") + sum(sizes))
        peak["workers"] = max(peak["workers"], sum(sizes))
        peak["worker"] = max([peak["worker"], *sizes])

n = int(sys.argv[4])
spec = ExportSpec(format="verl", splits=(SplitSpec("rl", (TaskQuota("io_whitebox", n * 6 // 10), TaskQuota("oi", None))),))
engine = make_engine(sys.argv[1])
threading.Thread(target=sample, daemon=True).start()
t0, cpu0 = time.perf_counter(), time.process_time()
with Session(engine) as session:
    result = run_export(session, spec, sys.argv[2])
seconds = time.perf_counter() - t0
done.set()
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "rows": result.sample_count,
                  "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "tree_rss_mib": peak["tree"] / 1024, "workers": worker_count(result.sample_count),
                  "workers_rss_mib": peak["workers"] / 1024, "worker_rss_mib": peak["worker"] / 1024,
                  "cpu_s": time.process_time() - cpu0 + kids.ru_utime + kids.ru_stime,
                  "bytes": sum(f["bytes"] for f in result.files)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--keep", action="store_true", help="keep the database (prints its URL)")
    parser.add_argument("--url", help="reuse a database filled by an earlier --keep run")
    args = parser.parse_args()
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from app.db import migrate

    admin = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    url, name = args.url, None
    if url is None:
        name = f"execsynth_bench_{uuid.uuid4().hex[:8]}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    try:
        if args.url is None:
            migrate.upgrade(url)
            t0 = time.perf_counter()
            fill(url, args.samples)
            print(f"filled {args.samples} samples in {time.perf_counter() - t0:.1f}s", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            root = str(Path(__file__).resolve().parents[1])
            out = subprocess.run([sys.executable, "-c", EXPORT_CHILD, url, f"{tmp}/out", root, str(args.samples)],
                                 capture_output=True, text=True, check=False)
            if out.returncode != 0:
                sys.exit(f"export failed:\n{out.stderr}")
            report = json.loads(out.stdout.strip().splitlines()[-1])
        # every process counts: the exporter's own peak, or the sampled peak of the exporter
        # and its workers together, whichever is larger
        peak = max(report["max_rss_mib"], report["tree_rss_mib"])
        ok = report["seconds"] < TARGET_S and peak < TARGET_MIB
        print(f"verl export: {report['rows']} rows, {report['bytes'] / 2**20:.0f} MiB of parquet in "
              f"{report['seconds']:.1f}s ({report['rows'] / report['seconds']:.0f} rows/s), "
              f"peak RSS {peak:.0f} MiB (exporter alone {report['max_rss_mib']:.0f}; {report['workers']} workers: "
              f"{report['workers_rss_mib']:.0f} together, {report['worker_rss_mib']:.0f} the largest), "
              f"{report['cpu_s']:.0f} CPU-s in the exporter and workers (Postgres not counted); target <{TARGET_S:.0f}s and <{TARGET_MIB:.0f} MiB: "
              f"{'met' if ok else 'NOT met'}")
    finally:
        if args.keep:
            print(f"database kept: {url}")
        elif name is not None:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
