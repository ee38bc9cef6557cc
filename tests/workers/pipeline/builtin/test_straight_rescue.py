"""Straight code (C1/C2) whose generic forms are constant on nearly every input (`a == b == c`
over three tuples, `a > b > c` over sets, a mapping cleared twice) is written by the idiom
library's straight forms instead, which depth 0 otherwise takes on a share of draws only."""

from __future__ import annotations

import pytest

from workers.pipeline.builtin import generate_program
from workers.pipeline.builtin.program import MAX_ATTEMPTS
from workers.pipeline.builtin.selfcheck import check_seed, self_check
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.records import Constraint

CATALOG = load_catalog()


# (str startswith left this list in session 20: `s.startswith(s[:3])`, its constant generic
# form, is now a constant_condition the generator redraws, so its generic draws pass)
@pytest.mark.parametrize("cell", [("tuple", "==", "C2"), ("dict", "clear", "C2"), ("set", ">", "C2"),
                                  ("set", "<=", "C2"), ("set", "<", "C2")])
def test_a_cell_whose_generic_forms_are_constant_gets_programs_whose_output_varies(cell: tuple[str, str, str]) -> None:
    t, method, level = cell
    rescued = 0
    for index in range(3):
        program = generate_program(Constraint(t, method, level, LEVELS[level]), 5, index, CATALOG)
        # judged on the inputs the generator drew for it (the old code kept the least bad of
        # twelve draws whose output was the same on all of them)
        verdict = self_check(program.code, program.entry_point, program.args, check_seed(5, index * 64))
        assert "constant_output" not in verdict.findings, program.code
        rescued += program.attempts > MAX_ATTEMPTS
    assert rescued >= 1  # (the generic forms' draws were all constant: the rescue wrote it)


def test_a_cell_the_generic_forms_serve_is_not_rescued() -> None:
    # a straight cell whose generic draws pass keeps them: the rescue is a fallback only
    programs = [generate_program(Constraint("list", "count", "C2", LEVELS["C2"]), 5, i, CATALOG) for i in range(4)]
    assert all(p.attempts <= MAX_ATTEMPTS for p in programs)


@pytest.mark.parametrize("level", ["C3", "C5", "C6"])
def test_set_proper_subset_chains_pass_the_static_check_at_every_depth(level: str) -> None:
    # the `set.<` use chains two proper-subset tests; a single `<` would not be a nested use
    programs = [generate_program(Constraint("set", "<", level, LEVELS[level]), 5, i, CATALOG) for i in range(3)]
    assert all(p.matches and p.attempts < MAX_ATTEMPTS for p in programs), [p.code for p in programs]
    assert any("} < {" in p.code for p in programs)
