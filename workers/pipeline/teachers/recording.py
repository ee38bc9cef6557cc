"""Recording teacher completions to JSONL, and reading them back for `ReplayTeacher`.

A recording makes a teacher-driven run exactly repeatable without paying for it again: each
line holds one successful completion keyed by the prompt hash (sha256 of the canonical JSON of
messages, purpose and seed), so a rerun with the same spec and seed finds every answer.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any

from workers.pipeline.records import ChatRequest, Completion

RECORD_FIELDS = ("prompt_hash", "texts", "model")


class RecordingError(ValueError):
    """A recording file that cannot be read back; names the file and line."""


def prompt_hash(request: ChatRequest) -> str:
    """Key of a request in a recording. Independent of `key`, so a recording made under one
    batch replays under another with the same prompts."""
    canonical = json.dumps(
        {"messages": [dict(m) for m in request.messages], "purpose": request.purpose, "seed": request.seed},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class CompletionRecorder:
    """Appends one JSON line per successful completion; errors are not recorded, so a replay
    of a failed call is a `replay_miss` that a rerun against the live teacher can fill."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def record(self, request: ChatRequest, completion: Completion) -> None:
        if completion.status != "ok":
            return
        line = json.dumps(
            {
                "prompt_hash": prompt_hash(request),
                "request_key": request.key,
                "purpose": request.purpose,
                "seed": request.seed,
                "model": completion.model,
                "texts": list(completion.texts),
                "prompt_tokens": completion.prompt_tokens,
                "completion_tokens": completion.completion_tokens,
                "latency_ms": completion.latency_ms,
                "cost_usd": completion.cost_usd,
            },
            ensure_ascii=False,
        )
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def read_recording(path: str | Path) -> dict[str, dict[str, Any]]:
    """prompt hash -> record. The first record of a hash wins, so appending to a recording
    never changes what an earlier replay returned."""
    path = Path(path)
    if not path.is_file():
        raise RecordingError(f"recording {path} does not exist")
    records: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                raise RecordingError(f"{path}:{number}: not JSON ({exc})") from None
            if not isinstance(record, dict):
                raise RecordingError(f"{path}:{number}: expected a JSON object")
            missing = [name for name in RECORD_FIELDS if name not in record]
            if missing:
                raise RecordingError(f"{path}:{number}: missing field(s) {', '.join(missing)}")
            if not isinstance(record["texts"], list) or not all(isinstance(t, str) for t in record["texts"]):
                raise RecordingError(f"{path}:{number}: 'texts' must be a list of strings")
            records.setdefault(str(record["prompt_hash"]), record)
    return records
