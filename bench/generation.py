"""Benchmark of program generation (issue 4).

(a) Builtin generator: programs per second, and the share of programs that run with status ok
    in the sandbox (the generator promises programs that run by construction).
(b) Teacher client efficiency: against the fake OpenAI-compatible server (a separate process,
    fixed latency L), achieved requests/second as a fraction of the ideal C / L at concurrency C.
    It shows how much the client itself (SDK, retries wrapper, limiter, semaphore) costs;
    the target is >= 0.9 at C = 64.

Run from the repository root: `python -m bench.generation [--quick]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workers.pipeline.records import ChatRequest  # noqa: E402
from workers.pipeline.teachers.base import complete_all  # noqa: E402
from workers.pipeline.teachers.openai_compat import OpenAICompatibleTeacher  # noqa: E402
from workers.pipeline.teachers.openai_config import OpenAITeacherSpec  # noqa: E402

TEACHER_TARGET = 0.9


def _request(index: int) -> ChatRequest:
    return ChatRequest(
        key=f"bench/{index}",
        messages=(
            {"role": "system", "content": "You are a code generator."},
            {"role": "user", "content": f"Write Python code that tests method split of type str. ({index})"},
        ),
        purpose="generate",
        seed=index,
    )


async def _timed_run(teacher: OpenAICompatibleTeacher, concurrency: int, waves: int) -> dict[str, Any]:
    try:
        await complete_all(teacher, [_request(-i - 1) for i in range(concurrency)])  # open the connections
        requests = [_request(i) for i in range(concurrency * waves)]
        cpu_started, started = time.process_time(), time.perf_counter()
        completions = await complete_all(teacher, requests)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    finally:
        await teacher.aclose()
    return {
        "requests": len(requests),
        "errors": sum(c.status != "ok" for c in completions),
        "elapsed_s": elapsed,
        "client_cpu_ms_per_request": cpu * 1000 / len(requests),
        "p50_latency_ms": statistics.median(c.latency_ms for c in completions),
    }


def bench_teacher(latency_s: float, concurrencies: list[int], waves: int) -> list[dict[str, Any]]:
    from tests.fakes.openai_server import FakeOpenAIServer

    rows = []
    with FakeOpenAIServer(mode="process", latency_s=latency_s, keep_bodies=False) as server:
        for concurrency in concurrencies:
            spec = OpenAITeacherSpec(base_url=server.base_url, model="fake-model", concurrency=concurrency, max_retries=0)
            result = asyncio.run(_timed_run(OpenAICompatibleTeacher(spec, name="bench"), concurrency, waves))
            achieved = result["requests"] / result["elapsed_s"]
            ideal = concurrency / latency_s
            rows.append({"concurrency": concurrency, "achieved_rps": achieved, "ideal_rps": ideal,
                         "efficiency": achieved / ideal, **result})
    return rows


def bench_builtin(per_level: int, seed: int) -> dict[str, Any]:
    """Programs/second of the builtin generator over C1-C6, and the sandbox pass share."""
    try:
        from workers.pipeline.builtin import UnsupportedConstraint, generate_program
        from workers.pipeline.constraints import LEVELS, load_catalog, select
    except ImportError as exc:
        return {"unavailable": f"builtin generator not importable yet ({exc})"}
    catalog = load_catalog()
    constraints = select(catalog, levels=sorted(LEVELS), count=per_level, seed=seed)
    programs, unsupported = [], 0
    started = time.perf_counter()
    for index, constraint in enumerate(constraints):
        try:
            programs.append(generate_program(constraint, seed, index, catalog=catalog))
        except UnsupportedConstraint:
            unsupported += 1
    elapsed = time.perf_counter() - started
    result: dict[str, Any] = {
        "programs": len(programs),
        "unsupported": unsupported,
        "programs_per_s": len(programs) / elapsed,
        "static_match_share": sum(p.matches for p in programs) / max(1, len(programs)),
    }
    try:
        from sandbox import Job, Sandbox, SandboxError
    except ImportError as exc:
        result["sandbox"] = f"unavailable: the sandbox is not importable yet ({exc})"
        return result
    jobs = [
        Job(id=str(index), code=program.code, entry_point=program.entry_point, args=program.args)
        for index, program in enumerate(programs)
    ]
    try:
        with Sandbox(isolation="namespaces") as sandbox:
            sandbox.run_many(jobs[:1])  # start the forkservers outside the timing
            started = time.perf_counter()
            outcomes = sandbox.run_many(jobs)
            result["sandbox_s"] = time.perf_counter() - started
    except SandboxError as exc:  # no namespaces here: report it instead of dying
        result["sandbox"] = f"unavailable: {type(exc).__name__}: {exc}"
        return result
    statuses: dict[str, int] = {}
    for outcome in outcomes:
        statuses[outcome.status] = statuses.get(outcome.status, 0) + 1
    result["pass_share"] = statuses.get("ok", 0) / max(1, len(jobs))
    result["statuses"] = statuses
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (about half a minute)")
    parser.add_argument("--latency", type=float, default=1.0,
                        help="fake server latency L in seconds (1 s: shorter than a real code-generation call)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-builtin", action="store_true")
    parser.add_argument("--skip-teacher", action="store_true")
    args = parser.parse_args(argv)
    per_level, waves = (20, 4) if args.quick else (200, 10)
    concurrencies = [8, 64, 128] if args.quick else [8, 32, 64, 128, 256]

    if not args.skip_builtin:
        print(f"(a) builtin generator, C1-C6, {per_level} programs per level")
        builtin = bench_builtin(per_level, args.seed)
        if "unavailable" in builtin:
            print(f"    unavailable: {builtin['unavailable']}")
        else:
            print(f"    {builtin['programs']} programs ({builtin['unsupported']} unsupported cells),"
                  f" {builtin['programs_per_s']:.0f} programs/s, static check match {builtin['static_match_share']:.1%}")
            if "pass_share" in builtin:
                print(f"    sandbox: {builtin['pass_share']:.1%} status ok {builtin['statuses']}"
                      f" in {builtin['sandbox_s']:.1f}s ({builtin['programs'] / builtin['sandbox_s']:.0f} runs/s)")
            else:
                print(f"    sandbox {builtin['sandbox']}")

    ok = True
    if not args.skip_teacher:
        print(f"(b) teacher client vs fake server, L={args.latency * 1000:.0f} ms, {waves} waves of C requests")
        print(f"    load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (the client needs one free core)")
        print("    C      req   req/s   ideal   efficiency  p50 ms  client CPU ms/req  errors")
        for row in bench_teacher(args.latency, concurrencies, waves):
            print(f"    {row['concurrency']:<6} {row['requests']:<5} {row['achieved_rps']:7.1f} {row['ideal_rps']:7.1f}"
                  f"   {row['efficiency']:9.3f}  {row['p50_latency_ms']:6.0f}  {row['client_cpu_ms_per_request']:17.2f}  {row['errors']}")
            if row["concurrency"] == 64:
                ok = row["efficiency"] >= TEACHER_TARGET and row["errors"] == 0
                print(f"    C=64 target >= {TEACHER_TARGET}: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
