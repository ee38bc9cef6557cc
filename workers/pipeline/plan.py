"""A batch spec (the JSON stored on the batch row) read into a frozen plan with defaults.

The API validates specs strictly; this reader only fills defaults, so the CLI, the tasks and
the tests agree on what a spec means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workers.pipeline.difficulty import SolverPolicy
from workers.pipeline.execution import ExecPolicy
from workers.pipeline.inputs import SizeBounds
from workers.pipeline.naturalness.gate import policy_from_spec


@dataclass(frozen=True)
class BatchPlan:
    programs: int
    seed: int
    levels: tuple[str, ...] = ("C1", "C2", "C3", "C4", "C5", "C6")
    types: tuple[str, ...] | None = None
    methods: tuple[str, ...] | None = None
    knobs: tuple[dict[str, Any], ...] = ()  # custom levels (knob settings), after the standard ones
    inputs_per_program: int = 3
    llm_mutation: bool = True  # one teacher call per program rewriting its arguments
    mutation: bool = False  # AST program mutants
    mutants_per_program: int = 1
    on_mismatch: str = "reject"  # or "relabel": keep programs whose structure differs, record it
    difficulty_mode: str = "features"  # or "solver"
    solver: str | None = None
    solver_policy: SolverPolicy = field(default_factory=SolverPolicy)
    # keep samples whose solve rate (solver: passes / k; features: the estimator's rate) lies in
    # [lo, hi]; None keeps all (the features-mode default: labels only)
    keep_band: tuple[float, float] | None = None
    exec_policy: ExecPolicy = field(default_factory=ExecPolicy)
    bounds: SizeBounds = field(default_factory=SizeBounds)
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    naturalness: bool = True  # the naturalness gate (issue 15), on by default
    naturalness_skip: tuple[str, ...] = ()  # named gate checks this batch skips

    @classmethod
    def from_spec(cls, spec: dict[str, Any], seed: int) -> "BatchPlan":
        difficulty = spec.get("difficulty") or {}
        budget = spec.get("budget") or {}
        mode = difficulty.get("mode", "solver" if difficulty.get("solver") else "features")
        band = difficulty.get("keep_band")
        if band is None and mode == "solver":
            band = (0.0, 0.3)  # the reference: pass count <= 3 of 10
        solver_policy = SolverPolicy(
            k=int(difficulty.get("k", 10)),
            temperature=float(difficulty.get("temperature", 1.0)),
            require_teacher_solves=bool(difficulty.get("require_teacher_solves", False)),
        )
        knobs = spec.get("knobs") or ()
        if isinstance(knobs, dict):
            knobs = (knobs,)
        mutation = spec.get("mutation", False)
        execution = spec.get("execution") or {}
        natural, natural_skip = policy_from_spec(spec)
        return cls(
            naturalness=natural, naturalness_skip=natural_skip,
            programs=int(spec.get("programs", spec.get("count", 0))),
            seed=seed,
            levels=tuple(spec.get("levels") or (() if knobs else cls.levels)),
            types=tuple(spec["types"]) if spec.get("types") else None,
            methods=tuple(spec["methods"]) if spec.get("methods") else None,
            knobs=tuple(dict(k) for k in knobs),
            inputs_per_program=int(spec.get("inputs_per_program", 3)),
            llm_mutation=bool(spec.get("llm_mutation", True)),
            mutation=bool(mutation),
            mutants_per_program=int(spec.get("mutants_per_program", 1)),
            on_mismatch=spec.get("on_mismatch", "reject"),
            difficulty_mode=mode,
            solver=difficulty.get("solver"),
            solver_policy=solver_policy,
            keep_band=(float(band[0]), float(band[1])) if band else None,
            exec_policy=ExecPolicy(
                max_result_chars=int(execution.get("max_result_chars", 1000)),
                max_trace_steps=int(execution.get("max_trace_steps", 5000)),
                timeout_s=float(execution.get("timeout_s", 5.0)),
            ),
            max_tokens=budget.get("max_tokens"),
            max_cost_usd=budget.get("max_cost_usd"),
        )
