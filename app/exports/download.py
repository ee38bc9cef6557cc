"""The answer to GET / HEAD of one export file, wherever the row keeps it.

A folder file is a `FileResponse` (Starlette's: ranges, sizes). A bucket file is streamed
through the API, a megabyte at a time, with `Content-Length`, `Accept-Ranges` and one byte
range (`Range: bytes=a-b`, `a-`, `-n`; 206 with `Content-Range`, 416 past the end). The API
streams rather than redirecting to a presigned URL because the address it signs is the
store's address as the API sees it (`http://minio:9000` inside a compose network), which a
client outside that network cannot reach, and because a redirect would take the API key
check and the one download address out of the API.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi.responses import FileResponse
from starlette.responses import Response, StreamingResponse

from app.core.config import ExportSettings
from app.db.models import Export
from app.exports import service
from app.exports.store import is_remote, reader_store

RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


def file_response(row: Export, name: str, method: str, range_header: str | None, cfg: ExportSettings) -> Response:
    if not is_remote(row.out_dir):
        return FileResponse(service.file_path(row, name), filename=name, media_type="application/octet-stream")
    service.check_listed(row, name)
    store = reader_store(cfg)
    size = store.stat(row.out_dir, name).size
    headers = {"accept-ranges": "bytes", "content-disposition": _disposition(name)}
    span = byte_range(range_header, size)
    if span == "unsatisfiable":
        return Response(status_code=416, headers={**headers, "content-range": f"bytes */{size}"})
    first, last = span or (0, size - 1)
    status = 206 if span else 200
    if span:
        headers["content-range"] = f"bytes {first}-{last}/{size}"
    headers["content-length"] = str(last - first + 1)
    if method == "HEAD" or last < first:  # HEAD, or an empty file: nothing to read
        return Response(status_code=status, headers=headers, media_type="application/octet-stream")
    body = store.read(row.out_dir, name, first, last)
    return StreamingResponse(body, status_code=status, headers=headers, media_type="application/octet-stream")


def byte_range(header: str | None, size: int) -> tuple[int, int] | None | str:
    """(first, last) of one satisfiable range; None: send the whole file (no header, several
    ranges, or a form this does not read, which RFC 9110 lets a server ignore)."""
    match = RANGE.match((header or "").strip())
    if not match or match.groups() == ("", ""):
        return None
    start, end = match.groups()
    if start == "":  # the last n bytes
        n = int(end)
        return (max(size - n, 0), size - 1) if n and size else "unsatisfiable"
    first = int(start)
    last = min(int(end), size - 1) if end else size - 1
    if first >= size or (end and int(end) < first):
        return "unsatisfiable"
    return first, last


def _disposition(name: str) -> str:
    quoted = quote(name)
    return f'attachment; filename="{name}"' if quoted == name else f"attachment; filename*=utf-8''{quoted}"
