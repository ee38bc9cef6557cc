"""Byte framing for the two channels: host <-> forkserver, and job child -> forkserver.

Host and forkserver exchange length-prefixed frames over pipes: JSON for jobs, the
handshake and errors, and a binary run report (`RunReport`) for each finished job. The
report carries the child's raw result bytes, stdout and stderr untouched, so the
forkserver never decodes or re-encodes a result (traces are large) and the host decodes it
once. A job child writes one result frame (magic, length, keyed hash, JSON) to its result pipe.
The forkserver checks the hash under the job's key (`authentic`) and passes on only a pipe
that held exactly that one frame; anything else reaches the host as `forged`, without its
bytes. The host checks every frame's announced size before allocating for it.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from _blake2 import blake2b

_HEADER = struct.Struct(">I")
RESULT_MAGIC = b"XSR2"
RESULT_HEADER = struct.Struct(">4sQ")  # magic, body length; then the MAC, then the body
RESULT_MAC_BYTES = 32
_FRAME_HEAD = RESULT_HEADER.size + RESULT_MAC_BYTES  # where a result frame's body starts
_REPORT_KIND = b"R"
# kind, flags, wait status, duration ms, CPU ms, lengths of result, stdout and stderr
_REPORT = struct.Struct(">cBiddIII")
_TIMED_OUT, _STDOUT_OVER, _STDERR_OVER, _FORGED = 1, 2, 4, 8
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


def _read_body(fd: int, deadline: float | None, max_bytes: int = MAX_FRAME) -> bytes:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > max_bytes:
        raise ValueError(f"frame of {size} bytes exceeds the {max_bytes} byte limit")
    return _read_exact(fd, size, deadline)


def read_frame(fd: int, deadline: float | None = None) -> dict:
    return json.loads(_read_body(fd, deadline))


class RunReport:
    """What the forkserver saw of one job, unjudged: the child's wait status, whether the
    wall deadline passed, its times, the raw result pipe bytes and the captured output (cut
    at the output cap, `*_over` when there was more). A plain class: the forkserver does not
    import dataclasses (and the inspect module behind it)."""

    __slots__ = ("wait_status", "timed_out", "duration_ms", "cpu_ms", "result", "stdout",
                 "stderr", "stdout_over", "stderr_over", "forged")

    def __init__(self, wait_status: int, timed_out: bool, duration_ms: float, cpu_ms: float,
                 result: bytes, stdout: bytes, stderr: bytes, stdout_over: bool = False,
                 stderr_over: bool = False, forged: bool = False) -> None:
        self.wait_status, self.timed_out = wait_status, timed_out
        self.duration_ms, self.cpu_ms = duration_ms, cpu_ms
        self.result, self.stdout, self.stderr = result, stdout, stderr
        self.stdout_over, self.stderr_over = stdout_over, stderr_over
        self.forged = forged

    def same_behaviour(self, other: "RunReport") -> bool:
        """Whether both runs left the same raw outcome (times aside), so that judging them
        gives the same status, result, exception, output and trace. The result frames are
        compared past their header and keyed hash (each job has its own key; the forkserver
        checked both). A run ended by a signal does not qualify: its verdict also depends on
        the CPU time it used."""
        return (not os.WIFSIGNALED(self.wait_status) and self.wait_status == other.wait_status
                and self.timed_out == other.timed_out
                and self.result[_FRAME_HEAD:] == other.result[_FRAME_HEAD:]
                and self.stdout == other.stdout and self.stderr == other.stderr
                and self.stdout_over == other.stdout_over
                and self.stderr_over == other.stderr_over and self.forged == other.forged)


def encode_report(report: RunReport) -> list[bytes]:
    """The report as one frame, in parts (written with one gathered write, no joined copy)."""
    flags = ((_TIMED_OUT if report.timed_out else 0) | (_STDOUT_OVER if report.stdout_over else 0)
             | (_STDERR_OVER if report.stderr_over else 0) | (_FORGED if report.forged else 0))
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
                     stderr_over=bool(flags & _STDERR_OVER), forged=bool(flags & _FORGED))


def report_bound(result_bytes: int, output_bytes: int) -> int:
    """The largest honest run report: the result cap plus both output streams at their cap."""
    return _REPORT.size + result_bytes + 2 * output_bytes


def read_reply(fd: int, deadline: float | None = None,
               max_bytes: int = MAX_FRAME) -> RunReport | dict:
    """A forkserver's answer to a job: a RunReport, or a JSON frame (a run it could not
    judge); refused before allocation when it announces more than `max_bytes`."""
    body = _read_body(fd, deadline, max_bytes)
    if body[:1] == _REPORT_KIND:
        if len(body) < _REPORT.size:
            raise ValueError("truncated run report")
        return decode_report(body)
    return json.loads(body)


def authentic(buffer, key: bytes) -> bool:
    """In the forkserver: whether `buffer` is exactly one result frame hashed under `key`."""
    head = RESULT_HEADER.size + RESULT_MAC_BYTES
    if len(buffer) < head:
        return False
    magic, size = RESULT_HEADER.unpack_from(buffer)
    if magic != RESULT_MAGIC or len(buffer) != head + size:
        return False
    view = memoryview(buffer)
    mac = blake2b(view[head:], key=key, digest_size=RESULT_MAC_BYTES).digest()
    return mac == bytes(view[RESULT_HEADER.size:head])


def _frame_body_at(buffer: bytes) -> int:
    """Where the body of the one result frame `buffer` holds starts; ValueError when it is
    not exactly one frame."""
    head = RESULT_HEADER.size + RESULT_MAC_BYTES
    if len(buffer) < head:
        raise ValueError("no result frame" if not buffer else "truncated result frame")
    magic, size = RESULT_HEADER.unpack_from(buffer)
    if magic != RESULT_MAGIC or len(buffer) != head + size:
        raise ValueError("malformed result frame")
    return head


def parse_result(buffer: bytes) -> dict:
    """The child's result (already authenticated by the forkserver), or ValueError when the
    bytes are not one frame with a status. A traced run's trace comes as `trace_json`, the
    text the child encoded (its `trace_steps` says how many steps it holds)."""
    head = _frame_body_at(buffer)
    cut = buffer.find(b"\n", head)
    payload = json.loads(buffer[head:cut] if cut >= 0 else buffer[head:])
    if not isinstance(payload, dict) or not isinstance(payload.get("status"), str):
        raise ValueError("result frame without a status")
    if cut >= 0:  # a traced run: the trace's JSON text, kept undecoded (RunResult.trace_json)
        payload["trace_json"] = buffer[cut + 1:].decode("ascii")
    return payload


def parse_calls(buffer: bytes, traced: bool) -> list[dict]:
    """The per-call payloads of a job of several calls (sandbox/child.py `run_calls`), in
    the order they ran, each with its `trace_json` when `traced`; ValueError when the bytes
    are not one frame of such lines. A job cut short holds fewer calls than it was given."""
    head = _frame_body_at(buffer)
    if len(buffer) == head:
        return []
    lines = bytes(buffer[head:]).split(b"\n")
    step = 2 if traced else 1
    if len(lines) % step:
        raise ValueError("a call without its trace")
    out = []
    for at in range(0, len(lines), step):
        payload = json.loads(lines[at])
        if not isinstance(payload, dict) or not isinstance(payload.get("status"), str):
            raise ValueError("a call without a status")
        if traced:
            payload["trace_json"] = lines[at + 1].decode("ascii")
        out.append(payload)
    return out
