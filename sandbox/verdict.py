"""Judging one run on the host: a forkserver's RunReport becomes a RunResult.

The forkserver sends what it saw (exit status, whether the wall deadline passed, times,
the raw bytes of the result pipe, the captured output); the result frame is parsed and
checked here, where the payload is decoded once. A pipe holding anything but one
authenticated frame with a known status means the program interfered with the channel:
`killed`, never a verdict taken from that payload.
"""

from __future__ import annotations

import os
import signal

from . import wire
from .child import EXIT_CHANNEL_LOST
from .result import RunResult
from .statuses import STATUSES
from .tracing import exception_info

VERDICT_KEYS = {"result": dict, "exception": dict, "trace_json": str, "trace_steps": int}


def valid_payload(payload: dict) -> bool:
    """A result payload with a known status and fields of the right types."""
    if payload.get("status") not in STATUSES:
        return False
    return all(payload.get(key) is None or isinstance(payload[key], kind)
               for key, kind in VERDICT_KEYS.items())


def _no_result(report: wire.RunReport, limits: dict) -> tuple[str, dict]:
    status = report.wait_status
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL
                                     and report.cpu_ms >= limits["cpu_s"] * 1000):
            return "timeout", {"type": "Timeout", "message": f"CPU limit of {limits['cpu_s']} s"}
        return "killed", {"type": "Killed",
                          "message": f"terminated by signal {signal.Signals(sig).name}"}
    code = os.waitstatus_to_exitcode(status)
    if report.forged:
        return "killed", {"type": "ResultForged",
                          "message": "the result channel held something other than the "
                                     "sandbox's authenticated result frame"}
    if report.result:
        return "killed", {"type": "ResultCorrupted",
                          "message": "the program wrote to the sandbox's result channel"}
    if code == EXIT_CHANNEL_LOST:
        return "killed", {"type": "ResultChannelLost",
                          "message": "the program closed the sandbox's result channel"}
    return "killed", {"type": "Exited", "message": f"process exited with code {code} "
                                                    "without a result"}


def judge(job: dict, report: wire.RunReport, python: str) -> RunResult:
    """The verdict on one run of `job` (its wire form) from the forkserver's report."""
    limits = job["limits"]
    common = {"id": job["id"], "hash_seed": job["hash_seed"], "python": python,
              "stdout": report.stdout.decode("utf-8", errors="replace"),
              "stderr": report.stderr.decode("utf-8", errors="replace"),
              "duration_ms": report.duration_ms, "cpu_ms": report.cpu_ms}
    over = report.stdout_over or report.stderr_over
    if report.timed_out:
        return RunResult(status="timeout", exception={
            "type": "Timeout", "message": f"wall time limit of {limits['timeout_s']} s"},
            **common)
    try:
        payload = wire.parse_result(report.result)
        if not valid_payload(payload):
            raise ValueError("invalid result")
    except (ValueError, RecursionError):
        status, exception = _no_result(report, limits)
        if status == "killed" and over:
            status, exception = "output_limit", None
        return RunResult(status=status, exception=exception, **common)
    status = payload["status"]
    if over and status != "sandbox_error":
        status = "output_limit"
    return RunResult(status=status, result=payload.get("result"),
                     exception=payload.get("exception"), trace_json=payload.get("trace_json"),
                     trace_steps=payload.get("trace_steps", 0), **common)


def refused_call(job: dict, error: BaseException, python: str) -> RunResult:
    """The verdict on a job whose call text was refused on the host (sandbox/calls.py):
    what the job itself would have reported, without running it."""
    common = {"id": job["id"], "hash_seed": job["hash_seed"], "python": python}
    if isinstance(error, MemoryError):
        return RunResult(status="memory_limit", **common, exception={
            "type": "MemoryError", "message": "memory limit reached"})
    return RunResult(status="exception", **common,
                     exception=exception_info(error, job["limits"]["value_chars"]))
