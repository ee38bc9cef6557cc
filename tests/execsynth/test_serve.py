"""`execsynth serve` with no configuration is a whole service: API + worker, no external server."""

from __future__ import annotations

import pytest
import json
import re
import socket
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path

from tests.support import service_env, wait_for

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, dict] | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
    except OSError:
        return None


def test_serve_with_no_configuration_is_ready_and_runs_a_worker(tmp_path: Path) -> None:
    port = _free_port()
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "execsynth", "serve", "--port", str(port)],
        cwd=tmp_path, env=service_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        status, body = wait_for(lambda: _get(f"http://127.0.0.1:{port}/readyz"), timeout=60, what="the API")
        assert status == 200, body
        assert {c["name"]: c["ok"] for c in body["checks"]} == {"database": True, "broker": True}
        assert (tmp_path / "execsynth-data" / "execsynth.sqlite3").exists()

        # the embedded worker consumes from the embedded broker
        from app.core.config import Settings
        from app.core.task_names import PING
        from app.producer import send_now

        settings = Settings(data_dir=tmp_path / "execsynth-data")
        token = uuid.uuid4().hex
        send_now(settings, PING, token)
        ping = settings.data_dir / "pings" / token
        wait_for(ping.exists, timeout=40, what="the embedded worker")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    assert proc.returncode in (0, -15)
    # the worker child was stopped with the server
    output = (tmp_path / "serve.log").read_text()
    worker_pid = int(re.search(r"worker started \(pid (\d+)\)", output).group(1))

    def gone() -> bool:
        status = Path(f"/proc/{worker_pid}/status")
        return not status.exists() or "zombie" in status.read_text()

    wait_for(gone, timeout=20, what=f"the embedded worker {worker_pid} to stop with the server")
