"""Level labels C1-C6 for samples: from the solver's pass rate when a solver ran, otherwise from
a feature-based estimator; and how well the estimator agrees with solver labels."""

from __future__ import annotations

import math
from collections.abc import Sequence

from workers.pipeline.difficulty.features import Features

LEVEL_NAMES = ("C1", "C2", "C3", "C4", "C5", "C6")

# Pass-rate bands, easiest first: >= 0.9 -> C1, >= 0.7 -> C2, ... , < 0.1 -> C6.
PASS_RATE_FLOORS = (0.9, 0.7, 0.5, 0.3, 0.1)

# The feature estimator maps a difficulty score to an estimated solve rate with a logistic
# curve, so feature labels and solver labels share one scale (and one keep band). Centre and
# slope were set on builtin-teacher programs (bench/pipeline.py prints score medians per level).
SCORE_CENTRE = 5.4
SCORE_SLOPE = 1.2


def level_from_pass_rate(rate: float) -> str:
    for floor, name in zip(PASS_RATE_FLOORS, LEVEL_NAMES):
        if rate >= floor:
            return name
    return LEVEL_NAMES[-1]


def difficulty_score(f: Features) -> float:
    """Monotone in every feature; log-scaled counts so one long loop does not dominate."""
    return (
        0.6 * math.log1p(f.trace_steps)
        + 0.5 * math.log1p(f.loop_iterations)
        + 0.5 * math.log1p(f.branch_decisions)
        + 0.9 * f.control_depth
        + 0.8 * min(f.helper_calls, 3)
        + 0.3 * math.log1p(f.variables_changed)
        + 0.15 * f.methods_used
        + 0.2 * math.log1p(f.result_chars)
    )


def estimated_pass_rate(score: float) -> float:
    """Estimated share of a student's attempts that would solve the sample, in (0, 1)."""
    return 1.0 / (1.0 + math.exp((score - SCORE_CENTRE) / SCORE_SLOPE))


def level_from_score(score: float) -> str:
    return level_from_pass_rate(estimated_pass_rate(score))


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    if len(xs) < 3:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else None


def estimator_fit(scores: Sequence[float], pass_rates: Sequence[float]) -> dict[str, float | int | None]:
    """Agreement of the feature estimator with solver labels: rank correlation of score with
    failure rate, exact level agreement and agreement within one level."""
    est = [LEVEL_NAMES.index(level_from_score(s)) for s in scores]
    sol = [LEVEL_NAMES.index(level_from_pass_rate(r)) for r in pass_rates]
    n = len(est)
    return {
        "n": n,
        "spearman": spearman(list(scores), [1 - r for r in pass_rates]),
        "exact_agreement": sum(a == b for a, b in zip(est, sol)) / n if n else None,
        "within_one": sum(abs(a - b) <= 1 for a, b in zip(est, sol)) / n if n else None,
    }
