"""The outcome of one run, and its JSONL contract form (ARCHITECTURE.md, "Contracts")."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property

from .statuses import STATUSES  # noqa: F401  (re-exported)


@dataclass(frozen=True)
class RunResult:
    id: str
    status: str
    result: dict | None = None
    exception: dict | None = None
    stdout: str = ""
    stderr: str = ""
    duration_ms: float = 0.0
    cpu_ms: float = 0.0
    hash_seed: int = 0
    trace_json: str | None = None  # a traced run's trace as the child encoded it (JSON text)
    trace_steps: int = 0  # how many steps that trace holds
    python: str = ""
    extra: dict = field(default_factory=dict)

    @cached_property
    def trace(self) -> dict | None:
        """The trace, decoded on first use: a pipeline that stores traces passes
        `trace_json` on as it is and never pays for this."""
        return None if self.trace_json is None else json.loads(self.trace_json)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def judged(self) -> bool:
        """False for sandbox_error: an infrastructure failure, never a verdict."""
        return self.status != "sandbox_error"

    def to_dict(self) -> dict:
        return {"id": self.id, "status": self.status, "result": self.result,
                "exception": self.exception, "stdout": self.stdout,
                "duration_ms": round(self.duration_ms, 3), "trace": self.trace,
                "stderr": self.stderr, "cpu_ms": round(self.cpu_ms, 3),
                "hash_seed": self.hash_seed, "python": self.python, **self.extra}

    @classmethod
    def sandbox_error(cls, job_id: str, message: str, hash_seed: int = 0) -> "RunResult":
        return cls(id=job_id, status="sandbox_error", hash_seed=hash_seed,
                   exception={"type": "SandboxError", "message": message})

    @classmethod
    def from_wire(cls, data: dict) -> "RunResult":
        return cls(id=data["id"], status=data["status"], result=data.get("result"),
                   exception=data.get("exception"), stdout=data.get("stdout", ""),
                   stderr=data.get("stderr", ""), duration_ms=data.get("duration_ms", 0.0),
                   cpu_ms=data.get("cpu_ms", 0.0), hash_seed=data.get("hash_seed", 0),
                   trace_json=None if data.get("trace") is None else json.dumps(data["trace"]),
                   trace_steps=len((data.get("trace") or {}).get("steps", ())),
                   python=data.get("python", ""))


def same_behaviour(a: RunResult, b: RunResult, with_stderr: bool = False) -> bool:
    """Whether two runs of one job behaved identically (timings and seeds aside); one
    encoder, so equal trace text is an equal trace."""
    fields = ("status", "result", "exception", "stdout", "trace_json") + (("stderr",) if with_stderr else ())
    return all(getattr(a, name) == getattr(b, name) for name in fields)
