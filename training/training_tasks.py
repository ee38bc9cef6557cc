"""Training tasks: the prompt a model sees and the ground truth its reward receives.

verl hands `compute_score` a *string* ground truth and a free-form `extra_info`; TRL and
OpenRLHF hand over dataset columns / labels. So everything grading needs is serialised into
one JSON string (`Task.ground_truth()`), read back by `Task.from_ground_truth` (cached: a
trainer grades the same sample once per rollout), and `extra_info()` carries the readable
rest, including `gold_answer`, the exact answer block that earns the maximum reward.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from training.errors import GroundTruthError, UnknownTaskTypeError
from training.prompts import TEMPLATE_VERSIONS, answer_block, render_prompt
from training.question_record import IO, OI, Question

__all__ = ["Question", "Task", "TASK_TYPES", "render_prompt", "gold_answer_text", "data_source_of"]

IO_WHITEBOX = "io_whitebox"
IO_ONLY = "io"
OUTPUT_INPUT = "oi"
CODEGEN = "codegen"
TASK_TYPES = (IO_WHITEBOX, IO_ONLY, OUTPUT_INPUT, CODEGEN)
DATA_SOURCE_PREFIX = "execsynth/"
GROUND_TRUTH_VERSION = 1


def data_source_of(task_type: str) -> str:
    return DATA_SOURCE_PREFIX + task_type


def task_type_of(data_source: str) -> str:
    """`execsynth/io_whitebox` -> `io_whitebox`; a foreign data source is an error."""
    task_type = data_source.removeprefix(DATA_SOURCE_PREFIX)
    if task_type not in TASK_TYPES or not data_source.startswith(DATA_SOURCE_PREFIX):
        raise UnknownTaskTypeError(f"unknown data source {data_source!r}")
    return task_type


def gold_answer_text(questions: Sequence[Question], style: str = "tags") -> str:
    """The `<answer>...</answer>` block that scores the maximum for these questions."""
    return answer_block(questions, style)


@dataclass(frozen=True)
class CodeTest:
    """One unit test of a code-generation task: call `entry_point(args)`, expect a value."""

    args: str
    expected: dict[str, Any]  # typed value {"type", "repr"}

    def to_dict(self) -> dict[str, Any]:
        return {"args": self.args, "expected": dict(self.expected)}


@dataclass(frozen=True)
class Task:
    """One training item. `result` is the typed value the sandbox returned for `args`."""

    task_type: str
    code: str
    entry_point: str
    args: str = ""
    result: dict[str, Any] | None = None
    questions: tuple[Question, ...] = ()
    style: str = "tags"
    hash_seed: int = 0
    tests: tuple[CodeTest, ...] = ()
    instruction: str | None = None  # codegen: the problem statement shown to the model
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.task_type not in TASK_TYPES:
            raise UnknownTaskTypeError(f"unknown task type {self.task_type!r}")
        if self.style not in TEMPLATE_VERSIONS:
            raise GroundTruthError(f"unknown answer style {self.style!r}")
        if self.task_type == CODEGEN and not self.tests:
            raise GroundTruthError("a codegen task needs at least one test")
        if self.task_type != CODEGEN:
            kinds = [q.kind for q in self.questions if q.position == 0]
            want = OI if self.task_type == OUTPUT_INPUT else IO
            if kinds != [want]:
                raise GroundTruthError(f"a {self.task_type} task needs exactly one {want} question at position 0")
            positions = sorted(q.position for q in self.questions if q.position > 0)
            if positions != list(range(1, len(positions) + 1)):
                raise GroundTruthError("step questions must be numbered 1..n")

    @property
    def data_source(self) -> str:
        return data_source_of(self.task_type)

    @property
    def step_questions(self) -> tuple[Question, ...]:
        return tuple(sorted((q for q in self.questions if q.position > 0), key=lambda q: q.position))

    @property
    def assertion_question(self) -> Question | None:
        return next((q for q in self.questions if q.position == 0), None)

    def prompt(self) -> str:
        if self.task_type == CODEGEN:
            if not self.instruction:
                raise GroundTruthError("a codegen task needs an instruction to render")
            return self.instruction
        return render_prompt(self.code, self.questions, self.style)

    def gold_answer(self) -> str:
        if self.task_type == CODEGEN:
            return f"<answer>\n```python\n{self.code.rstrip()}\n```\n</answer>"
        return gold_answer_text(self.questions, self.style)

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": GROUND_TRUTH_VERSION, "task_type": self.task_type, "code": self.code,
            "entry_point": self.entry_point, "args": self.args, "result": self.result,
            "questions": [q.to_dict() for q in self.questions], "style": self.style,
            "hash_seed": self.hash_seed, "tests": [t.to_dict() for t in self.tests],
            "instruction": self.instruction, "meta": dict(self.meta),
        }

    def ground_truth(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def extra_info(self) -> dict[str, Any]:
        return {
            "task_type": self.task_type, "function_source": self.code,
            "entry_point": self.entry_point, "args": self.args,
            "result": None if self.result is None else self.result.get("repr"),
            "result_type": None if self.result is None else self.result.get("type"),
            "questions": [q.text for q in self.questions],
            "question_records": [q.to_dict() for q in self.questions],
            "gold_answers": [q.gold_answer for q in sorted(self.questions, key=lambda q: q.position)],
            "gold_answer": self.gold_answer(), "style": self.style,
            "prompt_version": TEMPLATE_VERSIONS[self.style], "hash_seed": self.hash_seed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Task:
        if not isinstance(data, dict):
            raise GroundTruthError("ground truth must be a JSON object")
        if data.get("v") != GROUND_TRUTH_VERSION:
            raise GroundTruthError(f"unsupported ground-truth version {data.get('v')!r}")
        try:
            return cls(
                task_type=data["task_type"], code=data["code"], entry_point=data["entry_point"],
                args=data.get("args", ""), result=data.get("result"),
                questions=tuple(Question.from_dict(q) for q in data.get("questions", [])),
                style=data.get("style", "tags"), hash_seed=int(data.get("hash_seed", 0)),
                tests=tuple(CodeTest(t["args"], t["expected"]) for t in data.get("tests", [])),
                instruction=data.get("instruction"), meta=dict(data.get("meta") or {}),
            )
        except (KeyError, TypeError) as exc:
            raise GroundTruthError(f"malformed ground truth: {exc!r}") from None

    @classmethod
    def from_ground_truth(cls, ground_truth: str | dict[str, Any]) -> Task:
        if isinstance(ground_truth, dict):
            return cls.from_dict(ground_truth)
        if not isinstance(ground_truth, str):
            raise GroundTruthError(f"ground truth must be a JSON string, got {type(ground_truth).__name__}")
        return _task_from_json(ground_truth)


@lru_cache(maxsize=4096)
def _task_from_json(text: str) -> Task:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise GroundTruthError(f"ground truth is not JSON: {exc}") from None
    return Task.from_dict(data)
