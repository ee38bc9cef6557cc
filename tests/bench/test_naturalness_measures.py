"""The 4-gram measures `bench/naturalness.py` prints, on programs small enough to count by
hand: what is masked, what is kept, and which skeleton the over-representation ranks first."""

from bench.naturalness import distinctness, masked_ngrams, overrepresented

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
