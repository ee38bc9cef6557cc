"""Sandbox throughput and latency against the reference pipeline's execution method.

The reference ran each program in a fresh `[sys.executable, "-c", ...]` subprocess with no
isolation (and traced in-process with sys.settrace). Both sides use all cores on the same
fixed corpus (bench/corpus/sandbox_programs.jsonl, 208 programs), untraced and traced,
alternating block by block so that other load on a shared machine hits both alike.
Targets (issue 3): untraced >= 10x the baseline with full isolation, traced >= 5x, and a
p50 latency of one untraced run under 5 ms. The cost of each job's own /tmp (a fresh
tmpfs per job, detached after it, issue 13) is measured in the same run against the old
way (one shared /tmp emptied by a walk after each job; `per_job_tmp=False`, bench only),
untraced, alternating block by block; `--no-root-cost` skips that part.

    .venv/bin/python bench/sandbox.py [--quick] [--rounds 3] [--repeat 3] [--workers N]
                                      [--no-root-cost] [--json]
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


def _blocks(programs: list[dict], size: int) -> list[list[dict]]:
    return [programs[i:i + size] for i in range(0, len(programs), size)]


def measure_root_cost(workers: int, repeat: int, rounds: int, block: int) -> dict:
    """Untraced runs/s with a fresh /tmp per job against one shared /tmp, and the start time
    of one forkserver pool (which pivots into the sandbox's own root) each way."""
    programs = load_corpus()
    figures: dict = {}
    boxes = {}
    try:
        for key, per_job in (("per_job_tmp", True), ("shared_tmp", False)):
            started = time.perf_counter()
            boxes[key] = Sandbox(isolation="namespaces", workers=workers, limits=Limits(timeout_s=5.0),
                                 per_job_tmp=per_job).start()
            figures[f"{key}_start_s"] = time.perf_counter() - started
            boxes[key].run_many(jobs_for(programs[:workers * 4], False, 1))
        spent = {key: 0.0 for key in boxes}
        runs = dict.fromkeys(boxes, 0)
        for _ in range(rounds):
            for part in _blocks(programs, block):
                for key, sb in boxes.items():
                    jobs = jobs_for(part, False, repeat)
                    started = time.perf_counter()
                    results = sb.run_many(jobs)
                    spent[key] += time.perf_counter() - started
                    runs[key] += len(jobs)
                    assert all(r.status == "ok" for r in results), [r for r in results if r.status != "ok"][:1]
        for key in boxes:
            figures[f"{key}_runs_per_s"] = runs[key] / spent[key]
            figures[f"{key}_ms_per_run"] = 1000 * spent[key] * workers / runs[key]
    finally:
        for sb in boxes.values():
            sb.close()
    figures["per_job_tmp_cost_ratio"] = figures["per_job_tmp_runs_per_s"] / figures["shared_tmp_runs_per_s"]
    return figures


def measure(workers: int, repeat: int, rounds: int, block: int) -> dict:
    """Both sides alternate block by block (baseline on `block` programs, then the sandbox on
    the same programs `repeat` times), `rounds` times over the corpus, so that load from
    other processes on a shared machine falls on both sides alike; each side's throughput is
    its runs over its total time."""
    programs = load_corpus()
    n = len(programs)
    figures: dict = {"programs": n, "workers": workers, "repeat": repeat, "rounds": rounds,
                     "block": block, "python": sys.version.split()[0],
                     "load_average": os.getloadavg()}
    started = time.perf_counter()
    with Sandbox(isolation="namespaces", workers=workers, limits=Limits(timeout_s=5.0)) as sb:
        figures["sandbox_start_s"] = time.perf_counter() - started
        sb.run_many(jobs_for(programs[:workers * 4], False, 1))  # warm every forkserver
        for trace, key in ((False, "untraced"), (True, "traced")):
            spent = {"baseline": 0.0, "sandbox": 0.0}
            runs = {"baseline": 0, "sandbox": 0}
            block_ratios, ok, same = [], 0, 0
            for _ in range(rounds):
                for part in _blocks(programs, block):
                    base_s, base_outputs = run_baseline(part, trace, workers)
                    jobs = jobs_for(part, trace, repeat)
                    started = time.perf_counter()
                    results = sb.run_many(jobs)
                    ours_s = time.perf_counter() - started
                    spent["baseline"] += base_s
                    spent["sandbox"] += ours_s
                    runs["baseline"] += len(part)
                    runs["sandbox"] += len(jobs)
                    block_ratios.append((len(jobs) / ours_s) / (len(part) / base_s))
                    ok += sum(r.status == "ok" for r in results)
                    if not trace:
                        same += sum(r.result is not None and r.result["repr"] == out
                                    for r, out in zip(results, base_outputs))
            for side in ("baseline", "sandbox"):
                figures[f"{side}_{key}_runs_per_s"] = runs[side] / spent[side]
            figures[f"ratio_{key}"] = (figures[f"sandbox_{key}_runs_per_s"]
                                       / figures[f"baseline_{key}_runs_per_s"])
            figures[f"block_ratios_{key}"] = sorted(round(r, 2) for r in block_ratios)
            figures[f"sandbox_{key}_ok"] = f"{ok}/{runs['sandbox']}"
            if not trace:
                figures["results_equal_to_baseline"] = f"{same}/{n * rounds}"
        latencies = []
        for job in jobs_for(programs, False, 1):
            started = time.perf_counter()
            sb.run(job)
            latencies.append((time.perf_counter() - started) * 1000)
    figures["latency_p50_ms"] = statistics.median(latencies)
    figures["latency_p95_ms"] = statistics.quantiles(latencies, n=20)[-1]
    figures["load_average_after"] = os.getloadavg()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3,
                        help="sandbox passes over each block (the baseline runs it once)")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the corpus")
    parser.add_argument("--block", type=int, default=52,
                        help="programs per block; the two sides alternate block by block")
    parser.add_argument("--quick", action="store_true", help="one round (about a third of "
                        "the time; noisier)")
    parser.add_argument("--no-root-cost", action="store_true",
                        help="skip measuring the per-job /tmp against a shared one")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else args.rounds
    figures = measure(args.workers, args.repeat, rounds, args.block)
    if not args.no_root_cost:
        figures.update(measure_root_cost(args.workers, args.repeat, rounds, args.block))
        figures["load_average_after_root_cost"] = os.getloadavg()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    load = " ".join(f"{x:.2f}" for x in figures["load_average"])
    load_after = " ".join(f"{x:.2f}" for x in figures["load_average_after"])
    print(f"corpus: {figures['programs']} programs x {figures['rounds']} rounds in blocks of "
          f"{figures['block']}, {figures['workers']} workers, Python {figures['python']}, "
          f"sandbox start {figures['sandbox_start_s']:.2f} s, "
          f"load average {load} (after: {load_after})")
    print(f"{'':24}{'baseline runs/s':>18}{'sandbox runs/s':>18}{'ratio':>9}{'target':>9}")
    for key, target in (("untraced", 10), ("traced", 5)):
        base = figures[f"baseline_{key}_runs_per_s"]
        ours = figures[f"sandbox_{key}_runs_per_s"]
        ratio = figures[f"ratio_{key}"]
        blocks = figures[f"block_ratios_{key}"]
        print(f"{key:24}{base:18.1f}{ours:18.1f}{ratio:8.1f}x{'>=' + str(target) + 'x':>9}"
              f"  {'met' if ratio >= target else 'MISSED'}  (blocks: {blocks[0]:.1f}x to "
              f"{blocks[-1]:.1f}x, median {statistics.median(blocks):.1f}x)")
    p50 = figures["latency_p50_ms"]
    print(f"latency of one untraced run: p50 {p50:.2f} ms, p95 {figures['latency_p95_ms']:.2f} ms"
          f" (target p50 < 5 ms: {'met' if p50 < 5 else 'MISSED'})")
    print(f"sandbox ok: untraced {figures['sandbox_untraced_ok']}, traced "
          f"{figures['sandbox_traced_ok']}; results equal to baseline repr: "
          f"{figures['results_equal_to_baseline']}")
    if "per_job_tmp_cost_ratio" in figures:
        load_root = " ".join(f"{x:.2f}" for x in figures["load_average_after_root_cost"])
        print(f"own /tmp per job vs one shared /tmp (untraced, same run, load after {load_root}): "
              f"{figures['per_job_tmp_runs_per_s']:.1f} vs {figures['shared_tmp_runs_per_s']:.1f} runs/s "
              f"({figures['per_job_tmp_ms_per_run']:.2f} vs {figures['shared_tmp_ms_per_run']:.2f} ms per run "
              f"per worker), ratio {figures['per_job_tmp_cost_ratio']:.2f}; pool start "
              f"{figures['per_job_tmp_start_s']:.2f} s vs {figures['shared_tmp_start_s']:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
