"""Batch throughput on Celery with 1, 2 and 4 worker processes (real Postgres and Redis).

For each worker count: a throwaway Postgres database, `execsynth worker` processes (each
consuming every queue, one task at a time, one sandbox process), one batch over C1-C6 with
the builtin teacher sent through the API's producer path, and the time until it completes.
Prints accepted samples per minute and the speed-up over one worker.

    python -m bench.scale [--programs 600] [--workers 1,2,4] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ADMIN_URL = os.environ.get("EXECSYNTH_TEST_PG_ADMIN_URL", "postgresql+psycopg://127.0.0.1:5432/test")
REDIS_URL = os.environ.get("EXECSYNTH_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def run_once(workers: int, programs: int, chunk: int) -> tuple[float, int]:
    import redis

    from app.core.config import Settings
    from app.db import migrate
    from app.db.models import Batch, Sample
    from app.db.session import session_scope
    from app.batches import repository as batch_rows
    from app.batches.service import new_batch
    from app.core.task_names import START_BATCH
    from app.producer import send_now
    from workers.pipeline.batch_spec import BatchSpec

    name = f"execsynth_scale_{uuid.uuid4().hex[:8]}"
    admin = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    redis.Redis.from_url(REDIS_URL).flushdb()
    data_dir = Path(tempfile.mkdtemp(prefix="execsynth-scale-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXECSYNTH_")}
    env.update(EXECSYNTH_DATABASE_URL=url, EXECSYNTH_BROKER_URL=REDIS_URL, EXECSYNTH_DATA_DIR=str(data_dir),
               EXECSYNTH_SANDBOX__WORKERS="1", EXECSYNTH_WORKER__CHUNK_SIZE=str(chunk), EXECSYNTH_LOG_LEVEL="WARNING")
    procs = []
    try:
        migrate.upgrade(url)
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "execsynth", "worker", "--pool", "solo"], env=env, cwd=data_dir,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        time.sleep(3)  # let the workers connect
        settings = Settings(database_url=url, broker_url=REDIS_URL, data_dir=data_dir)
        spec = BatchSpec(programs=programs, seed=0, teacher="builtin")
        with session_scope(url) as session:
            batch_id = batch_rows.add(session, new_batch(settings, spec)).id
        t0 = time.perf_counter()
        send_now(settings, START_BATCH, batch_id)
        engine = create_engine(url)
        while True:
            with engine.connect() as conn:
                status = conn.execute(select(Batch.status).where(Batch.id == batch_id)).scalar()
            if status not in ("pending", "running"):
                break
            if time.perf_counter() - t0 > 1800:
                raise TimeoutError("batch did not finish in 30 minutes")
            time.sleep(0.2)
        wall = time.perf_counter() - t0
        with engine.connect() as conn:
            accepted = conn.execute(select(func.count()).where(Sample.batch_id == batch_id, Sample.status == "accepted")).scalar()
        engine.dispose()
        if status != "completed":
            raise RuntimeError(f"batch ended {status}")
        return wall, accepted
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
        from app.db.session import get_engine

        get_engine.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=600)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--chunk-size", type=int, default=16)
    parser.add_argument("--quick", action="store_true", help="120 programs")
    args = parser.parse_args()
    programs = 120 if args.quick else args.programs
    counts = [int(w) for w in args.workers.split(",")]
    print(f"programs per batch: {programs}   cores: {os.cpu_count()}   load: {os.getloadavg()[0]:.2f}")
    base = None
    for n in counts:
        wall, accepted = run_once(n, programs, args.chunk_size)
        rate = accepted / wall * 60
        base = base or rate
        print(f"{n} worker process(es): {accepted} accepted in {wall:.1f} s = {rate:,.0f}/min   speed-up {rate / base:.2f}x")


if __name__ == "__main__":
    main()
