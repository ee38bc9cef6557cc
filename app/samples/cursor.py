"""Opaque keyset cursors: clients pass them back unchanged and never build them, so the
ordering key can change later without breaking anyone."""

from __future__ import annotations

import base64
import binascii

from app.core.errors import DomainError

_VERSION = "s1"
MAX_ID = 2**63 - 1  # ids are bigint columns


class BadCursor(DomainError):
    status_code = 400
    code = "bad_cursor"


def encode(last_id: int) -> str:
    return base64.urlsafe_b64encode(f"{_VERSION}:{last_id}".encode()).decode().rstrip("=")


def decode(cursor: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        version, _, value = raw.partition(":")
        if version != _VERSION or not value.isdigit() or len(value) > 19 or int(value) > MAX_ID:
            raise ValueError(raw)
        return int(value)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise BadCursor("invalid cursor: pass back the next_cursor of a previous page unchanged") from None
