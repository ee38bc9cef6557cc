"""Solver pass@k: a student model predicts the output k times; each prediction is parsed and
compared by value with the stored result (training.answers.grade_output: Python's `==` with
exact types, no float tolerance, the rule of every reward), never by substring.
"""

from __future__ import annotations

from dataclasses import dataclass

from training.answers import grade_output
from workers.pipeline.records import ChatRequest, Completion

SOLVER_TEMPLATE_VERSION = "solve-io-v1"

_INSTRUCTIONS = (
    "You are given a Python function and an assertion containing an input to the function. "
    "Complete the assertion with a literal (no unsimplified expressions, no function calls) "
    "containing the output when executing the provided code on the given input, even if the "
    "function is incorrect or incomplete. Think step by step, then give the full assertion "
    "in [ANSWER] and [/ANSWER] tags."
)


@dataclass(frozen=True)
class SolverPolicy:
    k: int = 10
    temperature: float = 1.0
    require_teacher_solves: bool = False


@dataclass(frozen=True)
class SolverScore:
    passes: int
    k: int
    errors: int  # predictions that never came back (infrastructure), not counted as wrong

    @property
    def pass_rate(self) -> float:
        graded = self.k - self.errors
        return self.passes / graded if graded else 0.0


def solver_messages(code: str, entry_point: str, args: str) -> tuple[dict[str, str], ...]:
    user = f"{_INSTRUCTIONS}\n\n```python\n{code.rstrip()}\nassert {entry_point}({args}) == ??\n```"
    return ({"role": "user", "content": user},)


def solver_request(key: str, code: str, entry_point: str, args: str, seed: int, policy: SolverPolicy) -> ChatRequest:
    """`key` is the full natural key of the call (e.g. "sample:12/student")."""
    return ChatRequest(
        key=key, messages=solver_messages(code, entry_point, args), purpose="solve",
        seed=seed, n=policy.k, temperature=policy.temperature,
        context={"code": code, "entry_point": entry_point, "args": args},
    )


def _answer_region(text: str) -> str:
    """The text inside [ANSWER]...[/ANSWER] when present (the prompt asks for it)."""
    start = text.rfind("[ANSWER]")
    if start == -1:
        return text
    end = text.find("[/ANSWER]", start)
    return text[start + len("[ANSWER]"): end if end != -1 else None]


def score_completion(completion: Completion, gold_result: dict, entry_point: str, k: int) -> SolverScore:
    """Count predictions equal by value to the gold result; a failed call is an error, not a miss."""
    if completion.status != "ok":
        return SolverScore(passes=0, k=k, errors=k)
    passes = sum(1 for text in completion.texts[:k] if grade_output(_answer_region(text), gold_result, entry_point))
    return SolverScore(passes=passes, k=k, errors=max(0, k - len(completion.texts)))
