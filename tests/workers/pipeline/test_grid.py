"""The grid: one entry of every type first, then every catalog entry before any repeats, no
type over 40%."""

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


def test_every_entry_comes_up_before_any_repeats_and_shares_follow_the_catalog() -> None:
    cells = select(CATALOG, levels=["C3"], count=600, seed=5)
    first_pass = [(c.type, c.method) for c in cells[:len(CATALOG.entries)]]
    assert len(set(first_pass)) == len(first_pass) == 186  # every (type, method) once
    assert {c.type for c in cells[:11]} == set(CATALOG.types())  # the floor: every type first
    shares = Counter(c.type for c in cells)
    assert max(shares.values()) / 600 <= 0.4
    assert abs(shares["str"] / 600 - 65 / 186) < 0.03  # a type's share follows its methods
    assert shares["zip"] < 10  # one function no longer takes 1/11 of the batch


def test_no_type_takes_more_than_40_percent_of_a_level() -> None:
    cells = select(CATALOG, types=["str", "list", "dict"], levels=["C2"], count=100, seed=3)
    shares = Counter(c.type for c in cells)
    assert shares["str"] == 40 and shares["list"] + shares["dict"] == 60
    # two types: the cap is the 1/n share, so the batch splits evenly
    two = select(CATALOG, types=["str", "zip"], levels=["C2"], count=50, seed=3)
    assert Counter(c.type for c in two) == {"str": 25, "zip": 25}


def test_the_order_is_seeded_and_a_function_of_the_spec() -> None:
    a = select(CATALOG, levels=["C1"], count=40, seed=1)
    assert a == select(CATALOG, levels=["C1"], count=40, seed=1)
    assert [c.method for c in a] != [c.method for c in select(CATALOG, levels=["C1"], count=40, seed=2)]


def test_a_filtered_grid_walks_the_one_type_through_all_its_methods() -> None:
    entries = [e for e in CATALOG.entries if e.type == "set"]
    picked = stratified_entries(entries, 66, "t")
    assert {e.method for e in picked[:33]} == {e.method for e in entries}
