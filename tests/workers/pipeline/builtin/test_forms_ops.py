"""The shared operator forms: what a dict lookup with a default and a chained comparison
compute, on values the pipeline's inputs take."""

from __future__ import annotations

import random
import re

from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.forms_ops import compare, index


def test_a_dict_lookup_gives_the_inputs_own_value_before_the_default() -> None:
    g = Ctx(random.Random(3), False)
    text = index("dict")(g, "stock", 1).expr
    key = re.search(r"\[('\w+')\]$", text).group(1)
    assert text.startswith("({" + key + ": ")  # the default first: the input's value wins
    assert eval(text, {"stock": {eval(key): 42}}) == 42  # noqa: S307 - the form's own text
    assert eval(text, {"stock": {}}) == int(re.search(r": (\d+)\}", text).group(1))  # noqa: S307


def test_a_chained_comparison_holds_at_most_one_literal() -> None:
    literals = 0
    for seed in range(300):
        g = Ctx(random.Random(seed), False)
        name = g.param("set")
        chain = compare("<=", "set")(g, name, 3).expr
        operands = chain.split(" <= ")
        assert len(operands) == 4
        literals += sum(not o.isidentifier() for o in operands)
        assert sum(not o.isidentifier() for o in operands) <= 1, chain  # `{3, 2} <= {8}`: constant
    assert literals > 50


def test_a_strip_chain_peels_a_new_set_of_characters_at_each_call() -> None:
    from workers.pipeline.builtin.forms_str import STRIP_SETS, str_form
    for seed in range(40):
        g = Ctx(random.Random(seed), False)
        text = str_form("rstrip")(g, "code", 3).expr
        sets = re.findall(r"\.rstrip\(([^)]*)\)", text)
        assert len(sets) == 3 and len(set(sets)) == 3 and set(sets) <= set(STRIP_SETS), text
