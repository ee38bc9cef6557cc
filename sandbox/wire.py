"""Byte framing for the two channels: host <-> forkserver, and job child -> forkserver.

Host and forkserver exchange length-prefixed frames over pipes: JSON for jobs, the
handshake and errors, and a binary run report (`RunReport`) for each finished job. The
report carries the child's raw result bytes, stdout and stderr untouched, so the
forkserver never decodes or re-encodes a result (traces are large) and the host decodes it
once. A job child writes one result frame (magic, length, JSON) to its result pipe; the
host accepts it only if the pipe held exactly one well-formed frame, so garbage written by
the program is detected.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time

_HEADER = struct.Struct(">I")
_RESULT_MAGIC = b"XSR1"
_RESULT_HEADER = struct.Struct(">4sQ")
_REPORT_KIND = b"R"
# kind, flags, wait status, duration ms, CPU ms, lengths of result, stdout and stderr
_REPORT = struct.Struct(">cBiddIII")
_TIMED_OUT, _STDOUT_OVER, _STDERR_OVER = 1, 2, 4
MAX_FRAME = 1 << 30


class ChannelClosed(EOFError):
    """The other end went away."""


class ChannelTimeout(TimeoutError):
    """No complete frame before the deadline."""


def encode_frame(obj: dict) -> bytes:
    data = json.dumps(obj).encode()
    return _HEADER.pack(len(data)) + data


def write_frame(fd: int, obj: dict) -> None:
    view = memoryview(encode_frame(obj))
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, left = [], size
    while left:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise ChannelTimeout(f"no answer within the deadline ({left} bytes missing)")
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise ChannelClosed("channel closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_body(fd: int, deadline: float | None) -> bytes:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_FRAME:
        raise ValueError(f"frame of {size} bytes exceeds the {MAX_FRAME} byte limit")
    return _read_exact(fd, size, deadline)


def read_frame(fd: int, deadline: float | None = None) -> dict:
    return json.loads(_read_body(fd, deadline))


class RunReport:
    """What the forkserver saw of one job, unjudged: the child's wait status, whether the
    wall deadline passed, its times, the raw result pipe bytes and the captured output (cut
    at the output cap, `*_over` when there was more). A plain class: the forkserver does not
    import dataclasses (and the inspect module behind it)."""

    __slots__ = ("wait_status", "timed_out", "duration_ms", "cpu_ms", "result", "stdout",
                 "stderr", "stdout_over", "stderr_over")

    def __init__(self, wait_status: int, timed_out: bool, duration_ms: float, cpu_ms: float,
                 result: bytes, stdout: bytes, stderr: bytes, stdout_over: bool = False,
                 stderr_over: bool = False) -> None:
        self.wait_status, self.timed_out = wait_status, timed_out
        self.duration_ms, self.cpu_ms = duration_ms, cpu_ms
        self.result, self.stdout, self.stderr = result, stdout, stderr
        self.stdout_over, self.stderr_over = stdout_over, stderr_over

    def same_behaviour(self, other: "RunReport") -> bool:
        """Whether both runs left the same raw outcome (times aside), so that judging them
        gives the same status, result, exception, output and trace. A run ended by a signal
        does not qualify: its verdict also depends on the CPU time it used."""
        return (not os.WIFSIGNALED(self.wait_status) and self.wait_status == other.wait_status
                and self.timed_out == other.timed_out and self.result == other.result
                and self.stdout == other.stdout and self.stderr == other.stderr
                and self.stdout_over == other.stdout_over
                and self.stderr_over == other.stderr_over)


def encode_report(report: RunReport) -> list[bytes]:
    """The report as one frame, in parts (written with one gathered write, no joined copy)."""
    flags = ((_TIMED_OUT if report.timed_out else 0) | (_STDOUT_OVER if report.stdout_over else 0)
             | (_STDERR_OVER if report.stderr_over else 0))
    head = _REPORT.pack(_REPORT_KIND, flags, report.wait_status, report.duration_ms,
                        report.cpu_ms, len(report.result), len(report.stdout),
                        len(report.stderr))
    size = len(head) + len(report.result) + len(report.stdout) + len(report.stderr)
    return [_HEADER.pack(size), head, report.result, report.stdout, report.stderr]


def write_report(fd: int, report: RunReport) -> None:
    parts = [part for part in encode_report(report) if part]
    while parts:
        written = os.writev(fd, parts)
        while parts and written >= len(parts[0]):
            written -= len(parts[0])
            parts.pop(0)
        if parts and written:
            parts[0] = memoryview(parts[0])[written:]


def decode_report(body: bytes) -> RunReport:
    (_, flags, wait_status, duration_ms, cpu_ms, n_result, n_out,
     n_err) = _REPORT.unpack_from(body)
    if len(body) != _REPORT.size + n_result + n_out + n_err:
        raise ValueError("run report of the wrong length")
    out_at = _REPORT.size + n_result
    err_at = out_at + n_out
    return RunReport(wait_status, bool(flags & _TIMED_OUT), duration_ms, cpu_ms,
                     body[_REPORT.size:out_at], body[out_at:err_at], body[err_at:],
                     stdout_over=bool(flags & _STDOUT_OVER),
                     stderr_over=bool(flags & _STDERR_OVER))


def read_reply(fd: int, deadline: float | None = None) -> RunReport | dict:
    """A forkserver's answer to a job: a RunReport, or a JSON frame (a run it could not
    judge)."""
    body = _read_body(fd, deadline)
    if body[:1] == _REPORT_KIND:
        if len(body) < _REPORT.size:
            raise ValueError("truncated run report")
        return decode_report(body)
    return json.loads(body)


def result_frame(data: bytes) -> bytes:
    return _RESULT_HEADER.pack(_RESULT_MAGIC, len(data)) + data


def parse_result(buffer: bytes) -> dict:
    """The child's result, or ValueError when the pipe held anything but one frame."""
    if len(buffer) < _RESULT_HEADER.size:
        raise ValueError("no result frame" if not buffer else "truncated result frame")
    magic, size = _RESULT_HEADER.unpack_from(buffer)
    if magic != _RESULT_MAGIC or len(buffer) != _RESULT_HEADER.size + size:
        raise ValueError("malformed result frame")
    payload = json.loads(buffer[_RESULT_HEADER.size:])
    if not isinstance(payload, dict) or not isinstance(payload.get("status"), str):
        raise ValueError("result frame without a status")
    return payload
