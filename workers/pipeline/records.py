"""Frozen records passed between pipeline stages.

Stages never see ORM objects or settings; they take and return these. Everything here is
plain data (JSON-able through `dataclasses.asdict`), so a Celery task can rebuild a record
from database rows and a stage's output can be upserted without translation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Knobs:
    """The four structure knobs of METHOD.md section 1."""

    nested_calls: bool = True
    other_methods: bool = False
    call_chain: bool = False
    control_flow_depth: int = 0  # 0..3
    # seeded blueprint of control-flow kinds, outermost first, e.g. ("for", "if-elif", "while")
    blueprint: tuple[str, ...] = ()


@dataclass(frozen=True)
class Constraint:
    """One cell of the grid: a (type, method) entry under a structure level."""

    type: str  # "str", "list", ..., or a module such as "math"
    method: str  # "split", "+", "[i:j]", "enumerate", ...
    level: str  # "C1".."C6" or "custom"
    knobs: Knobs = field(default_factory=Knobs)


@dataclass(frozen=True)
class ChatRequest:
    """One call to a teacher. `key` is the natural key (e.g. "batch:3/slot:17/generate")."""

    key: str
    messages: tuple[dict[str, str], ...]
    purpose: str  # "generate" | "mutate_inputs" | "solve"
    seed: int
    n: int = 1
    constraint: Constraint | None = None
    # purpose-specific structured context the builtin teacher reads instead of the prose
    # (e.g. for "mutate_inputs": {"code", "entry_point", "args", "reference_values"}).
    context: dict[str, Any] = field(default_factory=dict)
    temperature: float | None = None  # None: the teacher's configured default
    top_p: float | None = None
    max_tokens: int | None = None


@dataclass(frozen=True)
class Completion:
    """What a teacher answered (or failed to) for one ChatRequest. Never raises for the
    caller: failures are `status="error"` with `error` set, so they can be stored."""

    request_key: str
    texts: tuple[str, ...]
    model: str
    status: str  # "ok" | "error"
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cost_usd: float = 0.0
    attempts: int = 1
