"""One spec for REST and the CLI: the same defaults, the same validation, every field
reachable from both."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from execsynth.commands.synth import spec_from_options
from workers.pipeline.batch_spec import ALL_LEVELS, REFERENCE_BAND, BatchSpec


def test_defaults_are_the_spec_s_own() -> None:
    spec = BatchSpec(programs=10)
    assert spec.level_names == ALL_LEVELS
    assert (spec.inputs_per_program, spec.mutation, spec.llm_mutation, spec.mutants_per_program) == (3, False, True, 1)
    assert spec.on_mismatch == "reject" and spec.difficulty.band is None
    assert BatchSpec(programs=1, knobs=[{"control_flow_depth": 1}]).level_names == ()


def test_the_cli_and_the_api_build_the_same_spec() -> None:
    body = {"programs": 12, "levels": ["C1", "C4"], "types": ["str"], "methods": ["split"], "inputs_per_program": 2,
            "mutation": True, "mutants_per_program": 2, "llm_mutation": False, "on_mismatch": "relabel",
            "teacher": "builtin", "seed": 5, "difficulty": {"mode": "solver", "solver": "gpt", "k": 4, "keep_band": [0.1, 0.5]},
            "budget": {"max_cost_usd": 1.5}, "naturalness": {"skip": ["dead_store"]}}
    from_api = BatchSpec.model_validate(body)
    from_cli = spec_from_options(programs=12, levels=["C1", "C4"], types=["str"], methods=["split"], inputs_per_program=2,
                                 mutation=True, mutants_per_program=2, llm_mutation=False, on_mismatch="relabel",
                                 teacher="builtin", seed=5, solver="gpt", k=4, keep_band=(0.1, 0.5),
                                 budget={"max_cost_usd": 1.5}, naturalness={"skip": ("dead_store",)})
    assert from_cli == from_api
    assert from_cli.model_dump(mode="json") == from_api.model_dump(mode="json")
    assert spec_from_options(programs=12) == BatchSpec(programs=12)  # options left out: the same defaults


def test_a_stored_spec_reads_back_with_the_batch_seed() -> None:
    stored = BatchSpec(programs=3, difficulty={"mode": "solver", "solver": "s"}).model_dump(mode="json")
    spec = BatchSpec.stored(stored, 99)
    assert spec.run_seed == 99 and spec.difficulty.band == REFERENCE_BAND
    with pytest.raises(ValueError, match="no seed"):
        _ = BatchSpec(programs=3).run_seed


@pytest.mark.parametrize("body, field", [
    ({"programs": 0}, "programs"),
    ({"programs": 1, "levels": ["C9"]}, "levels"),
    ({"programs": 1, "levels": []}, "at least one of levels"),
    ({"programs": 1, "budget": {"max_cost_usd": float("nan")}}, "max_cost_usd"),
    ({"programs": 1, "difficulty": {"keep_band": [0.5, 0.1]}}, "keep_band"),
    ({"programs": 1, "difficulty": {"mode": "solver"}}, "solver"),
    ({"programs": 1, "count": 3}, "count"),
    ({"programs": 1, "execution": {"timeout_s": 1}}, "execution"),
    ({"programs": 1, "naturalness": {"skip": ["dead_stores"]}}, "unknown naturalness checks"),
])
def test_bad_specs_are_refused_with_the_field_named(body: dict, field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        BatchSpec.model_validate(body)
