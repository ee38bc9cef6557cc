"""Difficulty: trace/AST features, solver pass@k, and C1-C6 level labels."""

from workers.pipeline.difficulty.features import Features, compute_features
from workers.pipeline.difficulty.scoring import (
    LEVEL_NAMES, difficulty_score, estimated_pass_rate, estimator_fit, level_from_pass_rate, level_from_score,
)
from workers.pipeline.difficulty.solver import (
    SOLVER_TEMPLATE_VERSION, SolverPolicy, SolverScore, score_completion, solver_messages, solver_request,
)

__all__ = [
    "Features", "compute_features", "LEVEL_NAMES", "difficulty_score", "estimated_pass_rate", "estimator_fit",
    "level_from_pass_rate", "level_from_score", "SOLVER_TEMPLATE_VERSION", "SolverPolicy",
    "SolverScore", "score_completion", "solver_messages", "solver_request",
]
