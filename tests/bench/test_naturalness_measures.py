"""The 4-gram measures `bench/naturalness.py` prints, on programs small enough to count by
hand: what is masked, what is kept, and which skeleton the over-representation ranks first."""

import pytest

from bench.naturalness import distinctness, masked_ngrams, overrepresented, pop_walks
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.builtin import generate_program
from workers.pipeline.constraints import load_catalog
from workers.pipeline.grid import batch_constraints

LOOP = "def f(xs):\n    for x in xs:\n        total += x\n    return total\n"
CALLS = "def g(text):\n    return text.strip().lower()\n"


def test_names_and_literals_are_masked_and_attributes_kept() -> None:
    grams = masked_ngrams("y = s.strip(3)\n", n=1)
    assert [g[0] for g in grams] == ["NAME", "=", "NAME", ".", "strip", "(", "LIT", ")"]
    assert [g[0] for g in masked_ngrams("y = s.strip(3)\n", n=1, attributes=False)][4] == "NAME"


def test_distinctness_counts_repeats_across_programs() -> None:
    one = distinctness([LOOP])
    assert one == 1.0  # no 4-gram of one short function repeats
    # the same skeleton under other names: every 4-gram of the second copy is a repeat
    assert distinctness([LOOP, LOOP.replace("xs", "items").replace("total", "acc")]) == 0.5


def test_overrepresented_ranks_the_skeleton_this_corpus_repeats_first() -> None:
    ours = [LOOP] * 3 + [CALLS]
    reference = [CALLS] * 3 + [LOOP]
    ranked = overrepresented(ours, reference, top=3)
    count, here, there, gram = ranked[0]
    assert gram in {" ".join(g) for g in masked_ngrams(LOOP, attributes=False)}
    assert gram not in {" ".join(g) for g in masked_ngrams(CALLS, attributes=False)}
    assert count == 3 and here > there > 0
    # a skeleton both corpora share in the same proportion is never ranked above one this one repeats
    assert all(h >= t for _, h, t, _ in ranked)


@pytest.mark.parametrize("code, walks", [
    ("def f(xs):\n    todo = sorted(xs)\n    while todo:\n        x = todo.pop()\n        print(x)\n", 1),
    ("def f(xs):\n    q = list(xs)\n    while q:\n        x, *q = q\n        print(x)\n", 0),  # (no pop: not counted)
    # a work list that grows as it is walked is what a while loop is for
    ("def f(xs):\n    todo = [xs]\n    while todo:\n        x = todo.pop()\n        todo.extend(x[1:])\n", 0),
    # a test that says why the walk stops
    ("def f(xs):\n    pile = sorted(xs)\n    while pile and pile[-1] > 3:\n        pile.pop()\n    return pile\n", 0),
])
def test_pop_walks_counts_lists_emptied_by_pops(code: str, walks: int) -> None:
    assert pop_walks(code) == walks


def test_builtin_c5_c6_programs_rarely_empty_a_list_by_pops() -> None:
    """Session 31: 25% of seed 11's C5/C6 programs walked a copy of the items by pops before
    (`builtin.context.WORK_LISTS`); the standard library does so in 0.8% of its functions."""
    catalog = load_catalog()
    cells = batch_constraints(catalog, BatchSpec(programs=120, levels=("C5", "C6"), seed=11))
    walked = sum(bool(pop_walks(generate_program(c, 11, i, catalog).code)) for i, c in enumerate(cells))
    assert walked <= 0.12 * len(cells), walked
