"""The reward result: a score plus the breakdown a researcher needs to read a reward curve."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RewardResult:
    score: float
    io: float = 0.0  # 1.0 when the final-output (or O->I, or all-tests) answer is right
    step_accuracy: float = 0.0
    n_questions: int = 0
    n_correct: int = 0
    valid_format: bool = False
    per_question: tuple[bool, ...] = ()
    problem: str | None = None  # why the answer got nothing (format, injection, ...)
    max_score: float = 2.0
    details: dict[str, Any] = field(default_factory=dict)

    def to_verl(self) -> dict[str, Any]:
        """Flat numeric dict (verl logs every key as a metric, so keys never vary)."""
        return {
            "score": self.score, "io": self.io, "step_accuracy": self.step_accuracy,
            "n_questions": self.n_questions, "n_correct": self.n_correct,
            "valid_format": float(self.valid_format),
        }

    @property
    def normalized(self) -> float:
        """The score in [0, 1] (OpenRLHF's `scores`, used for dynamic filtering)."""
        return self.score / self.max_score if self.max_score else 0.0

    def breakdown(self) -> dict[str, Any]:
        out = self.to_verl()
        out.update(per_question=list(self.per_question), problem=self.problem, **self.details)
        return out
