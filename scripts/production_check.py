"""Production mode from a plain install, end to end (run by `make test-production`, from .ci/run).

What a user does after `pip install .` with no dev extras: a fresh virtualenv, a Redis of its
own, a Postgres database of its own, `execsynth db upgrade`, an API key, `execsynth worker` and
`execsynth serve`. Then, over HTTP only:
- `/readyz` answers 200 (database at the current schema, broker reachable);
- a REST batch with the builtin teacher completes, and its counts equal the rows in Postgres;
- a batch whose teacher is unreachable ends `failed` with the teacher's error in
  `GET /v1/batches/{id}`.

Standard library only (it runs before anything is installed); the Postgres and row checks go
through the fresh virtualenv's own Python. Needs Postgres on 127.0.0.1:5432 (trust auth) and
`redis-server` on PATH. Prints `N passed, N failed` and exits non-zero on any failure.

    python3 scripts/production_check.py [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN = os.environ.get("EXECSYNTH_TEST_PG_ADMIN_URL", "postgresql+psycopg://127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http(method: str, url: str, body: dict | None = None, key: str | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
        except (OSError, ValueError) as exc:
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.5)
    raise TimeoutError(f"timed out waiting for {what} (last: {last!r})")


class Check:
    def __init__(self) -> None:
        self.passed = self.failed = 0

    def __call__(self, name: str, ok: bool, detail: str = "") -> None:
        self.passed += ok
        self.failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, data)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="execsynth-prod-"))
    venv, data = work / "venv", work / "data"
    procs: list[subprocess.Popen] = []
    check = Check()
    db_name = f"execsynth_prod_{uuid.uuid4().hex[:8]}"
    py = venv / "bin" / "python"
    redis_port, api_port = free_port(), free_port()
    try:
        print(f"plain install into {venv}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
        # from a copy of the tree, as a user's checkout would be: no build/ left in this one
        source = work / "src"
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", "execsynth-data", "build", "*.egg-info", "__pycache__", "test-artifacts"))
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(source)], check=True)
        exe = venv / "bin" / "execsynth"

        subprocess.run(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                        "--daemonize", "yes", "--dir", str(work), "--logfile", str(work / "redis.log")], check=True)
        sql = (f"import sqlalchemy as sa; e = sa.create_engine({PG_ADMIN!r}, isolation_level='AUTOCOMMIT');"
               f" c = e.connect(); c.execute(sa.text('CREATE DATABASE \"{db_name}\"'))")
        subprocess.run([str(py), "-c", sql], check=True)
        db_url = PG_ADMIN.rsplit("/", 1)[0] + "/" + db_name
        closed = free_port()  # nothing listens there: the unreachable teacher
        env = {k: v for k, v in os.environ.items() if not k.startswith("EXECSYNTH_")}
        env.update(
            EXECSYNTH_DATABASE_URL=db_url, EXECSYNTH_BROKER_URL=f"redis://127.0.0.1:{redis_port}/0",
            EXECSYNTH_DATA_DIR=str(data), EXECSYNTH_SANDBOX__WORKERS="2", EXECSYNTH_WORKER__CHUNK_SIZE="8",
            EXECSYNTH_TEACHERS=json.dumps({"down": {"kind": "openai", "base_url": f"http://127.0.0.1:{closed}/v1",
                                                    "model": "m", "max_retries": 0, "request_timeout_s": 5}}),
        )
        subprocess.run([str(exe), "db", "upgrade"], env=env, check=True, cwd=work)
        key = subprocess.run([str(exe), "apikey", "create", "--name", "ci"], env=env, check=True, cwd=work,
                             capture_output=True, text=True).stdout.strip()
        for name, argv in (("worker", [str(exe), "worker", "-Q", "teacher,sandbox,pipeline", "--concurrency", "2"]),
                           ("api", [str(exe), "serve", "--no-worker", "--no-migrate", "--port", str(api_port)])):
            log = open(work / f"{name}.log", "w")
            procs.append(subprocess.Popen(argv, env=env, cwd=work, stdout=log, stderr=subprocess.STDOUT,
                                          start_new_session=True))
        base = f"http://127.0.0.1:{api_port}"
        status, body = wait_for(lambda: (lambda r: r if r[0] == 200 else None)(http("GET", f"{base}/readyz")),
                                timeout=120, what="/readyz 200")
        check("readyz answers 200", status == 200, json.dumps(body))

        status, batch = http("POST", f"{base}/v1/batches", {"programs": 12, "levels": ["C1", "C3"], "seed": 1}, key)
        check("POST /v1/batches is accepted", status == 202, json.dumps(batch))
        detail = wait_for(lambda: (lambda r: r[1] if r[1].get("status") not in ("pending", "running") else None)(
            http("GET", f"{base}/v1/batches/{batch['id']}")), timeout=600, what="the builtin batch to finish")
        check("the builtin batch completes", detail["status"] == "completed", json.dumps(detail)[:500])
        counts = subprocess.run([str(py), "-c", (
            "import json, sqlalchemy as sa; e = sa.create_engine(%r); c = e.connect();"
            " q = lambda s: c.execute(sa.text(s), {'b': %d}).scalar();"
            " print(json.dumps({'programs': q('select count(*) from programs where batch_id = :b and variant = 0'),"
            " 'samples': q('select count(*) from samples where batch_id = :b'),"
            " 'accepted': q(\"select count(*) from samples where batch_id = :b and status = 'accepted'\")}))"
        ) % (db_url, batch["id"])], capture_output=True, text=True, check=True)
        rows = json.loads(counts.stdout)
        stages = {s["stage"]: s for s in detail["funnel"]}
        reported = {"programs": stages["programs"]["total"], "samples": stages["samples"]["total"],
                    "accepted": detail["samples_accepted"]}
        check("the batch's counts equal the rows", reported == rows and rows["accepted"] > 0,
              f"API {reported} vs rows {rows}")

        status, down = http("POST", f"{base}/v1/batches", {"programs": 4, "levels": ["C1"], "teacher": "down"}, key)
        check("a batch for the unreachable teacher is accepted", status == 202, json.dumps(down))
        failed = wait_for(lambda: (lambda r: r[1] if r[1].get("status") not in ("pending", "running") else None)(
            http("GET", f"{base}/v1/batches/{down['id']}")), timeout=300, what="the unreachable-teacher batch to end")
        check("an unreachable teacher fails the batch with its error",
              failed["status"] == "failed" and "failed every generation call" in (failed.get("error") or ""),
              json.dumps({k: failed.get(k) for k in ("status", "error")}))
    except (subprocess.CalledProcessError, TimeoutError, KeyError, ValueError) as exc:
        check("production run", False, f"{type(exc).__name__}: {exc}")
        for log in sorted(work.glob("*.log")):
            print(f"--- {log.name} (last lines)\n" + "\n".join(log.read_text(errors="replace").splitlines()[-30:]))
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, 15)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, 9)
        subprocess.run(["redis-cli", "-p", str(redis_port), "shutdown", "nosave"], capture_output=True)
        if py.exists():
            drop = (f"import sqlalchemy as sa; e = sa.create_engine({PG_ADMIN!r}, isolation_level='AUTOCOMMIT');"
                    f" e.connect().execute(sa.text('DROP DATABASE IF EXISTS \"{db_name}\" WITH (FORCE)'))")
            subprocess.run([str(py), "-c", drop], capture_output=True)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"production: {check.passed} passed, {check.failed} failed")
    return 0 if check.failed == 0 and check.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
