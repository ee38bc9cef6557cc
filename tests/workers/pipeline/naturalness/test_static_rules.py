"""Each static rule of the naturalness gate on a program that breaks it, and a natural
program that breaks none."""

from __future__ import annotations

import pytest

from workers.pipeline.naturalness.gate import UnknownCheck, static_reasons
from workers.pipeline.naturalness.static import loop_facts, static_findings

NATURAL = '''def count_long_words(text, limit):
    total = 0
    for word in text.split():
        if len(word) > limit:
            total += 1
        else:
            total -= 1
    return total
'''


@pytest.mark.parametrize("reason, code", [
    ("dead_store", "def f(xs):\n    spare = len(xs)\n    return sorted(xs)\n"),
    ("dead_store", "def f(xs):\n    total = 0\n    total = sum(xs)\n    return total\n"),
    ("dead_store", "def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n        last = x\n    return out\n"),
    ("self_application", "def f(a):\n    a.update(a)\n    return a\n"),
    ("self_application", "def f(a, b):\n    return (a - a) | b\n"),
    ("idempotent_chain", "def f(s):\n    return s.lower().lower()\n"),
    ("idempotent_chain", "def f(xs):\n    return sorted(sorted(xs))\n"),
    ("none_fallback", "def f(xs):\n    return (xs.append(1) or xs).count(1)\n"),
    ("bool_arithmetic", "def f(s, n):\n    return 'ab' * (n > 2) + s\n"),
    ("bool_arithmetic", "def f(a, b):\n    return (a < b) + 3\n"),
    ("constant_condition", "def f(x):\n    if 3 > 2:\n        return x\n    return -x\n"),
    ("duplicate_condition", "def f(x):\n    if x > 1:\n        if x > 1:\n            return x\n    return 0\n"),
    ("contradictory_condition",
     "def f(part):\n    if part == '':\n        return 1\n    elif part != '':\n        return 2\n    else:\n        return 3\n"),
])
def test_each_rule_rejects_its_program_with_its_reason(reason: str, code: str) -> None:
    assert reason in static_reasons(code)
    assert static_reasons(code, skip=[reason]) == [r for r in static_reasons(code) if r != reason]


def test_a_natural_program_has_no_finding() -> None:
    assert static_findings(NATURAL) == []
    assert static_reasons(NATURAL) == []


def test_loop_variables_read_in_the_next_turn_are_not_dead() -> None:
    code = "def f(xs):\n    prev = 0\n    out = []\n    for x in xs:\n        out.append(x - prev)\n        prev = x\n    return out\n"
    assert static_findings(code) == []


def test_findings_name_the_line_and_the_value() -> None:
    (finding,) = static_findings("def f(xs):\n    spare = len(xs)\n    return sorted(xs)\n")
    assert (finding.reason, finding.line, finding.detail) == ("dead_store", 2, "spare")


def test_loop_facts_count_constant_bounds_and_unused_variables() -> None:
    code = ("def f(xs):\n    t = 0\n    for _ in range(3):\n        t += 1\n    for x in xs[:3]:\n"
            "        t += x\n    c = 0\n    while c < 3:\n        c += 1\n    for x in xs:\n        t += x\n"
            "    return t + c\n")
    facts = loop_facts(code)
    assert (facts.loops, facts.constant_bounded, facts.unused_loop_vars) == (4, 3, 1)


def test_skipping_an_unknown_check_is_a_clear_error() -> None:
    with pytest.raises(UnknownCheck, match="dead_stores"):
        static_reasons(NATURAL, skip=["dead_stores"])
