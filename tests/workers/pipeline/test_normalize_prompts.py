"""Dedup hash and the versioned generation prompt."""

from __future__ import annotations

import pytest

from workers.pipeline.constraints import load_catalog, select
from training.normalize import NormalizeError, normalized_dump, normalized_hash
from workers.pipeline.prompts import HARD_RULES, TEMPLATE_VERSION, build_generation_messages
from workers.pipeline.records import Constraint, Knobs


def test_renaming_comments_docstrings_and_layout_do_not_change_the_hash() -> None:
    a = "import math\ndef f(s, n):\n    '''doc'''\n    t = s.upper()  # shout\n    return math.floor(n), t\n"
    b = "import math\n\ndef solve(word, k):\n    out = word.upper()\n\n    return (math.floor(k), out)\n"
    assert normalized_hash(a) == normalized_hash(b)
    assert len(normalized_hash(a)) == 64


@pytest.mark.parametrize("other", [
    "import math\ndef f(s, n):\n    t = s.lower()\n    return math.floor(n), t\n",
    "import math\ndef f(s, n):\n    t = s.upper()\n    return math.ceil(n), t\n",
    "import math\ndef f(s, n):\n    t = s.upper()\n    return math.floor(n + 1), t\n",
    "import math\ndef f(s, n):\n    t = s.upper()\n    return t, math.floor(n)\n",
])
def test_methods_literals_and_structure_change_the_hash(other: str) -> None:
    base = "import math\ndef f(s, n):\n    t = s.upper()\n    return math.floor(n), t\n"
    assert normalized_hash(base) != normalized_hash(other)


def test_builtins_keep_their_names() -> None:
    assert "'len'" in normalized_dump("def f(x):\n    return len(x)\n")
    with pytest.raises(NormalizeError):
        normalized_hash("def f(:")


def test_prompt_has_the_reference_fields_and_rules() -> None:
    cell = Constraint("str", "split", "C6", Knobs(True, True, True, 3, ("for", "if-elif", "while")))
    system, user = build_generation_messages(cell, seed=1)
    assert system == {"role": "system", "content": "You are a code generator."}
    text = user["content"]
    assert user["role"] == "user" and "tests `split` of the `str` type" in text
    assert all(rule in text for rule in HARD_RULES)
    assert "helper A and an entry function B" in text
    assert ("Include a for statement, nest an if-elif chain inside it, then nest a while "
            "statement inside the if-elif chain.") in text
    assert text.endswith("```python\n# complete code snippet\n```")
    assert TEMPLATE_VERSION == "generate-v1"


def test_prompt_guidelines_follow_the_knobs() -> None:
    c1 = select(load_catalog(), types=["zip"], levels=["C1"], count=1)[0]
    text = build_generation_messages(c1, 0)[1]["content"]
    assert "the built-in `zip`" in text
    assert "Do not call any method or function other than the method under test." in text
    assert "Define exactly one function" in text
    assert "Do not include any control structures" in text
    flat = Constraint("str", "upper", "custom", Knobs(False, False, False, 2))
    drawn = build_generation_messages(flat, 7)[1]["content"]
    assert "Avoid nested calls." in drawn and "nest a" in drawn
    assert drawn == build_generation_messages(flat, 7)[1]["content"]
