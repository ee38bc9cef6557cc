"""Does the pipeline still make the same data? Digests of a batch's programs, samples,
executions and questions, keyed by natural keys (never row ids or timestamps), so two runs of
`execsynth synth` with the same spec and seed, by two versions of the code, can be compared.

    python -m bench.same_data run --out before.json [--programs 200 --seed 0]
    python -m bench.same_data compare before.json after.json

`run` makes a fresh embedded data dir, runs `execsynth synth` into it and writes the digests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import sqlalchemy as sa

TABLES = {
    "programs": ("SELECT slot, variant, origin, constraint_type, constraint_method, level, requested, measured,"
                 " source, entry_point, call_args, normalized_hash, status, reject_reason FROM programs"
                 " ORDER BY slot, variant"),
    "samples": ("SELECT p.slot, p.variant, s.args_source, s.input_index, s.input_origin, s.status, s.reject_reason,"
                " s.level, s.difficulty_level, s.difficulty_score, s.features, s.result_chars, s.trace_steps"
                " FROM samples s JOIN programs p ON p.id = s.program_id ORDER BY p.slot, p.variant, s.args_hash"),
    "executions": ("SELECT p.slot, p.variant, e.args_source, e.hash_seed, e.status, e.result, e.exception, e.stdout,"
                   " e.trace FROM executions e JOIN programs p ON p.id = e.program_id"
                   " ORDER BY p.slot, p.variant, e.args_hash, e.hash_seed"),
    "questions": ("SELECT p.slot, p.variant, s.args_hash, q.kind, q.position, q.line, q.visit, q.variable, q.prompt,"
                  " q.gold_answer, q.payload FROM questions q JOIN samples s ON s.id = q.sample_id"
                  " JOIN programs p ON p.id = s.program_id ORDER BY p.slot, p.variant, s.args_hash, q.kind, q.position"),
}


def digests(database_url: str) -> dict[str, dict[str, object]]:
    engine = sa.create_engine(database_url)
    out: dict[str, dict[str, object]] = {}
    with engine.connect() as conn:
        for table, query in TABLES.items():
            digest = hashlib.sha256()
            rows = 0
            for row in conn.execute(sa.text(query)):
                digest.update(json.dumps(list(row), default=str).encode())
                rows += 1
            out[table] = {"rows": rows, "sha256": digest.hexdigest()}
    engine.dispose()
    return out


def run(programs: int, seed: int, out: Path) -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "EXECSYNTH_DATA_DIR": data_dir}
        subprocess.run([sys.executable, "-m", "execsynth", "synth", "--programs", str(programs),
                        "--seed", str(seed), "--quiet"], env=env, check=True, stdout=subprocess.DEVNULL)
        result = digests(f"sqlite:///{data_dir}/execsynth.sqlite3")
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    print(f"{'table':<12}{'rows before':>12}{'rows after':>12}  same")
    same = True
    for table in TABLES:
        equal = a[table] == b[table]
        same &= equal
        print(f"{table:<12}{a[table]['rows']:>12}{b[table]['rows']:>12}  {'yes' if equal else 'NO'}")
    return 0 if same else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--programs", type=int, default=200)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.programs, args.seed, args.out)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
