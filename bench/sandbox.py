"""Sandbox throughput and latency against the reference pipeline's execution method.

The reference ran each program in a fresh `[sys.executable, "-c", ...]` subprocess with no
isolation (and traced in-process with sys.settrace). Both sides use all cores on the same
fixed corpus (bench/corpus/sandbox_programs.jsonl, 208 programs), untraced and traced.
Targets (issue 3): untraced >= 10x the baseline with full isolation, traced >= 5x, and a
p50 latency of one untraced run under 5 ms.

    .venv/bin/python bench/sandbox.py [--repeat 3] [--workers N] [--json]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Job, Limits, Sandbox  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus" / "sandbox_programs.jsonl"

BASELINE_TRACER = """
import sys, json
_steps = []
def _local(frame, event, arg):
    _steps.append((event, frame.f_code.co_name, frame.f_lineno,
                   {k: repr(v) for k, v in frame.f_locals.items()}))
    return _local
def _global(frame, event, arg):
    if frame.f_code.co_filename != "<string>":
        return None
    return _local(frame, event, arg)
"""


def load_corpus() -> list[dict]:
    with CORPUS.open() as handle:
        return [json.loads(line) for line in handle]


def baseline_script(program: dict, trace: bool) -> str:
    call = f"{program['entry_point']}({program['args']})"
    if not trace:
        return f"{program['code']}\nprint(repr({call}))\n"
    return (f"{BASELINE_TRACER}\n{program['code']}\nsys.settrace(_global)\n_r = {call}\n"
            "sys.settrace(None)\nprint(repr(_r))\nprint(json.dumps(_steps))\n")


def run_baseline(programs: list[dict], trace: bool, workers: int) -> tuple[float, list[str]]:
    def one(program: dict) -> str:
        proc = subprocess.run([sys.executable, "-c", baseline_script(program, trace)],
                              capture_output=True, text=True, timeout=5)
        return proc.stdout.split("\n", 1)[0]

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        outputs = list(pool.map(one, programs))
    return time.perf_counter() - started, outputs


def jobs_for(programs: list[dict], trace: bool, repeat: int) -> list[Job]:
    return [Job(id=f"{p['id']}#{r}", code=p["code"], entry_point=p["entry_point"],
                args=p["args"], trace=trace) for r in range(repeat) for p in programs]


def measure(workers: int, repeat: int) -> dict:
    programs = load_corpus()
    n = len(programs)
    figures: dict = {"programs": n, "workers": workers, "repeat": repeat,
                     "python": sys.version.split()[0]}
    base_untraced, base_outputs = run_baseline(programs, False, workers)
    base_traced, _ = run_baseline(programs, True, workers)
    figures["baseline_untraced_runs_per_s"] = n / base_untraced
    figures["baseline_traced_runs_per_s"] = n / base_traced

    started = time.perf_counter()
    with Sandbox(isolation="namespaces", workers=workers, limits=Limits(timeout_s=5.0)) as sb:
        figures["sandbox_start_s"] = time.perf_counter() - started
        sb.run_many(jobs_for(programs[:workers * 4], False, 1))  # warm every forkserver
        for trace, key in ((False, "untraced"), (True, "traced")):
            jobs = jobs_for(programs, trace, repeat)
            started = time.perf_counter()
            results = sb.run_many(jobs)
            elapsed = time.perf_counter() - started
            figures[f"sandbox_{key}_runs_per_s"] = len(jobs) / elapsed
            figures[f"sandbox_{key}_ok"] = sum(r.status == "ok" for r in results)
            if not trace:
                same = sum(r.result is not None and r.result["repr"] == out
                           for r, out in zip(results[:n], base_outputs))
                figures["results_equal_to_baseline"] = f"{same}/{n}"
        latencies = []
        for job in jobs_for(programs, False, 1):
            started = time.perf_counter()
            sb.run(job)
            latencies.append((time.perf_counter() - started) * 1000)
    figures["latency_p50_ms"] = statistics.median(latencies)
    figures["latency_p95_ms"] = statistics.quantiles(latencies, n=20)[-1]
    figures["ratio_untraced"] = (figures["sandbox_untraced_runs_per_s"]
                                 / figures["baseline_untraced_runs_per_s"])
    figures["ratio_traced"] = (figures["sandbox_traced_runs_per_s"]
                               / figures["baseline_traced_runs_per_s"])
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3, help="corpus passes on the sandbox side")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.workers, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"corpus: {figures['programs']} programs, {figures['workers']} workers, "
          f"Python {figures['python']}, sandbox start {figures['sandbox_start_s']:.2f} s")
    print(f"{'':24}{'baseline runs/s':>18}{'sandbox runs/s':>18}{'ratio':>9}{'target':>9}")
    for key, target in (("untraced", 10), ("traced", 5)):
        base = figures[f"baseline_{key}_runs_per_s"]
        ours = figures[f"sandbox_{key}_runs_per_s"]
        ratio = figures[f"ratio_{key}"]
        print(f"{key:24}{base:18.1f}{ours:18.1f}{ratio:8.1f}x{'>=' + str(target) + 'x':>9}"
              f"  {'met' if ratio >= target else 'MISSED'}")
    p50 = figures["latency_p50_ms"]
    print(f"latency of one untraced run: p50 {p50:.2f} ms, p95 {figures['latency_p95_ms']:.2f} ms"
          f" (target p50 < 5 ms: {'met' if p50 < 5 else 'MISSED'})")
    print(f"sandbox ok: untraced {figures['sandbox_untraced_ok']}, traced "
          f"{figures['sandbox_traced_ok']}; results equal to baseline repr: "
          f"{figures['results_equal_to_baseline']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
