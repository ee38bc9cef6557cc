"""A drawn blueprint's arms can all run on the inputs a sample keeps."""

from __future__ import annotations

import random
from collections import Counter

from workers.pipeline.constraints.levels import CONTROL_KINDS, SAMPLE_INPUTS, draw_blueprint, leaf_arms


def test_leaf_arms_count_the_inputs_a_blueprint_of_tests_needs() -> None:
    assert leaf_arms(("if-elif", "if-elif", "if-elif")) == 4  # each input ends in one of four leaves
    assert leaf_arms(("if-elif", "if-elif", "if")) == 3
    assert leaf_arms(("if", "if", "if-elif")) == 2
    assert leaf_arms(("if-elif", "for", "if-elif")) == 0  # a loop lets one input take many paths
    assert leaf_arms(()) == 0


def test_no_drawn_blueprint_needs_more_inputs_than_a_sample_keeps() -> None:
    rng = random.Random(7)
    drawn = Counter(draw_blueprint(3, rng) for _ in range(6000))
    assert ("if-elif", "if-elif", "if-elif") not in drawn
    assert all(leaf_arms(b) <= SAMPLE_INPUTS for b in drawn)
    # every other blueprint still comes up, about as often as before (63 of the 64)
    assert len(drawn) == len(CONTROL_KINDS) ** 3 - 1
    assert min(drawn.values()) > 6000 / 64 / 2
