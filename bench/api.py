"""Benchmark of the REST API (issue 7a).

Seeds a throwaway Postgres database with N samples (default 1,000,000), starts a real uvicorn
server on it, and measures p50/p95/p99 latency of
  GET  /v1/stats/difficulty                     target p95 < 100 ms
  GET  /v1/samples (a filtered page of 50)      (reported)
  POST /v1/batches                              target p99 < 50 ms
under 32 concurrent clients. It also times the uncached difficulty aggregate (the one GROUP
BY the stats snapshot is built from), since the served figure mostly measures the snapshot.

The load comes from wrk (Debian package `wrk`) when it is on PATH: a C load generator leaves
the machine's two cores to the server, where a Python client would take half of them. Without
wrk (or with `--client httpx`) an asyncio httpx client does the same closed loop. Either way
each client sends its next request as soon as the last one is answered, so by Little's law the
latency at 32 clients is 32 / throughput: the targets ask for ~1,000 POST/s on this machine.

Run from the repository root: `python -m bench.api [--quick]` (needs Postgres and Redis).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from bench.api_seed import create_database, drop_database, seed  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEC = {"types": ["str"], "methods": ["split"], "levels": ["C1", "C3"], "programs": 100, "inputs_per_program": 2}
TARGETS = {"stats": ("p95", 100.0), "post": ("p99", 50.0)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def _load(base: str, name: str, make_request, clients: int, total: int) -> dict:
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        for i in range(min(clients, 8)):  # warm connections and caches
            await make_request(http, -1 - i)

        async def worker() -> None:
            nonlocal errors
            for i in counter:
                started = time.perf_counter()
                response = await make_request(http, i)
                latencies.append((time.perf_counter() - started) * 1000)
                errors += response.status_code >= 400

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        elapsed = time.perf_counter() - started
    return {"name": name, "n": len(latencies), "errors": errors, "rps": len(latencies) / elapsed,
            "p50": statistics.median(latencies), "p95": _percentile(latencies, 0.95), "p99": _percentile(latencies, 0.99)}


WRK_SCRIPT = """
local counter = 0
local method, path, body, key = %(method)s, %(path)s, %(body)s, %(key)s
request = function()
  counter = counter + 1
  local headers = {["X-API-Key"] = key}
  local payload = nil
  if body ~= nil then
    headers["Content-Type"] = "application/json"
    payload = string.gsub(body, "SEED", tostring(counter))
  end
  return wrk.format(method, path, headers, payload)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"n": %%d, "errors": %%d, "seconds": %%f, "p50": %%f, "p95": %%f, "p99": %%f}\\n',
    summary.requests, e.status + e.connect + e.read + e.write + e.timeout, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""


def _lua(value: str | None) -> str:
    return "nil" if value is None else json.dumps(value)  # a JSON string is a valid Lua string here


