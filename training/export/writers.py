"""Streaming file writers with fixed options, so memory stays bounded and bytes repeat.

Parquet: built chunks (Arrow record batches) are buffered up to one row group, then written
with a fixed schema, compression and format version (no timestamps are ever written into
data files). Row groups hold exactly `row_group_size` rows (the last one the rest) however
the rows were chunked, and each is written as one contiguous table, so the bytes depend on
the rows alone. JSONL: chunks of finished lines (ASCII-escaped, so any string, even a lone
surrogate in a repr, survives).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from training.export.build import ChunkOutput

PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 3, "version": "2.6",
                   "use_dictionary": True, "write_statistics": True}


class ParquetSink:
    def __init__(self, path: Path, schema: pa.Schema, row_group_size: int) -> None:
        self.path = path
        self.schema = schema
        self.row_group_size = row_group_size
        self.rows = 0
        self._batches: list[pa.RecordBatch] = []
        self._buffered = 0
        self._writer = pq.ParquetWriter(str(path), schema, **PARQUET_OPTIONS)

    def add(self, chunk: ChunkOutput) -> None:
        if chunk.batch is None:
            raise TypeError("a parquet file takes Arrow record batches")
        self._batches.append(chunk.batch)
        self._buffered += chunk.batch.num_rows
        while self._buffered >= self.row_group_size:
            self._flush(self.row_group_size)

    def _flush(self, rows: int) -> None:
        if not rows:
            return
        table = pa.Table.from_batches(self._batches, schema=self.schema)
        group, rest = table.slice(0, rows), table.slice(rows)
        self._writer.write_table(group.combine_chunks(), row_group_size=self.row_group_size)
        self.rows += rows
        self._batches = rest.to_batches()
        self._buffered = rest.num_rows

    def close(self) -> int:
        self._flush(self._buffered)
        self._writer.close()
        return self.rows


class JsonlSink:
    def __init__(self, path: Path, row_group_size: int = 0) -> None:
        self.path = path
        self.rows = 0
        self._file = path.open("w", encoding="ascii", newline="\n", buffering=1 << 20)

    def add(self, chunk: ChunkOutput) -> None:
        if chunk.text is None:
            raise TypeError("a JSON-lines file takes text chunks")
        self._file.write(chunk.text)
        self.rows += chunk.rows

    def close(self) -> int:
        self._file.close()
        return self.rows


def file_digest(path: Path) -> tuple[str, int]:
    """(sha256 hex, size in bytes), read in blocks."""
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size
