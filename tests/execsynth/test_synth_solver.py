"""`execsynth synth --solver NAME`: the student is an OpenAI-compatible endpoint (the fake
server, over real HTTP); pass counts, levels and the keep band come from its answers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.db.models import Sample, TeacherCall
from tests.fakes.openai_server import FakeChatRequest, FakeOpenAIServer
from tests.support import service_env

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


def test_solver_pass_counts_levels_band_and_estimator_fit(tmp_path: Path) -> None:
    def student(request: FakeChatRequest) -> list[str]:
        # every attempt guesses 0: right only where the result really is 0
        call = re.search(r"assert (\w+)\((.*)\) == \?\?", request.last_user_message).group(0)
        return [f"[ANSWER]{call.replace('??', '0')}[/ANSWER]"] * request.n

    with FakeOpenAIServer(responder=student) as server:
        teachers = {"student": {"kind": "openai", "base_url": server.base_url, "model": "student-7b",
                                "backoff_base_s": 0.01, "max_retries": 1, "request_timeout_s": 5}}
        out = subprocess.run(
            [sys.executable, "-m", "execsynth", "synth", "--quiet", "--programs", "6", "--levels", "C1,C4",
             "--solver", "student", "--solver-k", "4", "-k", "1", "--seed", "3"],
            env=service_env(EXECSYNTH_DATA_DIR=str(tmp_path), EXECSYNTH_TEACHERS=json.dumps(teachers), COLUMNS="200"),
            capture_output=True, text=True, timeout=300,
        )
        requests = server.stats().chat_requests
    assert out.returncode == 0, out.stderr[-2000:]
    assert "feature estimator vs solver on" in out.stderr
    with Session(create_engine(f"sqlite:///{tmp_path / 'execsynth.sqlite3'}")) as s:
        samples = s.scalars(select(Sample)).all()
        assert samples and requests == len(samples)  # one request (n=4) per executed sample
        for sample in samples:
            if sample.status == "accepted" or sample.reject_reason in ("too_easy", "too_hard"):
                assert sample.solver_k == 4 and 0 <= sample.solver_passes <= 4
                rate = sample.solver_passes / 4
                assert (sample.status == "accepted") == (rate <= 0.3)
                assert sample.difficulty_level == ("C6" if rate < 0.1 else sample.difficulty_level)
        calls = s.scalars(select(TeacherCall).where(TeacherCall.purpose == "solve")).all()
        assert len(calls) == len(samples) and all(c.request_key.endswith("/student") for c in calls)
        assert all(c.teacher == "student" and c.model == "student-7b" for c in calls)
