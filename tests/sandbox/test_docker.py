"""Docker backend: the lockdown flags always; real runs only where a Docker engine answers."""

from __future__ import annotations

import pytest

from sandbox import Job, Sandbox, SandboxUnavailable
from sandbox.docker_backend import DockerLaunchSpec, engine_problem

PROBLEM = engine_problem()


def test_containers_are_locked_down():
    argv = DockerLaunchSpec(mode="container", root="/opt/execsynth", label="t").argv(5)
    joined = " ".join(argv)
    for flag in ("--network none", "--read-only", "--cap-drop ALL",
                 "--security-opt no-new-privileges", "--pids-limit 64", "--user 65534:65534",
                 "--ipc none", "-e PYTHONHASHSEED=5"):
        assert flag in joined, flag
    assert ":ro" in argv[argv.index("-v") + 1]
    assert "EXECSYNTH_TEST_SECRET" not in joined


def test_without_engine_the_backend_refuses_clearly():
    if PROBLEM is None:
        pytest.skip("a Docker engine answers here; the refusal path cannot be exercised")
    with pytest.raises(SandboxUnavailable, match="docker backend unavailable"):
        Sandbox(backend="docker", workers=1).start()


@pytest.mark.skipif(PROBLEM is not None, reason=f"no Docker engine: {PROBLEM}")
def test_runs_in_containers():
    with Sandbox(backend="docker", workers=1) as box:
        ok = box.run(Job(id="d", code="def f(x):\n    return {x, 1}\n", entry_point="f", args="3"))
        net = box.run(Job(id="n", code="import socket\ndef f():\n"
                          "    socket.create_connection(('1.1.1.1', 80), timeout=1)\n",
                          entry_point="f"))
    assert ok.status == "ok" and ok.result["repr"] == "{1, 3}"
    assert net.status == "exception"