def _wrk(base: str, name: str, method: str, path: str, body: str | None, key: str, clients: int, seconds: float) -> dict:
    """One closed-loop wrk run; `SEED` in the body is replaced by a per-request counter."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % {"method": _lua(method), "path": _lua(path), "body": _lua(body), "key": _lua(key)})
    try:
        out = subprocess.run(["wrk", "-t", str(min(2, clients)), "-c", str(clients), "-d", f"{seconds:.0f}s", "--timeout", "10s",
                              "-s", script.name, base], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    line = next(x for x in out.splitlines() if x.startswith("WRK "))
    r = json.loads(line[4:])
    return {"name": name, "n": r["n"], "errors": r["errors"], "rps": r["n"] / r["seconds"],
            "p50": r["p50"], "p95": r["p95"], "p99": r["p99"]}


def _uncached_stats_ms(url: str, repeats: int = 3) -> float:
    from app.db.session import session_scope
    from app.stats import repository
    from app.stats.service import fold_difficulty

    times = []
    for _ in range(repeats):
        with session_scope(url) as session:
            started = time.perf_counter()
            fold_difficulty(repository.difficulty_groups(session, None, None), 0)
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _api_key(url: str) -> str:
    from app.apikeys import service
    from app.apikeys.schemas import ApiKeyCreate
    from app.db.session import session_scope

    with session_scope(url) as session:
        return service.create(session, ApiKeyCreate(name="bench", rate_limit_per_minute=1_000_000)).key


def _start_server(url: str, redis_url: str, port: int, workers: int, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXECSYNTH_")}
    env.update(EXECSYNTH_DATABASE_URL=url, EXECSYNTH_BROKER_URL=redis_url, PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1",
            "--port", str(port), "--workers", str(workers), "--log-level", "warning", "--no-access-log"]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text()[-2000:]}")
        time.sleep(0.2)
    raise SystemExit("server did not start in 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50,000 rows and fewer requests")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=None, help="requests per endpoint")
    parser.add_argument("--server-workers", type=int, default=2)
    parser.add_argument("--client", choices=("wrk", "httpx"), default="wrk" if shutil.which("wrk") else "httpx",
                        help="load generator (default: wrk when it is installed)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per endpoint with wrk")
    parser.add_argument("--admin-url", default=os.environ.get("EXECSYNTH_TEST_PG_ADMIN_URL", "postgresql+psycopg://127.0.0.1:5432/test"))
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args()
    rows = args.rows or (50_000 if args.quick else 1_000_000)
    requests = args.requests or (320 if args.quick else 1600)
    seconds = args.seconds or (5 if args.quick else 15)

    from app.constraints.service import catalog
    from app.db import migrate

    url = create_database(args.admin_url)
    proc = None
    try:
        migrate.upgrade(url)
        started = time.perf_counter()
        seed(url, rows, [(e.type, e.method) for e in catalog().entries])
        print(f"seeded {rows:,} samples in {time.perf_counter() - started:.1f} s (INSERT ... SELECT generate_series)")
        print(f"uncached difficulty aggregate over {rows:,} rows: {_uncached_stats_ms(url):.0f} ms (median of 3)")
        key = {"X-API-Key": _api_key(url)}
        port = _free_port()
        proc = _start_server(url, args.redis_url, port, args.server_workers, Path("/tmp") / f"bench-api-{port}.log")
        base = f"http://127.0.0.1:{port}"

        async def stats(http, _i):
            return await http.get("/v1/stats/difficulty")

        async def samples(http, i):
            level = f"C{1 + (i % 6)}"
            return await http.get("/v1/samples", params={"type": "str", "level": level, "status": "accepted", "limit": 50}, headers=key)

        async def post(http, i):
            return await http.post("/v1/batches", json={**SPEC, "seed": abs(i)}, headers=key)

        endpoints = (("GET /v1/stats/difficulty", stats), ("GET /v1/samples (filtered page)", samples), ("POST /v1/batches", post))
        wrk_endpoints = (("GET /v1/stats/difficulty", "GET", "/v1/stats/difficulty", None),
                         ("GET /v1/samples (filtered page)", "GET", "/v1/samples?type=str&level=C3&status=accepted&limit=50", None),
                         ("POST /v1/batches", "POST", "/v1/batches", json.dumps({**SPEC, "seed": 0}).replace('"seed": 0', '"seed": SEED')))
        # one client shows the service time; the concurrent run adds the queueing on this machine's cores
        for clients, n in ((1, max(50, requests // 10)), (args.clients, requests)):
            if args.client == "wrk":
                results = []
                for name, method, path, body in wrk_endpoints:
                    # steady state: 2 s unmeasured first (connections, pools, each worker's snapshot)
                    _wrk(base, name, method, path, body, key["X-API-Key"], clients, 2)
                    results.append(_wrk(base, name, method, path, body, key["X-API-Key"], clients, seconds))
                load = f"wrk, {seconds:.0f} s per endpoint"
            else:
                results = [asyncio.run(_load(base, name, fn, clients, n)) for name, fn in endpoints]
                load = f"httpx, {n} requests per endpoint"
            print(f"\n{clients} concurrent client(s) ({load}), {args.server_workers} uvicorn workers, "
                  f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            print(f"{'endpoint':34} {'n':>6} {'err':>4} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  target")
            for r, key_name in zip(results, ("stats", "samples", "post")):
                target = TARGETS.get(key_name)
                verdict = ""
                if target and clients == args.clients:
                    verdict = f"{target[0]} < {target[1]:.0f} ms: {'met' if r[target[0]] < target[1] else 'MISSED'}"
                print(f"{r['name']:34} {r['n']:>6} {r['errors']:>4} {r['rps']:>7.0f} {r['p50']:>8.1f} {r['p95']:>8.1f} {r['p99']:>8.1f}  {verdict}")
    finally:
        if proc is not None:
            os.killpg(proc.pid, 15)
            proc.wait(timeout=30)
        import redis

        redis.Redis.from_url(args.redis_url).delete("pipeline")
        drop_database(args.admin_url, url)


if __name__ == "__main__":
    main()
