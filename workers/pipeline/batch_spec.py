"""The batch spec: the one model of what a researcher asks for, with the one set of defaults.

The API validates a POST body with it, the CLI builds it from its options, the batch row
stores its JSON (`model_dump(mode="json")`, the body as posted with defaults filled in), and
every stage reads it back with `BatchSpec.stored(batch.spec, batch.seed)`. Nothing else
carries a second copy of a default.

Limits are generous but finite: a typo such as `programs: 10000000000` is rejected rather
than queued as a batch that would run for years. Sandbox limits (timeout, memory, trace
steps) are not part of a batch: they are the deployment's (`EXECSYNTH_SANDBOX__*`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from workers.pipeline.difficulty import SolverPolicy
from workers.pipeline.stages.execute import ExecPolicy
from workers.pipeline.inputs import SizeBounds
from workers.pipeline.naturalness.gate import UnknownCheck, checked

LevelName = Literal["C1", "C2", "C3", "C4", "C5", "C6"]
ControlKind = Literal["if", "for", "while", "if-elif"]
ALL_LEVELS: tuple[LevelName, ...] = ("C1", "C2", "C3", "C4", "C5", "C6")
MAX_PROGRAMS = 1_000_000
MAX_INPUTS = 64
REFERENCE_BAND = (0.0, 0.3)  # the reference keeps pass count <= 3 of 10 (METHOD.md section 4)

_STRICT = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class KnobsSpec(BaseModel):
    """A custom structure level (METHOD.md section 1); the blueprint is drawn when empty."""

    model_config = _STRICT

    nested_calls: bool = True
    other_methods: bool = False
    call_chain: bool = False
    control_flow_depth: int = Field(default=0, ge=0, le=3)
    blueprint: tuple[ControlKind, ...] = Field(default=(), max_length=3, description="control-flow kinds, outermost first")

    @model_validator(mode="after")
    def _blueprint_matches_depth(self) -> "KnobsSpec":
        if self.blueprint and len(self.blueprint) != self.control_flow_depth:
            raise ValueError("blueprint length must equal control_flow_depth")
        return self


class DifficultySpec(BaseModel):
    """How samples are judged hard enough. Both modes give each sample a solve rate in [0, 1]:
    the solver's passes / k (mode "solver"), or the feature estimator's estimated rate (mode
    "features"). `keep_band` keeps samples whose rate lies in [lo, hi]; it defaults to the
    reference's [0, 0.3] with a solver and to no filter (labels only) without one."""

    model_config = _STRICT

    mode: Literal["features", "solver"] = "features"
    solver: str | None = Field(default=None, min_length=1, max_length=64,
                               description='teacher name that plays the student; required for mode "solver"')
    keep_band: tuple[float, float] | None = Field(default=None, description="[lo, hi] solve rate, 0 <= lo <= hi <= 1")
    k: int = Field(default=10, ge=1, le=64, description="solver attempts per sample")
    temperature: float = Field(default=1.0, ge=0.0, le=2.0, description="solver sampling temperature")
    require_teacher_solves: bool = Field(default=False, description="keep a sample only when the teacher solves it once")

    @model_validator(mode="after")
    def _check(self) -> "DifficultySpec":
        if self.keep_band is not None:
            lo, hi = self.keep_band
            if not (0.0 <= lo <= hi <= 1.0):
                raise ValueError(f"keep_band must satisfy 0 <= lo <= hi <= 1, got [{lo}, {hi}]")
        if self.mode == "solver" and not self.solver:
            raise ValueError('mode "solver" needs a solver name')
        if self.solver and self.mode != "solver":
            raise ValueError('a solver is only used in mode "solver"')
        return self

    @property
    def band(self) -> tuple[float, float] | None:
        """The keep band in force (the reference's with a solver when none was given)."""
        if self.keep_band is None and self.mode == "solver":
            return REFERENCE_BAND
        return self.keep_band

    @property
    def solver_policy(self) -> SolverPolicy:
        return SolverPolicy(k=self.k, temperature=self.temperature, require_teacher_solves=self.require_teacher_solves)


class BudgetSpec(BaseModel):
    model_config = _STRICT

    max_tokens: int | None = Field(default=None, ge=1, le=10**12)
    max_cost_usd: float | None = Field(default=None, gt=0, le=10**7)


