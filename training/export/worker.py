"""A chunk-building worker process: `python -m training.export.worker`.

Started by `parallel.ChunkRunner` with pipes on stdin and stdout (never by hand). It reads
framed, pickled `ChunkJob`s from its parent and writes back, for each, one frame: a JSON
header (`ok`, `rows`, `kind`, or the error's class and message) and the body (Arrow IPC
bytes or UTF-8 text). The parent unpickles nothing that comes back.

A plain module run (not `multiprocessing`'s spawn) so that the worker never re-imports the
caller's `__main__` (a script without a main guard would otherwise run again in every
worker) and inherits no database connection or thread from the exporting process.
"""

from __future__ import annotations

import gc
import importlib.abc
import json
import os
import pickle
import sys
from typing import BinaryIO

import pyarrow as pa

from training.export.build import ChunkOutput, build_chunk
from training.export.frames import read_frame, write_frame


def encode_output(out: ChunkOutput) -> tuple[dict, bytes | pa.Buffer]:
    if out.batch is None:
        return {"ok": True, "rows": out.rows, "kind": "text", "counts": out.counts}, (out.text or "").encode("utf-8")
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, out.batch.schema) as writer:
        writer.write_batch(out.batch)
    return {"ok": True, "rows": out.rows, "kind": "arrow", "counts": out.counts}, sink.getvalue()  # written without a copy


def serve(jobs: BinaryIO, results: BinaryIO) -> None:
    while (frame := read_frame(jobs)) is not None:
        try:
            header, body = encode_output(build_chunk(pickle.loads(frame)))
        except Exception as exc:  # reported to the parent, which raises it there
            header = {"ok": False, "type": type(exc).__name__, "module": type(exc).__module__,
                      "message": str(exc)}
            body = b""
        write_frame(results, json.dumps(header).encode())
        write_frame(results, body)
        results.flush()
        del header, body
        gc.collect()  # see `main`: the one collection per chunk


class _NoPandas(importlib.abc.MetaPathFinder):
    """Makes pandas unimportable in a worker. `pa.array(list)` imports pandas on first use
    only to ask whether the list is a pandas object; that import was about 45 MiB of every
    worker's memory, for nothing (workers never see pandas objects)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked in export workers)", name=name)
        return None


def lean_memory() -> None:
    """No pandas, and Arrow's jemalloc pool where the build has one: it hands freed
    chunk buffers back sooner than the default pool (measured on a 2,048-row verl chunk:
    worker RSS 188 MiB -> 95 MiB together with the pandas block)."""
    if "pandas" not in sys.modules:
        sys.meta_path.insert(0, _NoPandas())
    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
    except (NotImplementedError, pa.ArrowNotImplementedError):
        pass  # a pyarrow built without jemalloc: the default pool works too


def main() -> None:
    lean_memory()
    # A chunk allocates some hundred thousand containers (decoded rows, records) that die
    # together and hold no cycles; the automatic collector would walk them many times per
    # chunk (about a tenth of the build time). It is off, the imported modules are frozen
    # out of its way, and `serve` collects once after each chunk (about a millisecond), so
    # a cycle is still freed.
    gc.freeze()
    gc.disable()
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=1 << 20)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print cannot corrupt the frames
    serve(sys.stdin.buffer, results)


if __name__ == "__main__":
    main()
