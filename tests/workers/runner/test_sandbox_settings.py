"""The deployment's sandbox limits reach every job of a batch: `EXECSYNTH_SANDBOX__TIMEOUT_S`
decides whether a slow program times out (the pipeline used to override it with its own)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.db.models import Execution, Sample
from tests.fakes.openai_server import FakeChatRequest, FakeOpenAIServer
from tests.support import service_env

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

SLOW = "```python\nimport time\n\ndef f(pause):\n    time.sleep(pause)\n    return pause\n\nprint(f(0.8))\n```"


def _synth(data_dir: Path, base_url: str, **env: str) -> tuple[str | None, str | None]:
    teachers = {"slow": {"kind": "openai", "base_url": base_url, "model": "slow-model", "backoff_base_s": 0.01,
                         "max_retries": 1, "request_timeout_s": 10}}
    out = subprocess.run(
        [sys.executable, "-m", "execsynth", "synth", "--quiet", "--programs", "1", "--levels", "C1",
         "--teacher", "slow", "--on-mismatch", "relabel", "--no-llm-mutation", "-k", "1", "--no-naturalness"],
        env=service_env(EXECSYNTH_DATA_DIR=str(data_dir), EXECSYNTH_TEACHERS=json.dumps(teachers), **env),
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    with Session(create_engine(f"sqlite:///{data_dir / 'execsynth.sqlite3'}")) as s:
        sample = s.scalars(select(Sample)).one()
        run = s.scalars(select(Execution)).first()
        return sample.reject_reason, run.status


def test_the_sandbox_timeout_setting_decides_the_verdict(tmp_path: Path) -> None:
    with FakeOpenAIServer(responder=lambda request: [SLOW] * request.n) as server:
        short = _synth(tmp_path / "short", server.base_url, EXECSYNTH_SANDBOX__TIMEOUT_S="0.3")
        default = _synth(tmp_path / "default", server.base_url)
    assert short == ("exec_timeout", "timeout")
    assert default[1] == "ok" and default[0] != "exec_timeout"
