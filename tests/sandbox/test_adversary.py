"""Issue 13's attacks through `execsynth sandbox batch` on one worker: each is defended, and
normal jobs after them on the same forkserver answer correctly."""

from __future__ import annotations

import ast
import json
import os
import resource
import signal
import subprocess
import sys
from dataclasses import replace

import pytest

from sandbox import Job, Sandbox
from sandbox.local import PROJECT_ROOT

from . import adversary as A
from .conftest import TEST_LIMITS

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

NORMAL = "def f(x):\n    return (x.upper() * 2) + str(len(x) - 3)\n"
HOST_PATHS = ["/etc/passwd", "/opt", "/var/tmp", "/var", "/run", "/usr/bin", PROJECT_ROOT,
              os.path.join(PROJECT_ROOT, "pyproject.toml"), "/run/postgresql"]


def _batch(lines: list[dict]) -> dict[str, dict]:
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    out = subprocess.run([sys.executable, "-m", "execsynth", "sandbox", "batch", "--workers", "1",
                          "--timeout", "5"], input=stdin, capture_output=True, text=True,
                         timeout=300, cwd=PROJECT_ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    results = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(results) == len(lines)
    return {item["id"]: item for item in results}


def _job(name: str, code: str, args: str = "'abc'", trace: bool = False) -> dict:
    return {"id": name, "code": code, "entry_point": "f", "args": args, "trace": trace}


@pytest.fixture(scope="module")
def outcome():
    listeners = A.Listeners()
    hostile = [
        _job("unix_sockets", listeners.attack(), "1"),
        _job("forged_result", A.FORGED_RESULT),
        _job("huge_forged_result", A.HUGE_FORGED_RESULT),
        _job("trace_from_heap", A.TRACE_FROM_HEAP, trace=True),
        _job("runtime_by_subclasses", A.RUNTIME_BY_SUBCLASSES),
        _job("patched_builtins", A.PATCH_BUILTINS),
        _job("deep_tree", A.DEEP_TREE),
        _job("after_deep_tree", A.PROBE_AFTER),
        _job("long_path", A.LONG_PATH),
        _job("after_long_path", A.PROBE_AFTER),
        _job("fill_tmpfs", A.FILL_TMPFS),
        _job("after_fill_tmpfs", A.PROBE_AFTER),
        _job("host_files", A.HOST_FILES, repr(HOST_PATHS)),
    ]
    normal = [_job(f"normal_{i}", NORMAL, trace=bool(i % 2)) for i in range(4)]
    try:
        results = _batch(hostile + normal)
        yield results, listeners.received()
    finally:
        listeners.close()


def _exception(result: dict) -> str:
    return (result.get("exception") or {}).get("type", "")


def test_no_host_unix_socket_is_reachable(outcome):
    results, received = outcome
    assert received == []
    result = results["unix_sockets"]
    assert result["status"] == "ok" and result["result"]["json"] == []


def test_forged_results_are_never_accepted(outcome):
    results, _ = outcome
    for name in ("forged_result", "huge_forged_result"):
        assert results[name]["status"] == "killed", results[name]
        assert _exception(results[name]) == "ResultForged"
        assert results[name]["result"] is None


def test_the_trace_store_is_out_of_reach(outcome):
    results, _ = outcome
    heap = results["trace_from_heap"]
    assert heap["status"] == "exception" and _exception(heap) == "SandboxViolation"
    assert all(isinstance(step["line"], int) and isinstance(step["depth"], int)
               for step in heap["trace"]["steps"])
    walked = results["runtime_by_subclasses"]
    assert walked["status"] == "ok" and walked["result"]["json"] == []


def test_patching_builtins_and_json_changes_no_result(outcome):
    results, _ = outcome
    patched = results["patched_builtins"]
    assert patched["status"] == "ok" and patched["result"]["repr"] == "'abc'"


def test_nothing_lasts_between_jobs(outcome):
    results, _ = outcome
    for name in ("deep_tree", "long_path", "fill_tmpfs"):
        assert results[name]["status"] == "ok", results[name]
    for name in ("after_deep_tree", "after_long_path", "after_fill_tmpfs"):
        assert results[name]["status"] == "ok", results[name]
        assert results[name]["result"]["repr"] == "(['probe'], ['probe'], 'abc')"


def test_a_job_sees_only_its_own_root(outcome):
    results, _ = outcome
    result = results["host_files"]
    assert result["status"] == "ok", result
    top, seen = ast.literal_eval(result["result"]["repr"])
    prefix_top = sys.base_prefix.strip("/").split("/")[0]
    assert set(top) <= {"dev", "proc", "tmp", prefix_top}
    assert all(seen[path] == "FileNotFoundError" for path in HOST_PATHS), seen


def test_normal_jobs_after_the_attacks_answer_correctly(outcome):
    results, _ = outcome
    for i in range(4):
        result = results[f"normal_{i}"]
        assert result["status"] == "ok" and result["result"]["repr"] == "'ABCABC0'", result
        assert (result["trace"] is not None) == bool(i % 2)


def test_the_subclass_walk_finds_the_runtime_where_it_is_reachable():
    """Control for test_the_trace_store_is_out_of_reach: outside the sandbox, with the
    runtime imported, the same walk does find it."""
    import sandbox.child  # noqa: F401

    namespace: dict = {}
    exec(compile(A.RUNTIME_BY_SUBCLASSES, "<walk>", "exec"), namespace)
    assert {"finish", "encode_value"} <= set(namespace["f"](None))


def test_a_huge_forged_result_never_reaches_host_memory(sb):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = sb.run(Job(id="huge", code=A.HUGE_FORGED_RESULT, entry_point="f", args="1",
                        limits=replace(TEST_LIMITS, timeout_s=10.0)))
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert result.status == "killed" and result.exception["type"] == "ResultForged"
    assert grown_mb < 50


def test_a_setup_fault_replaces_the_forkserver_and_later_jobs_go_on():
    with Sandbox(workers=1, limits=TEST_LIMITS) as box:
        first = box.forkserver_pids()
        broken = box.run(Job(id="nofile", code=NORMAL, entry_point="f", args="'abc'",
                             limits=replace(TEST_LIMITS, open_files=1 << 30)))
        after = box.run(Job(id="ok", code=NORMAL, entry_point="f", args="'abc'"))
        assert broken.status == "sandbox_error" and "setup" in broken.exception["message"]
        assert after.status == "ok" and after.result["repr"] == "'ABCABC0'"
        assert box.forkserver_pids() != first


def test_a_forkserver_that_stops_answering_is_replaced():
    with Sandbox(workers=1, limits=replace(TEST_LIMITS, timeout_s=0.5)) as box:
        (stuck,) = box.forkserver_pids()
        os.killpg(stuck, signal.SIGSTOP)  # the boot process and the forkserver under it
        try:
            hung = box.run(Job(id="hung", code=NORMAL, entry_point="f", args="'abc'"))
        finally:
            os.killpg(stuck, signal.SIGCONT)
        after = box.run(Job(id="ok", code=NORMAL, entry_point="f", args="'abc'"))
        assert hung.status == "sandbox_error"
        assert after.status == "ok" and after.result["repr"] == "'ABCABC0'"
        assert stuck not in box.forkserver_pids()
