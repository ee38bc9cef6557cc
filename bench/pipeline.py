"""End-to-end pipeline throughput with the builtin teacher and feature-based difficulty.

Runs one batch in this process (the `execsynth synth` path) into a throwaway SQLite store and
prints accepted samples per minute (target: >= 5,000 on a 2-core machine), peak memory, the
share of wall time per stage, and the difficulty-score medians per requested level (which
the feature estimator's centre is calibrated against).

    python bench/pipeline.py            # 10,000 programs
    python bench/pipeline.py --quick    # 600 programs
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_PER_MINUTE = 5000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="600 programs")
    parser.add_argument("--chunk-size", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--naturalness", choices=("on", "off"), default="on",
                        help="the naturalness gate (issue 15); off: the pipeline without it")
    args = parser.parse_args()
    programs = 600 if args.quick else args.programs

    workdir = Path(tempfile.mkdtemp(prefix="execsynth-bench-"))
    os.environ["EXECSYNTH_DATA_DIR"] = str(workdir)
    from sqlalchemy import select

    from app.core.config import get_settings
    from app.db.models import Sample
    from app.db.session import session_scope
    from execsynth.commands.synth import run_batch, start_batch
    from workers.pipeline.batch_spec import BatchSpec
    from workers.pipeline.lifecycle import SampleStatus
    from workers.pipeline.teachers.builtin import close_pools
    from workers.runner import stages

    settings = get_settings()
    batch_id = start_batch(settings, BatchSpec(programs=programs, seed=args.seed, teacher="builtin",
                                               naturalness={"enabled": args.naturalness == "on"}))

    spent: dict[str, float] = defaultdict(float)
    for name, func in list(stages.RUNNERS.items()):
        def timed(*a, _func=func, _name=name, **kw):
            t0 = time.perf_counter()
            try:
                return _func(*a, **kw)
            finally:
                spent[_name] += time.perf_counter() - t0
        stages.RUNNERS[name] = timed

    t0 = time.perf_counter()
    funnel = run_batch(settings, batch_id, programs, args.chunk_size, show_progress=False)
    wall = time.perf_counter() - t0
    accepted = funnel["total"]["accepted"]
    rate = accepted / wall * 60
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    close_pools()  # the generator processes' CPU counts among the children once they are reaped
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    peak_children = kids.ru_maxrss / 1024

    with session_scope(settings.database_url) as session:
        by_level = defaultdict(list)
        for level, score in session.execute(select(Sample.level, Sample.difficulty_score).where(Sample.status == SampleStatus.ACCEPTED)):
            by_level[level].append(score)

    print(f"programs: {programs}   cores: {os.cpu_count()}   chunk: {args.chunk_size}   "
          f"naturalness gate: {args.naturalness}")
    print(f"accepted samples: {accepted} of {funnel['total']['inputs']} inputs in {wall:.1f} s")
    print(f"throughput: {rate:,.0f} accepted samples/min   target {TARGET_PER_MINUTE:,}   ratio {rate / TARGET_PER_MINUTE:.2f}x")
    print(f"peak RSS: this process {peak_self:.0f} MiB, largest child {peak_children:.0f} MiB")
    # the main process's Python work holds one GIL: its CPU seconds over wall time near 1.0
    # means it, not the sandbox children, bounds the rate
    print(f"CPU: this process {own.ru_utime + own.ru_stime:.1f} s ({(own.ru_utime + own.ru_stime) / wall:.2f} of wall), "
          f"sandbox and generator processes {kids.ru_utime + kids.ru_stime:.1f} s, per accepted sample "
          f"{(own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime) / max(accepted, 1) * 1000:.1f} ms")
    total = sum(spent.values()) or 1.0
    print("time per stage: " + ", ".join(f"{k} {v / total:.0%} ({v:.1f} s)" for k, v in spent.items()))
    print("difficulty score median per requested level: " + ", ".join(
        f"{lv} {statistics.median(v):.2f}" for lv, v in sorted(by_level.items())))
    print(f"rejections: {funnel['reasons'] or 'none'}")


if __name__ == "__main__":
    main()
