"""Streaming file writers with fixed options, so memory stays bounded and bytes repeat.

Parquet: columns are buffered for one row group, then written with a fixed schema,
compression and format version (no timestamps are ever written into data files).
JSONL: one record per line, keys in the format's fixed order, ASCII-escaped so that any
string (even a lone surrogate in a repr) survives.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 3, "version": "2.6",
                   "use_dictionary": True, "write_statistics": True}


class ParquetSink:
    def __init__(self, path: Path, schema: pa.Schema, row_group_size: int) -> None:
        self.path = path
        self.schema = schema
        self.row_group_size = row_group_size
        self.rows = 0
        self._columns: dict[str, list[Any]] = {name: [] for name in schema.names}
        self._buffered = 0
        self._writer = pq.ParquetWriter(str(path), schema, **PARQUET_OPTIONS)

    def add(self, record: dict[str, Any]) -> None:
        for name, column in self._columns.items():
            column.append(record[name])
        self._buffered += 1
        if self._buffered >= self.row_group_size:
            self._flush()

    def _flush(self) -> None:
        if not self._buffered:
            return
        arrays = [pa.array(self._columns[f.name], type=f.type) for f in self.schema]
        self._writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema),
                                 row_group_size=self.row_group_size)
        self.rows += self._buffered
        self._buffered = 0
        for column in self._columns.values():
            column.clear()

    def close(self) -> int:
        self._flush()
        self._writer.close()
        return self.rows


class JsonlSink:
    def __init__(self, path: Path, row_group_size: int = 0) -> None:
        self.path = path
        self.rows = 0
        self._file = path.open("w", encoding="ascii", newline="\n", buffering=1 << 20)

    def add(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, ensure_ascii=True))
        self._file.write("\n")
        self.rows += 1

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
