"""The reward result: a score plus the breakdown a researcher needs to read a reward curve."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from training.errors import GroundTruthError, RewardInfrastructureError

_log = logging.getLogger(__name__)


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


def graded_or_zero(grade: Callable[[], RewardResult], n_questions: int, max_score: float) -> RewardResult:
    """`grade()`, or 0 with the failure named (and logged) when grading the response raised
    anything but a bad ground truth or a sandbox that cannot judge: a response the graders
    have not met (a huge hex int, say) must not stop a training step."""
    try:
        return grade()
    except (GroundTruthError, RewardInfrastructureError):
        raise
    except Exception as exc:
        _log.warning("a response could not be graded (%s: %s); it scores 0", type(exc).__name__, str(exc)[:200])
        return RewardResult(0.0, n_questions=n_questions, max_score=max_score,
                            problem=f"response could not be graded: {type(exc).__name__}")
