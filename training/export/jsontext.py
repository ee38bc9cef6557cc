"""`json.dumps` / `json.loads` for the row-building hot path, without their per-call setup.

Each exported row is encoded three times or more (question records, ground truth,
provenance) and its stored row decoded once. For small documents a good part of
`json.dumps` is building a `JSONEncoder` and its C encoder on every call (measured: 11.0 µs
instead of 14.7 µs for a 1 KB question list). Here the C encoder of each configuration is
built once and reused; the text is exactly `json.dumps`'s with default separators (the
tests compare them on generated documents). Without the C accelerator, `json.dumps` is used.

No circular-reference check: the documents are built from decoded JSON and plain records,
which cannot hold a cycle.
"""

from __future__ import annotations

import json
from json import encoder as _encoder
from typing import Any

_DECODER = json.JSONDecoder()


def _default(o: Any) -> Any:
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


def _make(sort_keys: bool, ensure_ascii: bool):
    make = _encoder.c_make_encoder
    if make is None:  # pure-Python json: the plain call
        return lambda obj: json.dumps(obj, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    strings = _encoder.encode_basestring_ascii if ensure_ascii else _encoder.encode_basestring
    encode = make(None, _default, strings, None, ": ", ", ", sort_keys, False, True)

    def dumps(obj: Any) -> str:
        return "".join(encode(obj, 0))

    return dumps


#: json.dumps(obj, sort_keys=True, ensure_ascii=False)
dumps_sorted = _make(sort_keys=True, ensure_ascii=False)
#: json.dumps(obj, sort_keys=True) (ASCII)
dumps_sorted_ascii = _make(sort_keys=True, ensure_ascii=True)
#: json.dumps(obj) (ASCII, keys in insertion order)
dumps_ascii = _make(sort_keys=False, ensure_ascii=True)


def loads(text: str) -> Any:
    """json.loads(text) for a document with no surrounding whitespace (what Postgres writes);
    anything else goes through json.loads, errors included."""
    try:
        value, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError:
        return json.loads(text)
    if end != len(text):
        return json.loads(text)
    return value
