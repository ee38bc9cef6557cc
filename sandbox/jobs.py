"""What to run (`Job`) and within which bounds (`Limits`): frozen records, validated once.

Both travel to the forkserver as plain dicts (`to_wire`), so the code that runs inside the
sandbox never needs these classes.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from .encoding import DEFAULT_VALUE_CHARS


@dataclass(frozen=True)
class Limits:
    """Bounds of one run. `cpu_s` None means the wall timeout rounded up."""

    timeout_s: float = 5.0
    cpu_s: float | None = None
    memory_mb: int = 512
    output_bytes: int = 1 << 20
    trace_steps: int = 5000
    value_chars: int = DEFAULT_VALUE_CHARS
    # the value text a trace holds in all (every step's locals): 5,000 steps of three locals
    # at the value cap would be 150 MB of JSON for one run
    trace_chars: int = 4 << 20
    file_bytes: int = 16 << 20
    open_files: int = 64
    max_tasks: int = 1  # processes + threads of the job; 1 = no fork, no thread

    def __post_init__(self) -> None:
        positive = {"timeout_s": self.timeout_s, "memory_mb": self.memory_mb,
                    "output_bytes": self.output_bytes, "trace_steps": self.trace_steps,
                    "value_chars": self.value_chars, "trace_chars": self.trace_chars, "file_bytes": self.file_bytes,
                    "open_files": self.open_files, "max_tasks": self.max_tasks}
        if self.cpu_s is not None:
            positive["cpu_s"] = self.cpu_s
        for name, value in positive.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value <= 0:
                raise ValueError(f"Limits.{name} must be a positive number, got {value!r}")
        if self.memory_mb < 32:
            raise ValueError("Limits.memory_mb must be at least 32 (the interpreter needs it)")
        if self.open_files < 8:
            raise ValueError("Limits.open_files must be at least 8")

    @property
    def cpu_seconds(self) -> int:
        return max(1, math.ceil(self.cpu_s if self.cpu_s is not None else self.timeout_s))

    def to_wire(self) -> dict:
        data = asdict(self)
        data["cpu_s"] = self.cpu_seconds
        return data


@dataclass(frozen=True)
class Job:
    """Run `code` as a module, then evaluate `entry_point(<args>)` (args: exact source text)."""

    id: str
    code: str
    entry_point: str
    args: str = ""
    trace: bool = False
    hash_seed: int = 0
    limits: Limits | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("id", "code", "entry_point", "args"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"Job.{name} must be a string, "
                                f"got {type(getattr(self, name)).__name__}")
        if not self.entry_point.isidentifier():
            raise ValueError(f"Job.entry_point must be an identifier, got {self.entry_point!r}")
        if isinstance(self.hash_seed, bool) or not isinstance(self.hash_seed, int) \
                or not 0 <= self.hash_seed <= 4294967295:
            raise ValueError("Job.hash_seed must be an int in [0, 4294967295]")
        if self.limits is not None and not isinstance(self.limits, Limits):
            raise TypeError("Job.limits must be a Limits or None")

    def to_wire(self, default_limits: Limits) -> dict:
        return {"id": self.id, "code": self.code, "entry_point": self.entry_point,
                "args": self.args, "trace": bool(self.trace), "hash_seed": self.hash_seed,
                "limits": (self.limits or default_limits).to_wire()}