class NaturalnessSpec(BaseModel):
    """The naturalness gate (every teacher's programs): on by default; named checks can be skipped."""

    model_config = _STRICT

    enabled: bool = True
    skip: tuple[str, ...] = Field(default=(), max_length=16, description="gate checks to skip (see the reasons)")

    @field_validator("skip")
    @classmethod
    def _known(cls, skip: tuple[str, ...]) -> tuple[str, ...]:
        try:
            checked(skip)
        except UnknownCheck as exc:
            raise ValueError(str(exc)) from None
        return skip


class BatchSpec(BaseModel):
    """One batch: a slice of the grid, how many programs, and how their samples are made."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, json_schema_extra={"examples": [{
        "types": ["str", "list"], "methods": ["split", "append"], "levels": ["C1", "C3"],
        "programs": 200, "inputs_per_program": 3, "teacher": "builtin",
        "difficulty": {"mode": "features", "k": 10},
        "seed": 7, "priority": 5, "budget": {"max_tokens": 2000000},
    }]})

    programs: int = Field(ge=1, le=MAX_PROGRAMS, description="programs to generate, spread over the levels")
    levels: tuple[LevelName, ...] | None = Field(default=None, max_length=6,
                                                 description="omitted: C1..C6 (none when knobs are given)")
    knobs: tuple[KnobsSpec, ...] = Field(default=(), max_length=16, description="custom levels, after the standard ones")
    types: tuple[str, ...] = Field(default=(), max_length=64, description="empty: every type")
    methods: tuple[str, ...] = Field(default=(), max_length=512, description="empty: every method of the types")
    inputs_per_program: int = Field(default=3, ge=1, le=MAX_INPUTS)
    llm_mutation: bool = Field(default=True, description="one teacher call per program rewriting its arguments")
    mutation: bool = Field(default=False, description="also keep AST mutants of each program")
    mutants_per_program: int = Field(default=1, ge=1, le=8)
    on_mismatch: Literal["reject", "relabel"] = Field(
        default="reject", description="relabel: keep programs whose measured structure differs from the request")
    teacher: str | None = Field(default=None, min_length=1, max_length=64,
                                description="omitted: the deployment's default teacher")
    difficulty: DifficultySpec = Field(default_factory=DifficultySpec)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1, description="omitted: drawn at random and recorded")
    priority: int = Field(default=5, ge=0, le=9, description="0 lowest, 9 highest")
    budget: BudgetSpec = Field(default_factory=BudgetSpec)
    naturalness: NaturalnessSpec = Field(default_factory=NaturalnessSpec, description="the naturalness gate")

    @field_validator("types", "methods")
    @classmethod
    def _names(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        if any(not v.strip() or len(v) > 64 for v in values):
            raise ValueError("entries must be 1..64 characters")
        return values

    @model_validator(mode="after")
    def _some_level(self) -> "BatchSpec":
        if not self.level_names and not self.knobs:
            raise ValueError("give at least one of levels (C1..C6) or knobs (custom levels)")
        return self

    @classmethod
    def stored(cls, spec: dict, seed: int) -> "BatchSpec":
        """The spec of a batch row, with the seed the row recorded."""
        return cls.model_validate({**spec, "seed": seed})

    @property
    def level_names(self) -> tuple[str, ...]:
        if self.levels is not None:
            return self.levels
        return () if self.knobs else ALL_LEVELS

    @property
    def run_seed(self) -> int:
        """The seed every item derives from; a stored spec always has one."""
        if self.seed is None:
            raise ValueError("this spec has no seed yet (BatchSpec.stored gives it the batch's)")
        return self.seed

    @property
    def exec_policy(self) -> ExecPolicy:
        return ExecPolicy()

    @property
    def bounds(self) -> SizeBounds:
        return SizeBounds()

    def over_budget(self, tokens: int, cost_usd: float) -> bool:
        budget = self.budget
        return bool((budget.max_tokens and tokens >= budget.max_tokens)
                    or (budget.max_cost_usd and cost_usd >= budget.max_cost_usd))

    def chunks(self, size: int) -> list[tuple[int, int]]:
        return [(start, min(self.programs, start + size)) for start in range(0, self.programs, max(1, size))]
