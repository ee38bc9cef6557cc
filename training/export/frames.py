"""Length-prefixed frames: the wire format between the exporter and its worker processes."""

from __future__ import annotations

import struct
from typing import BinaryIO

HEADER = struct.Struct(">Q")


def read_frame(stream: BinaryIO) -> bytes | None:
    """One length-prefixed frame, None at a clean end of stream."""
    head = stream.read(HEADER.size)
    if not head:
        return None
    if len(head) < HEADER.size:
        raise EOFError("truncated frame header")
    (size,) = HEADER.unpack(head)
    body = stream.read(size)
    if len(body) < size:
        raise EOFError("truncated frame")
    return body


def write_frame(stream: BinaryIO, body: bytes | memoryview) -> None:
    """`body` is any bytes-like object (an Arrow buffer is written without a copy)."""
    view = memoryview(body)
    stream.write(HEADER.pack(view.nbytes))
    stream.write(view)
