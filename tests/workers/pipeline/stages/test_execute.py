"""Stage `execute` through the real sandbox: hash-order dependence, literals, bounds. The
bounds are the sandbox's own (from settings in a deployment), never the stage's."""

from __future__ import annotations

import pytest

from sandbox import Limits, Sandbox
from workers.pipeline.stages.execute import ExecItem, ExecPolicy, execute


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(isolation="namespaces", workers=2, limits=Limits(timeout_s=1.0)) as sb:
        yield sb


@pytest.fixture(scope="module")
def short_traces():
    with Sandbox(isolation="namespaces", workers=1, limits=Limits(trace_steps=40)) as sb:
        yield sb


def _one(sandbox, code: str, args: str = "", policy: ExecPolicy = ExecPolicy()):
    return execute(sandbox, [ExecItem("k", code, "f", args)], policy)[0]


def test_set_order_dependence_is_rejected_and_sorted_is_kept(sandbox) -> None:
    unordered = _one(sandbox, "def f(a):\n    return list({'alpha', 'beta', 'gamma', 'delta', 'eps'})\n", "1")
    assert unordered.verdict == "rejected"
    assert unordered.reason == "hash_order_dependent"
    assert unordered.runs[0].result != unordered.runs[1].result, "each seed's own result is kept"
    ordered = _one(sandbox, "def f(a):\n    return sorted({'alpha', 'beta', 'gamma', 'delta', 'eps'})\n", "1")
    assert ordered.verdict == "kept", ordered
    assert ordered.runs[0].result["repr"] == "['alpha', 'beta', 'delta', 'eps', 'gamma']"
    assert len(ordered.runs) == 2 and ordered.runs[0].hash_seed != ordered.runs[1].hash_seed
    assert ordered.runs[0].trace["steps"], "the kept run carries its trace"
    second = ordered.runs[1]
    assert (second.id, second.hash_seed) == ("k#1000003", 1_000_003)
    assert (second.result, second.trace, second.stdout) == (ordered.runs[0].result, ordered.runs[0].trace, "")


def test_returning_a_set_itself_is_canonical_and_kept(sandbox) -> None:
    outcome = _one(sandbox, "def f(a):\n    return {'alpha', 'beta', 'gamma'} | set(a)\n", "['delta']")
    assert outcome.verdict == "kept"
    assert outcome.runs[0].result["repr"] == "{'alpha', 'beta', 'delta', 'gamma'}"


@pytest.mark.parametrize(
    ("code", "args", "reason"),
    [
        ("def f(a):\n    return a[10]\n", "[1]", "exec_exception"),
        ("import time\ndef f(a):\n    time.sleep(a)\n", "30", "exec_timeout"),
        ("def f(a):\n    while True:\n        a += 1\n", "0", "exec_trace_limit"),
        ("def f(a):\n    return object()\n", "0", "result_not_literal"),
        ("def f(a):\n    return 'x' * a\n", "5000", "result_too_large"),
    ],
)
def test_rejections_carry_machine_readable_reasons(sandbox, code: str, args: str, reason: str) -> None:
    outcome = _one(sandbox, code, args)
    assert outcome.verdict == "rejected"
    assert outcome.reason == reason


def test_trace_bound_rejects_long_runs(short_traces) -> None:
    code = "def f(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n"
    assert _one(short_traces, code, "50").reason == "exec_trace_limit"
    assert _one(short_traces, code, "5").verdict == "kept"


class _BrokenRunner:
    def run_pairs_grouped(self, groups):
        from sandbox import RunResult

        return [[tuple(RunResult.sandbox_error(job.id, "forkserver died") for job in pair) + (True,)
                 for pair in group] for group in groups]


def test_sandbox_errors_are_never_verdicts() -> None:
    outcome = execute(_BrokenRunner(), [ExecItem("k", "def f(a):\n    return a\n", "f", "1")], ExecPolicy())[0]
    assert outcome.verdict == "error"
    assert outcome.reason == "sandbox_error"
