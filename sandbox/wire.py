"""Byte framing for the two channels: host <-> forkserver, and job child -> forkserver.

Host and forkserver exchange length-prefixed JSON frames over pipes. A job child writes one
result frame (magic, length, JSON) to its result pipe; the forkserver accepts it only if the
pipe holds exactly one well-formed frame, so garbage written by the program is detected.
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


def read_frame(fd: int, deadline: float | None = None) -> dict:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_FRAME:
        raise ValueError(f"frame of {size} bytes exceeds the {MAX_FRAME} byte limit")
    return json.loads(_read_exact(fd, size, deadline))


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
