"""The stratified grid: types interleaved in a seeded order, methods walked per type."""

from __future__ import annotations

from collections import Counter

from workers.pipeline.constraints import LEVELS, load_catalog, select
from workers.pipeline.constraints.select import stratified_entries
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.grid import batch_constraints

CATALOG = load_catalog()


def test_a_66_program_batch_over_c1_c6_holds_every_type_level_cell() -> None:
    for seed in (0, 1, 7):
        cells = batch_constraints(CATALOG, BatchSpec(programs=66, levels=tuple(LEVELS), seed=seed))
        assert len({(c.type, c.level) for c in cells}) == 66


def test_no_type_takes_more_than_40_percent_and_every_method_comes_up() -> None:
    cells = select(CATALOG, levels=["C3"], count=600, seed=5)
    shares = Counter(c.type for c in cells)
    assert len(shares) == 11 and max(shares.values()) / 600 <= 0.4
    strs = [c.method for c in cells if c.type == "str"]
    assert len(set(strs)) == len(strs) == 55  # a type's methods before any repeats


def test_the_order_is_seeded_and_a_function_of_the_spec() -> None:
    a = select(CATALOG, levels=["C1"], count=40, seed=1)
    assert a == select(CATALOG, levels=["C1"], count=40, seed=1)
    assert [c.method for c in a] != [c.method for c in select(CATALOG, levels=["C1"], count=40, seed=2)]


def test_a_filtered_grid_walks_the_one_type_through_all_its_methods() -> None:
    entries = [e for e in CATALOG.entries if e.type == "set"]
    picked = stratified_entries(entries, 66, "t")
    assert {e.method for e in picked[:33]} == {e.method for e in entries}
