"""A job's stdout and stderr: text streams onto fds 1 and 2 that end the run past the cap.

Kept apart from the runtime (sandbox/child.py) on purpose: these objects are reachable
from user code (`sys.stdout`), so this module holds nothing that could lead to the result
channel or the trace. Past the cap the job exits at once (`EXIT_OUTPUT_LIMIT`) with one
byte more than the cap written, and the host judges `output_limit` from the output size.
"""

from __future__ import annotations

import io
import os

EXIT_OUTPUT_LIMIT = 122


def _write_all(fd: int, data) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class CappedRaw(io.RawIOBase):
    def __init__(self, fd: int, cap: int) -> None:
        super().__init__()
        self.fd, self.cap, self.total = fd, cap, 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        size = len(data)
        room = self.cap - self.total
        if size > room:
            _write_all(self.fd, bytes(data[:room + 1]))
            os._exit(EXIT_OUTPUT_LIMIT)
        _write_all(self.fd, bytes(data))
        self.total += size
        return size


def _stream(fd: int, cap: int) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BufferedWriter(CappedRaw(fd, cap), 8192), encoding="utf-8",
                            errors="strict", newline="\n")


_STREAMS: list[io.TextIOWrapper] = []


def prepare_streams() -> None:
    """Build the wrappers once in the forkserver (fds 1 and 2 are fixed in every child), so
    a job does not pay for constructing them."""
    _STREAMS[:] = [_stream(1, 0), _stream(2, 0)]


def job_streams(cap: int) -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    if not _STREAMS:
        prepare_streams()
    for stream in _STREAMS:
        raw = stream.buffer.raw
        raw.cap, raw.total = cap, 0
    return _STREAMS[0], _STREAMS[1]
