"""Reward functions for trainers: verl `compute_score`, a TRL reward function and an
OpenRLHF `reward_func`, all thin wrappers over one scorer per task type (a registry).

Import cost is the standard library only; the sandbox starts on the first O->I or codegen
answer. Infrastructure failures raise RewardInfrastructureError; malformed ground truth
raises GroundTruthError. Neither becomes a score.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from training.errors import GroundTruthError, RewardInfrastructureError
from training.rewards.codegen import DEFAULT_FORMAT_BONUS, score_codegen
from training.rewards.result import RewardResult
from training.rewards.whitebox import DEFAULT_ALPHA, score_assertion_task
from training.training_tasks import CODEGEN, IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT, Task, task_type_of
from training.values import FloatTolerance

__all__ = [
    "REWARDS", "RewardResult", "compute_score", "score", "trl_reward", "make_trl_reward",
    "reward_func", "GroundTruthError", "RewardInfrastructureError", "DEFAULT_ALPHA",
]

Scorer = Callable[..., RewardResult]


def _assertion(task: Task, solution: str, alpha: float = DEFAULT_ALPHA,
               float_tolerance: Any = None, **_: Any) -> RewardResult:
    return score_assertion_task(task, solution, alpha=alpha,
                                tolerance=FloatTolerance.from_option(float_tolerance))


def _codegen(task: Task, solution: str, format_bonus: float = DEFAULT_FORMAT_BONUS,
             float_tolerance: Any = None, **_: Any) -> RewardResult:
    return score_codegen(task, solution, format_bonus=format_bonus,
                         tolerance=FloatTolerance.from_option(float_tolerance))


REWARDS: dict[str, Scorer] = {
    IO_WHITEBOX: _assertion,
    IO_ONLY: _assertion,
    OUTPUT_INPUT: _assertion,
    CODEGEN: _codegen,
}


def score(solution_str: str, ground_truth: str | dict, data_source: str | None = None,
          **options: Any) -> RewardResult:
    """Score one response; `data_source`, when given, must agree with the ground truth."""
    task = Task.from_ground_truth(ground_truth)
    if data_source is not None and task_type_of(data_source) != task.task_type:
        raise GroundTruthError(f"data source {data_source!r} does not match task type {task.task_type!r}")
    return REWARDS[task.task_type](task, solution_str, **options)


def compute_score(data_source: str, solution_str: str, ground_truth: str,
                  extra_info: dict | None = None, **options: Any) -> dict[str, Any]:
    """verl's custom reward entry point: returns {"score": float, ...numeric breakdown}.

    Options (`alpha`, `format_bonus`, `float_tolerance`) come from verl's
    `custom_reward_function.reward_kwargs`. Answers compare exactly (Python's `==` with
    exact types); `float_tolerance` (off by default: None) turns on `math.isclose` for
    floats: True for rel 1e-6 / abs 1e-9, a number for that relative tolerance, or
    {"rel": .., "abs": ..}."""
    return score(solution_str, ground_truth, data_source, **options).to_verl()


def make_trl_reward(**options: Any) -> Callable[..., list[float]]:
    """A TRL GRPOTrainer reward function. The dataset needs a `ground_truth` column (the
    string from `Task.ground_truth()`); other columns arrive as kwargs and are ignored."""

    def execsynth_reward(completions: list, ground_truth: list, **kwargs: Any) -> list[float]:
        return [score(_completion_text(c), gt, **options).score for c, gt in zip(completions, ground_truth, strict=True)]

    return execsynth_reward


trl_reward = make_trl_reward()


def _completion_text(completion: Any) -> str:
    """TRL passes plain strings, or for conversational data a list of message dicts."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    raise TypeError(f"unsupported completion of type {type(completion).__name__}")


def reward_func(queries: list[str], prompts: list[str], labels: list[str], **options: Any) -> dict[str, Any]:
    """OpenRLHF's `--reward.remote_url reward.py` hook: `queries` are prompt + response, `labels`
    the ground-truth strings (`--label_key`). Returns {"rewards", "scores", "extra_logs"} as
    torch tensors when torch is importable (as OpenRLHF expects), lists otherwise."""
    results = []
    for query, prompt, label in zip(queries, prompts, labels, strict=True):
        response = query[len(prompt):] if query.startswith(prompt) else query
        results.append(score(response, label, **options))
    rewards = [r.score for r in results]
    scores = [r.normalized for r in results]
    try:
        import torch  # optional: only inside an OpenRLHF process
    except ImportError:
        return {"rewards": rewards, "scores": scores, "extra_logs": {}}
    return {"rewards": torch.tensor(rewards), "scores": torch.tensor(scores), "extra_logs": {}}
