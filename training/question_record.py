"""The stable question record shared by the pipeline, the database and the exports.

Plain data only (JSON through `to_dict`), so it can be stored in a row, a parquet cell or a
verl ground-truth string and read back unchanged by a trainer that has only `training`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

IO = "io"
OI = "oi"
NEXT_LINE = "next_line"
VARIABLE = "variable"
COVERAGE = "coverage"


@dataclass(frozen=True)
class Question:
    """One question with its exact answer.

    position: 0 for the assertion (io / oi), 1..n for the numbered step questions.
    line / visit: the 1-based code line and the 1-based execution count it is about.
    gold_answer: the answer line text that is graded correct (without the number).
    payload: what grading needs beyond the text (typed result, next line, value, type...).
    """

    kind: str
    position: int
    line: int | None
    visit: int | None
    variable: str | None
    text: str
    gold_answer: str
    payload: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "position": self.position, "line": self.line,
            "visit": self.visit, "variable": self.variable, "text": self.text,
            "gold_answer": self.gold_answer, "payload": dict(self.payload),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Question:
        from training.errors import GroundTruthError

        try:
            return cls(
                kind=str(data["kind"]), position=int(data["position"]),
                line=None if data.get("line") is None else int(data["line"]),
                visit=None if data.get("visit") is None else int(data["visit"]),
                variable=data.get("variable"), text=str(data["text"]),
                gold_answer=str(data["gold_answer"]), payload=dict(data.get("payload") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GroundTruthError(f"malformed question record: {exc!r}") from None
