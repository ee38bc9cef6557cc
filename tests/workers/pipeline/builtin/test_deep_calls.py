"""Lines with calls nested five deep (`len(a.encode().decode().encode(b.strip()))`) are drawn
again: the standard library has 2 such lines in 77,000 statements, the generator wrote about
10 in 600 programs."""

from __future__ import annotations

from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.builtin import generate_program
from workers.pipeline.builtin.program import DEEP_CALLS, deepest_calls
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.grid import batch_constraints


def test_deepest_calls_reads_each_line_and_chains() -> None:
    code = ("def f(words, text):\n"
            "    n = len(text.encode().decode())\n"
            "    for w in sorted(set(words)):\n"
            "        if w.strip().lower().startswith(text[:1]):\n"
            "            n += 1\n"
            "    return n\n")
    assert deepest_calls(code) == 3  # the test's chain; the for's iterable is 2, the first line 3
    assert deepest_calls("def f(x):\n    return str(abs(int(float(x))))\n") == 4
    assert deepest_calls("def f(x):\n    return x\n") == 0


def test_slots_that_drew_deep_lines_draw_plain_ones() -> None:
    """Slots of seed 11 and 12 whose first fitting draw had a line five or six calls deep
    (str.encode / expandtabs chains, `range(max(range(len(...)), key=...))`, set chains)."""
    catalog = load_catalog()
    deep = {11: (14, 21, 26, 38, 69, 74, 136, 356), 12: (4, 9, 23, 125, 206, 303, 520)}
    depths = {}
    for seed, slots in deep.items():
        cells = batch_constraints(catalog, BatchSpec(programs=600, levels=tuple(LEVELS), seed=seed))
        for slot in slots:
            program = generate_program(cells[slot], seed, slot, catalog)
            depths[(seed, slot, cells[slot].method)] = deepest_calls(program.code)
    assert max(depths.values()) < DEEP_CALLS, depths
