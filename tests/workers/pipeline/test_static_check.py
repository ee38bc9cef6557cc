"""Static constraint check: measured structure decided from the AST."""

from __future__ import annotations

import pytest

from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import StaticCheckError, measure_structure

C6 = Knobs(True, True, True, 3, ("for", "if-elif", "while"))


def cell(t: str, m: str, knobs: Knobs = Knobs()) -> Constraint:
    return Constraint(t, m, "custom", knobs)


def test_a_c6_program_measures_as_requested() -> None:
    code = ("def helper(s):\n    return s.split(',')[0].split(';')\n"
            "def solve(s):\n    out = []\n    for c in s:\n        if c == 'a':\n"
            "            out += [c]\n        elif c:\n            i = 0\n"
            "            while i < 2:\n                out += [helper(s)]\n                i += 1\n"
            "    return len(out)\n")
    m = measure_structure(code, "solve", cell("str", "split", C6))
    assert m.matches, m.mismatches
    assert (m.target_uses, m.nested_depth, m.helpers, m.other_calls) == (2, 2, ("helper",), ("len",))
    assert (m.control_flow_depth, m.blueprint) == (3, ("for", "if-elif", "while"))
    assert m.to_dict()["matches"] is True and m.to_dict()["blueprint"] == ["for", "if-elif", "while"]


def test_keywords_inside_names_and_strings_are_not_control_flow() -> None:
    code = ("def f(format_for, s):\n    text = 'for while if'.format()\n"
            "    return s.rfind(format_for) + len(text)\n")
    m = measure_structure(code, "f", cell("str", "find"))
    assert (m.control_flow_depth, m.target_uses) == (0, 0)  # rfind is not find
    assert m.mismatches == ("target_missing", "nested_calls", "other_methods")


def test_elif_is_the_same_level_and_else_if_nests() -> None:
    chain = "def f(x):\n    if x:\n        y = 1\n    elif x > 1:\n        y = 2\n    return x\n"
    nested = ("def f(x):\n    if x:\n        y = 1\n    else:\n        y = 0\n"
              "        if x > 1:\n            y = 2\n    return x\n")
    assert measure_structure(chain, "f", cell("int", "+")).blueprints == (("if-elif",),)
    assert measure_structure(nested, "f", cell("int", "+")).blueprints == (("if", "if"),)


@pytest.mark.parametrize("t, method, code, uses, nested", [
    ("str", "+", "def f(s):\n    return (s + 'a') + s\n", 2, True),
    ("str", "+", "def f(s):\n    a = s + 'a'\n    return a + s\n", 2, False),
    ("set", "not in", "def f(s):\n    return (1 not in s) not in {True}\n", 2, True),
    ("list", "[i:j]", "def f(x):\n    return x[1:3][0:1] + x[1:] + x[::2]\n", 2, True),
    ("list", "[:]", "def f(x):\n    return x[:] + x[::-1]\n", 1, False),
    ("tuple", "[i]", "def f(t):\n    return t[t[0]]\n", 2, True),
    ("set", "|=", "def f(s):\n    s |= {1}\n    s |= {2}\n    return s\n", 2, True),
    ("dict", "d[k] = v", "def f(d):\n    d['a'] = d['b'] = 1\n    return d\n", 2, True),
    ("float", "math.ceil()", "import math\ndef f(x):\n    return math.ceil(math.ceil(x) / 2)\n", 2, True),
    ("str", "str.format", "def f(s):\n    return str.format('{}', s) + '{}'.format(s)\n", 1, False),
    ("str", "len()", "def f(s):\n    return len('a' * len(s))\n", 2, True),
    ("list", "append", "def f(x):\n    (x.append(1) or x).append(2)\n    return x\n", 2, True),
])
def test_target_forms(t: str, method: str, code: str, uses: int, nested: bool) -> None:
    m = measure_structure(code, "f", cell(t, method))
    assert (m.target_uses, m.nested_calls) == (uses, nested)


def test_other_methods_exclude_target_print_and_own_functions() -> None:
    code = ("import math\ndef g(x):\n    return x\n"
            "def f(s):\n    return g(s.upper().upper()), math.sqrt(4), sorted(s), str.lower(s)\n")
    m = measure_structure(code, "f", cell("str", "upper"))
    assert m.other_calls == ("math.sqrt", "sorted", "str.lower")
    assert m.helpers == ("g",) and m.call_chain


def test_bad_code_or_entry_raises() -> None:
    with pytest.raises(StaticCheckError, match="does not parse"):
        measure_structure("def f(:\n", "f", cell("str", "upper"))
    with pytest.raises(StaticCheckError, match="not defined"):
        measure_structure("def f(s):\n    return s\n", "g", cell("str", "upper"))
