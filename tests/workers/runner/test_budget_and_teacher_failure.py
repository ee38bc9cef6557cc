"""A batch's budget holds per call, not per chunk, and a teacher that never answers fails the
batch with its error (both through `execsynth synth` and a real HTTP teacher)."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from app.db.models import Batch, TeacherCall
from tests.fakes.openai_server import FakeOpenAIServer
from tests.support import service_env
from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.budget import BUDGET_EXHAUSTED, BudgetedTeacher

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

PROGRAM = "```python\ndef f(words):\n    return ' '.join(words).upper().split()\n\nprint(f(['ab', 'cd']))\n```"
CALL_COST = 0.01


def _synth(data_dir: Path, teachers: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "execsynth", "synth", "--quiet", "--levels", "C1", "--teacher", "t",
         "--on-mismatch", "relabel", "--no-llm-mutation", "-k", "1", *args],
        env=service_env(EXECSYNTH_DATA_DIR=str(data_dir), EXECSYNTH_TEACHERS=json.dumps(teachers)),
        capture_output=True, text=True, timeout=300,
    )


def _batch(data_dir: Path) -> tuple[Batch, int]:
    with Session(create_engine(f"sqlite:///{data_dir / 'execsynth.sqlite3'}")) as s:
        batch = s.get(Batch, 1)
        s.expunge(batch)
        return batch, s.scalar(select(func.count()).select_from(TeacherCall))


def test_the_budget_stops_calls_before_they_are_sent(tmp_path: Path) -> None:
    words = len(PROGRAM.split())  # the fake counts completion tokens as words
    with FakeOpenAIServer(responder=lambda request: [PROGRAM] * request.n, latency_s=0.05) as server:
        teachers = {"t": {"kind": "openai", "base_url": server.base_url, "model": "m", "concurrency": 2,
                          "price_output_per_mtok": CALL_COST * 1e6 / words, "max_retries": 0}}
        out = _synth(tmp_path, teachers, "--programs", "40", "--max-cost-usd", "0.03")
        sent = server.stats().chat_requests
    assert out.returncode == 0, out.stderr[-2000:]
    batch, recorded = _batch(tmp_path)
    assert batch.status == "budget_exhausted"
    # calls start only under the cap: at most the 2 in flight when it was reached go past it
    assert 3 <= sent == recorded <= 3 + 2
    assert batch.cost_usd <= 0.03 + 2 * CALL_COST + 1e-9


def test_a_teacher_that_never_answers_fails_the_batch_with_its_error(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    teachers = {"t": {"kind": "openai", "base_url": f"http://127.0.0.1:{port}/v1", "model": "m", "max_retries": 0,
                      "request_timeout_s": 5}}
    out = _synth(tmp_path, teachers, "--programs", "4")
    assert out.returncode == 1
    batch, _ = _batch(tmp_path)
    assert batch.status == "failed"
    assert "teacher 't' failed every generation call" in batch.error and "onnect" in batch.error
    assert f"batch 1 failed: {batch.error}" in out.stderr.replace("\n", "")


class _Counting:
    name, model = "c", "m"

    def __init__(self) -> None:
        self.sent = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.sent += 1
        await asyncio.sleep(0.01)
        return Completion(request.key, ("x",), "m", "ok", completion_tokens=10, cost_usd=0.5)


def test_budgeted_teacher_refuses_once_the_cap_is_reached() -> None:
    inner = _Counting()
    teacher = BudgetedTeacher(inner, max_tokens=None, max_cost_usd=1.2, spent_cost_usd=0.2, concurrency=1)
    requests = [ChatRequest(key=str(i), messages=(), purpose="generate", seed=0) for i in range(6)]

    async def run() -> list[Completion]:
        return list(await asyncio.gather(*(teacher.complete(r) for r in requests)))

    results = asyncio.run(run())
    assert inner.sent == 2 and teacher.refused == 4  # 0.2 -> 0.7 -> 1.2: the third call is refused
    assert [r.error for r in results].count(BUDGET_EXHAUSTED) == 4
    assert all(r.attempts == 0 and not r.texts for r in results if r.error == BUDGET_EXHAUSTED)
