"""Reward throughput: white-box I->O scoring (no execution) and O->I scoring (one sandbox run
per answer) against the reference's way of grading, one fresh `python -c` per answer.

Targets (issue 6): white-box >= 2,000 scores/s/core; O->I >= 5x the subprocess baseline.
Single-threaded, so scores/s is scores/s per core.

    .venv/bin/python bench/rewards.py [--quick] [--isolation namespaces|rlimits]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from training import make
from training.rewards import compute_score
from training.rewards.runtime import set_sandbox_factory
from training.training_tasks import Task, _task_from_json

CODE = """def helper(s):
    out = []
    for ch in s:
        if ch.isdigit():
            out.append(int(ch))
    return out

def f(text, k):
    total = 0
    for p in helper(text):
        if p > k:
            total += p
        else:
            total -= 1
    return total
"""


def whitebox_tasks(n: int) -> list[Task]:
    """n distinct samples (distinct ground truths, so no cache is shared between them)
    with 5 next-statement and 5 variable questions each, like the reference's cap."""
    tasks = []
    for i in range(n):
        args = f'"a{i}b5c9", 4'
        result = {"type": "int", "repr": str(10 + i)}
        qs = [make.io_question("f", args, result)]
        qs += [make.next_line_question(p, 10, "for p in helper(text):", p, 11, "if p > k:") for p in range(1, 4)]
        qs += [make.next_line_question(4, 5, "out.append(int(ch))", 1, 3, "for ch in s:"),
               make.next_line_question(5, 15, "return total", 1, -1, None)]
        qs += [make.variable_question(6 + j, 12, "total += p", j + 1, "total",
                                      {"type": "int", "repr": str(5 * j + i)}) for j in range(3)]
        qs += [make.variable_question(9, 5, "out.append(int(ch))", 1, "out", {"type": "list", "repr": f"[{i % 10}]"}),
               make.variable_question(10, 14, "total -= 1", 2, "total", None)]
        tasks.append(Task("io_whitebox", CODE, "f", args, result, tuple(qs)))
    return tasks


def responses(task: Task) -> list[str]:
    """8 rollouts: gold, some wrong lines, a wrong output, reasoning text in front."""
    gold = task.gold_answer()
    reasoning = "<reasoning>\n" + "The loop visits each digit and compares it with k. " * 20 + "\n</reasoning>\n"
    wrong_lines = gold.replace("1. if p > k:", "1. -1").replace("6. ", "6. 999; int  # ")
    wrong_output = gold.replace(f"== {task.result['repr']}", "== -7")
    return [reasoning + r for r in (gold, gold, wrong_lines, wrong_output, gold, wrong_lines, gold, gold)]


def bench_whitebox(n_tasks: int) -> tuple[float, int]:
    tasks = whitebox_tasks(n_tasks)
    work = [(t.data_source, r, t.ground_truth()) for t in tasks for r in responses(t)]
    _task_from_json.cache_clear()
    started = time.perf_counter()
    total = 0.0
    for source, response, gt in work:
        total += compute_score(source, response, gt)["score"]
    elapsed = time.perf_counter() - started
    assert total > 0
    return len(work) / elapsed, len(work)


OI_CODE = "def f(xs, k):\n    out = []\n    for x in xs:\n        if x % k == 0:\n            out.append(x * 2)\n    return out\n"


def oi_work(n: int) -> list[tuple[str, str, str]]:
    task = Task("oi", OI_CODE, "f", "[3, 4, 6], 3", {"type": "list", "repr": "[6, 12]"},
                (make.oi_question("f", "[3, 4, 6], 3", {"type": "list", "repr": "[6, 12]"}),))
    answers = ["[3, 4, 6], 3", "[3, 6], 3", "[3, 6, 7], 3", "[1, 2], 3"]  # 3 right, 1 wrong
    return [(task.data_source, f"<answer>\nassert f({answers[i % 4]}) == [6, 12]\n</answer>", task.ground_truth())
            for i in range(n)]


def bench_oi(n: int, isolation: str) -> float:
    from sandbox import Sandbox

    sb = Sandbox(isolation=isolation)
    sb.__enter__()
    set_sandbox_factory(lambda: sb)
    try:
        work = oi_work(n)
        compute_score(*work[0])  # start the forkserver outside the timing
        started = time.perf_counter()
        scores = [compute_score(*w)["score"] for w in work]
        elapsed = time.perf_counter() - started
    finally:
        set_sandbox_factory(None)
    assert scores[:4] == [2.0, 2.0, 2.0, 0.0], scores[:4]
    return n / elapsed


def bench_subprocess_baseline(n: int) -> float:
    """The reference: a fresh interpreter per answer, running the model's assertion."""
    answers = ["[3, 4, 6], 3", "[3, 6], 3", "[3, 6, 7], 3", "[1, 2], 3"]
    started = time.perf_counter()
    passed = 0
    for i in range(n):
        program = OI_CODE + f"\nassert f({answers[i % 4]}) == [6, 12]\n"
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=30)
        passed += done.returncode == 0
    elapsed = time.perf_counter() - started
    assert passed == n - n // 4
    return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds")
    parser.add_argument("--isolation", default="namespaces")
    parser.add_argument("--skip-oi", action="store_true", help="white-box only (no sandbox)")
    opts = parser.parse_args()
    n_tasks, n_oi, n_base = (50, 100, 20) if opts.quick else (500, 1000, 100)
    wb_rate, wb_n = bench_whitebox(n_tasks)
    print(f"white-box I->O (10 questions, no execution): {wb_rate:10.0f} scores/s/core  ({wb_n} scores)"
          f"  target >= 2000: {'ok' if wb_rate >= 2000 else 'MISSED'}")
    if opts.skip_oi:
        return
    base = bench_subprocess_baseline(n_base)
    oi = bench_oi(n_oi, opts.isolation)
    print(f"O->I, sandbox run per answer:               {oi:10.1f} scores/s/core  ({n_oi} scores)")
    print(f"O->I, reference subprocess per answer:      {base:10.1f} scores/s/core  ({n_base} scores)")
    print(f"O->I speed-up over baseline: {oi / base:.1f}x  target >= 5x: {'ok' if oi / base >= 5 else 'MISSED'}")


if __name__ == "__main__":
    main()
