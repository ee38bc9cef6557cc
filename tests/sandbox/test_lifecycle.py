"""Pool behaviour: concurrency, crashed forkservers, refusal without namespaces, rlimits."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from sandbox import Job, Limits, RunResult, Sandbox
from sandbox.local import PROJECT_ROOT

from .conftest import TEST_LIMITS, alive, job

SLEEPY = "import time\ndef f():\n    time.sleep(1.5)\n    return 'woke'\n"


def test_run_many_keeps_input_order_and_runs_in_parallel(sb):
    jobs = [job("def f(x):\n    return x * x\n", id=str(i), args=str(i)) for i in range(40)]
    results = sb.run_many(jobs)
    assert [r.id for r in results] == [str(i) for i in range(40)]
    assert [r.result["json"] for r in results] == [i * i for i in range(40)]


def test_run_is_thread_safe(sb):
    found: dict[int, RunResult] = {}

    def worker(i):
        found[i] = sb.run(job("def f(x):\n    return -x\n", args=str(i)))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {i: r.result["json"] for i, r in found.items()} == {i: -i for i in range(8)}


def _kill_forkserver_soon(box: Sandbox) -> None:
    time.sleep(0.5)
    for pid in box.forkserver_pids():
        os.kill(pid, signal.SIGKILL)


def test_crashed_forkserver_is_sandbox_error_then_restarted():
    with Sandbox(workers=1, limits=TEST_LIMITS, retries=0) as box:
        killer = threading.Thread(target=_kill_forkserver_soon, args=(box,))
        killer.start()
        result = box.run(job(SLEEPY))
        killer.join()
        assert result.status == "sandbox_error" and not result.judged
        assert "forkserver" in result.exception["message"]
        after = box.run(job("def f():\n    return 5\n"))
        assert after.status == "ok" and after.result["repr"] == "5"


def test_crashed_forkserver_is_retried():
    with Sandbox(workers=1, limits=TEST_LIMITS, retries=1) as box:
        old = box.forkserver_pids()
        killer = threading.Thread(target=_kill_forkserver_soon, args=(box,))
        killer.start()
        result = box.run(job(SLEEPY))
        killer.join()
        assert result.status == "ok" and result.result["repr"] == "'woke'"
        assert box.forkserver_pids() != old and not any(alive(p) for p in old)


def test_refuses_to_start_without_usable_namespaces():
    """Inside an unprivileged user namespace the job uid cannot be mapped: refuse clearly."""
    script = ("from sandbox import Sandbox, SandboxUnavailable\n"
              "try:\n    Sandbox(workers=1).start()\nexcept SandboxUnavailable as e:\n"
              "    print('REFUSED', e)\nelse:\n    print('STARTED')\n")
    proc = subprocess.run(["unshare", "--user", "--map-root-user", sys.executable, "-c", script],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.startswith("REFUSED"), proc.stdout + proc.stderr
    assert "isolation='rlimits'" in proc.stdout


def test_rlimits_isolation_is_explicit_and_loud(caplog):
    with caplog.at_level(logging.WARNING, logger="sandbox"):
        with Sandbox(isolation="rlimits", workers=1, limits=TEST_LIMITS) as box:
            r = box.run(job("import os\ndef f():\n    return os.getuid()\n"))
            bomb = box.run(job("import os\ndef f():\n    while True:\n        os.fork()\n"))
            workdir = box._backend.spec.workdir
    assert "WITHOUT NAMESPACE ISOLATION" in caplog.text
    assert r.status == "ok" and r.result["repr"] == ("65534" if os.geteuid() == 0 else str(os.getuid()))
    assert bomb.status == "exception" and bomb.exception["type"] == "SandboxViolation"
    assert not os.path.exists(workdir)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="isolation"):
        Sandbox(isolation="none")
    with pytest.raises(ValueError, match="timeout_s"):
        Limits(timeout_s=0)
    with pytest.raises(ValueError, match="entry_point"):
        Job(id="x", code="", entry_point="f()")
    with pytest.raises(ValueError, match="backend"):
        Sandbox(backend="vm").start()


def test_args_cannot_break_out_of_the_call(sb):
    r = sb.run(Job(id="x", code="def f(a):\n    return a\n", entry_point="f", args="1), print(2"))
    assert r.status == "exception" and r.exception["type"] == "SyntaxError"
    assert r.stdout == ""


def test_syntax_error_and_missing_entry_are_verdicts(sb):
    bad, missing = sb.run_many([job("def f(:\n"), job("def g():\n    return 1\n")])
    assert (bad.status, bad.exception["type"]) == ("exception", "SyntaxError")
    assert (missing.status, missing.exception["type"]) == ("exception", "NameError")


def test_stdout_and_to_dict_contract(sb):
    r = sb.run(job("def f(x):\n    print('hi', x)\n    return [x]\n", args="'a'", trace=True))
    data = r.to_dict()
    assert set(data) >= {"id", "status", "result", "exception", "stdout", "duration_ms", "trace"}
    assert data["stdout"] == "hi a\n" and data["result"]["repr"] == "['a']"
    assert data["exception"] is None and data["python"].startswith("3.")
    assert set(data["trace"]["steps"][0]) >= {"event", "func", "line", "depth", "locals"}
