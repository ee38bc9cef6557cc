"""C6 helpers of the generic path: a str sub-task may run word by word (or letter by
letter) inside one comprehension, whose result the helper's signature reports."""

from __future__ import annotations

import random
import re

from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.program import _helper, _per_item
from workers.pipeline.builtin.registry import form_for
from workers.pipeline.constraints import load_catalog

CATALOG = load_catalog()


def test_per_item_results_follow_the_uses_type() -> None:
    rng = random.Random(3)
    assert _per_item(rng, "w.upper()", "bool", "w", "t.split()")[1] == "bool"
    line, rtype = _per_item(rng, "w.upper()", "str", "w", "t.split()")
    assert rtype == "str" and re.fullmatch(r"'.*'\.join\(w\.upper\(\) for w in t\.split\(\)\)", line)
    assert _per_item(rng, "len(w)", "int", "w", "t") == ("sum(len(w) for w in t)", "int")
    # a list of the values, which callers took the len of, is the total of their sizes
    assert _per_item(rng, "w.split()", "list_str", "w", "t") == ("sum(len(w.split()) for w in t)", "int")


def test_word_by_word_helpers_run_and_report_their_type() -> None:
    seen = 0
    for method in ("upper", "isdigit", "count", "split", "strip"):
        entry = CATALOG.get("str", method)
        for seed in range(40):
            g = Ctx(random.Random(seed), True)
            lines, name, types, (names, rtype) = _helper(g, form_for(entry), "str", g.rng, 2)
            if " for " not in lines[-1]:
                continue
            seen += 1
            assert len(lines) == 2 and lines[-1].startswith("    return "), lines
            namespace: dict = {}
            exec(compile("\n".join(lines), "<helper>", "exec"), namespace)  # noqa: S102 - generated
            args = ["north 42 river", *(["a"] if len(types) > 1 and types[1] == "str" else [])]
            if len(args) != len(types):
                continue
            value = namespace[name](*args)
            kind = {"str": str, "bool": bool, "int": int, "list": list}[rtype]
            assert isinstance(value, kind), (lines, value)
    assert seen >= 20
