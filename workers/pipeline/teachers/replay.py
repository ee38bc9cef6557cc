"""A teacher that answers from a recording, for exact and free reruns of a teacher-driven batch."""

from __future__ import annotations

from pathlib import Path

from workers.pipeline.records import ChatRequest, Completion
from workers.pipeline.teachers.recording import prompt_hash, read_recording


class ReplayTeacher:
    """Reads the whole recording at construction (a bad file fails at build time, not mid-batch).

    A request whose prompt hash is not in the recording gets `status="error"`, `error="replay_miss"`.
    Replayed completions cost nothing and report the recorded token usage.
    """

    def __init__(self, path: str | Path, *, name: str = "replay", model: str | None = None) -> None:
        self.name = name
        self.path = Path(path)
        self._records = read_recording(self.path)
        recorded_models = {str(r["model"]) for r in self._records.values()}
        self.model = model or (recorded_models.pop() if len(recorded_models) == 1 else "replay")

    def __len__(self) -> int:
        return len(self._records)

    async def complete(self, request: ChatRequest) -> Completion:
        record = self._records.get(prompt_hash(request))
        if record is None:
            return Completion(request_key=request.key, texts=(), model=self.model, status="error", error="replay_miss", attempts=0)
        return Completion(
            request_key=request.key,
            texts=tuple(record["texts"]),
            model=str(record["model"]),
            status="ok",
            prompt_tokens=int(record.get("prompt_tokens", 0)),
            completion_tokens=int(record.get("completion_tokens", 0)),
            attempts=0,
        )
