"""A whole service for orchestration tests: the API app (in-process TestClient) and real
worker processes, over real Postgres and Redis."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.main import create_app
from tests.support import WorkerProcess, service_env, wait_for


class Service:
    def __init__(self, database_url: str, broker_url: str, data_dir: Path, extra_env: dict[str, str]) -> None:
        self.database_url = database_url
        self.broker_url = broker_url
        self.data_dir = data_dir
        self.env = service_env(
            EXECSYNTH_DATABASE_URL=database_url, EXECSYNTH_BROKER_URL=broker_url,
            EXECSYNTH_DATA_DIR=str(data_dir), EXECSYNTH_API__REQUIRE_API_KEY="false",
            EXECSYNTH_SANDBOX__WORKERS="1", **extra_env,
        )
        settings = Settings(
            database_url=database_url, broker_url=broker_url, data_dir=data_dir,
            api={"require_api_key": False}, teachers=_teachers(extra_env),
        )
        self.client = TestClient(create_app(settings))
        self.workers: list[WorkerProcess] = []
        self.restarts = 0
        self.beat: subprocess.Popen | None = None
        self.engine = create_engine(database_url)

    def start_worker(self, concurrency: int = 2) -> WorkerProcess:
        worker = WorkerProcess(self.env, cwd=self.data_dir, pool="prefork", concurrency=concurrency)
        self.workers.append(worker)
        return worker

    def start_beat(self) -> None:
        log = (self.data_dir / "beat.log").open("wb")
        self.beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.celery_app", "beat", "--schedule", str(self.data_dir / "beat-schedule"), "--loglevel", "INFO"],
            env=self.env, cwd=self.data_dir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )

    def session(self) -> Session:
        return Session(self.engine)

    def post_batch(self, **spec) -> int:
        response = self.client.post("/v1/batches", json=spec)
        assert response.status_code == 202, response.text
        return response.json()["id"]

    def status(self, batch_id: int) -> str:
        return self.client.get(f"/v1/batches/{batch_id}").json()["status"]

    def supervise(self) -> None:
        """What a restart policy (docker's `restart: unless-stopped`) does: a worker process that
        exited on its own is started again."""
        for worker in list(self.workers):
            if worker.proc.poll() is not None and not worker.stopped:
                worker.stopped = True
                self.restarts += 1
                self.start_worker()

    def finished(self, batch_id: int) -> bool:
        self.supervise()
        return self.status(batch_id) not in ("pending", "running")

    def wait_done(self, batch_id: int, timeout: float = 300) -> dict:
        wait_for(lambda: self.finished(batch_id), timeout=timeout, interval=0.5,
                 what=lambda: f"batch {batch_id} to finish; worker logs:\n" + "\n".join(w.log()[-3000:] for w in self.workers))
        return self.client.get(f"/v1/batches/{batch_id}").json()

    def stop(self) -> None:
        for worker in self.workers:
            if worker.proc.poll() is None:
                worker.stop()
        if self.beat and self.beat.poll() is None:
            os.killpg(self.beat.pid, 15)
            self.beat.wait(timeout=20)
        self.engine.dispose()


def _teachers(env: dict[str, str]) -> dict:
    import json

    return json.loads(env["EXECSYNTH_TEACHERS"]) if "EXECSYNTH_TEACHERS" in env else {}


@pytest.fixture()
def service_db() -> Iterator[str]:
    """A migrated database of the test's own: the beat's resume task takes up every stalled
    batch it finds, and the session's shared database holds the batches other tests left
    unfinished (a run of the whole suite had the worker resume 30 of them, 175 s a pass,
    and the test's own batch missed its 300 s)."""
    from app.db import migrate
    from tests.support import throwaway_database

    with throwaway_database("execsynth_e2e") as url:
        migrate.upgrade(url)
        yield url


@pytest.fixture()
def make_service(service_db: str, redis_url: str, tmp_path: Path) -> Iterator:
    services: list[Service] = []
    redis.Redis.from_url(redis_url).flushdb()

    def factory(broker_url: str | None = None, **extra_env: str) -> Service:
        service = Service(service_db, broker_url or redis_url, tmp_path, extra_env)
        services.append(service)
        return service

    yield factory
    for service in services:
        service.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of the test's own, so it can be restarted without touching others."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        wait_for(lambda: _pings(client), timeout=10, what="private redis")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        time.sleep(0.05)
        return False
