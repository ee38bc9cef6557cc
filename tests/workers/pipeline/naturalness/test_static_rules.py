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
    ("dead_store", "def f(d):\n    return d | {'b': 5, 'b': 9}\n"),
    ("unread_parameter", "def f(words, cutoff):\n    return sorted(words)\n"),
    ("unused_definition", "import math\ndef f(xs):\n    return sorted(xs)\n"),
    ("unused_definition", "def spare(ys):\n    return sorted(ys)\ndef f(xs):\n    return xs[::-1]\n"),
    ("unused_definition", "def f(xs):\n    def twice(v):\n        return v * 2\n    return sorted(xs)\n"),
    ("empty_block", "def f(xs, k):\n    t = 0\n    for x in xs:\n        if x > k:\n            t += x\n"
                    "        else:\n            pass\n    return t\n"),
    ("single_turn_loop", "def f(xs):\n    t = 0\n    for _ in range(1):\n        t += sum(xs)\n    return t\n"),
    ("single_turn_loop", "def f(xs):\n    t = 0\n    for ys in [xs]:\n        t += len(ys)\n    return t\n"),
    ("single_turn_loop", "def f(xs):\n    t = 0\n    while xs:\n        t += xs[0]\n        break\n    return t\n"),
    ("obscured_code", "def f(xs):\n    return eval('sum(xs)')\n"),
    ("obscured_code", "def f(s):\n    return getattr(s, 'upper')()\n"),
    ("obscured_code", "def f(x):\n    return x.__add__(1)\n"),
    ("obscured_code", "def f(xs):\n    \u043a = 2\n    return [x * \u043a for x in xs]\n"),
    ("obscured_code", "def f(w):\n    return str.upper(w) + str.strip(w)[:1]\n"),
    ("obscured_code", "def f(xs):\n    list.append(xs, 4)\n    return xs\n"),
    ("identity_operation", "def f(x):\n    return -(-x) + 1\n"),
    ("identity_operation", "def f(xs, k):\n    return not not [x for x in xs if x > k]\n"),
    ("identity_operation", "def f(x, k):\n    return min(x, x) + k\n"),
    ("identity_operation", "def f(xs):\n    return sorted(xs, key=lambda v: v)[:2]\n"),
    ("idempotent_chain", "def f(n):\n    return str(str(n))[::-1]\n"),
    ("bool_arithmetic", "def f(n):\n    return 'item' + 's' * int(n != 1)\n"),
    ("duplicate_condition", "def f(xs):\n    return [x for x in xs if x > 3 and x > 2]\n"),
    ("duplicate_condition", "def f(s, k):\n    return len(s) > k or len(s) > k\n"),
    ("constant_condition", "def f(xs):\n    return [x for x in xs if x == x]\n"),
    ("identity_operation", "def f(x, y):\n    return x * (2 - 1) + 0 * y\n"),
    ("identity_operation", "def f(x):\n    return x + len('')\n"),
    ("identity_operation", "def f(x, k):\n    return (x & -1) + k\n"),
    ("identity_operation", "def f(x):\n    return x * (3 // 3) + x * 2 ** 0\n"),
    ("identity_operation", "def f(xs, x):\n    return sorted(xs + []) + [x + int()]\n"),
    ("identity_operation", "def f(x):\n    return [x][0] * 2\n"),
    ("identity_operation", "def f(x):\n    return sum([x]) * 2\n"),
    ("identity_operation", "def f(x):\n    return pow(x, 1) + 1\n"),
    ("identity_operation", "def f(s):\n    return s[0:].upper()\n"),
    ("identity_operation", "def f(xs):\n    return xs[::1][-1]\n"),
    ("identity_operation", "def f(s):\n    return s[:len(s)].upper()\n"),
    ("identity_operation", "def f(a, b):\n    return [a < b] if (a < b) == True else []\n"),
    ("identity_operation", "def same(v):\n    return v\ndef f(xs):\n    return [same(x) for x in xs]\n"),
    ("discarded_values", "def f(xs):\n    return sum(sorted(xs)) + max(xs[::-1])\n"),
    ("none_fallback", "def f(xs):\n    return [xs.sort(), xs][1]\n"),
    ("idempotent_chain", "def f(s):\n    return s.upper().lower().split()\n"),
    ("idempotent_chain", "def f(xs):\n    return sorted(list(sorted(xs)))[:3]\n"),
    ("identity_operation", "def f(xs):\n    return list(reversed(list(reversed(xs))))[:2]\n"),
    ("empty_block", "def f(xs, k):\n    t = 0\n    for x in xs:\n        if x > k:\n            pass\n"
                    "        else:\n            t += x\n    return t\n"),
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
    ("duplicate_arms",
     "def f(w):\n    n = 0\n    for c in w:\n        if c in 'ae':\n            n += ord(c)\n        elif n > 9:\n            n += ord(c)\n    return n\n"),
    ("duplicate_arms", "def f(x):\n    if x > 3:\n        return 0\n    elif x < -3:\n        return 1\n    else:\n        return 0\n"),
    ("duplicate_arms", "def f(a, b):\n    return a.issubset(b if a.issubset({0, 7}) else b)\n"),
    ("duplicate_arms", "def f(d):\n    return len((d if d.copy() == {'b': 4} else {'b': 4}).copy())\n"),
    ("constant_condition", "def f(xs):\n    return xs if 2 > 1 else []\n"),
    ("constant_condition", "def f(xs, r):\n    t = 0\n    for x in xs:\n        if x > 3:\n            t += x\n"
                           "        elif abs(r) > -1:\n            t -= 1\n    return t\n"),
    ("constant_condition", "def f(s):\n    return s if len(s) >= 0 else ''\n"),
    ("duplicate_condition", "def f(xs):\n    return [x for x in xs if x not in (4, 4)]\n"),
    ("constant_condition", "def f(s, t):\n    return (s[2:4] if s[1:4] not in s else t) not in s\n"),
    ("constant_condition", "def f(xs):\n    if xs[:2] in xs:\n        return 1\n    return 0\n"),
    ("duplicate_condition", "def f(w):\n    return 1 if w in ['a', 'e', 'a'] else 0\n"),
    ("constant_condition", "def f(r):\n    while abs(r) < 0:\n        r += 1\n    return r\n"),
    # the same comparisons as values, not tests
    ("constant_condition", "def f(code):\n    n = 0\n    for c in code:\n        n += int(code[0:1] in code)\n    return n\n"),
    ("constant_condition", "def f(xs):\n    return [x for x in xs if len(x) >= 0]\n"),
    ("constant_condition", "def f(name):\n    return int(name.startswith(name[0:3] if name.startswith(name[0:1]) else 'x'))\n"),
    ("constant_condition", "def f(s):\n    if s.endswith(s[-2:]):\n        return 1\n    return 0\n"),
    # a choice inside an arm whose test decides it
    ("contradictory_condition", "def f(xs, k):\n    if k > 5:\n        return xs if k > 3 else []\n    return xs\n"),
    ("contradictory_condition", "def f(xs):\n    if 1 not in xs:\n        return 0\n    else:\n"
                                "        return len(xs) if 1 in xs else -1\n"),
    ("discarded_values", "def f(name):\n    return '[{a}]'.format_map({'a': name, 'b': 'pixel'})\n"),
    ("discarded_values", "def f(name, n):\n    return '{a}!'.format(**{'a': name, 'n': n})\n"),
    ("idempotent_chain", "def f(a, b):\n    out = set(a)\n    out ^= b\n    out ^= b\n    return out\n"),
    ("idempotent_chain", "def f(xs, v):\n    seen = set(xs)\n    for x in xs:\n        seen.add(v)\n        seen.add(v)\n    return seen\n"),
    ("idempotent_chain", "def f(xs):\n    return list(filter(lambda v: v != 5, filter(lambda v: v != 5, xs)))\n"),
    ("identity_operation", "def f(xs):\n    return ((xs[:2] * 1))[:5] * 3\n"),
    ("identity_operation", "def f(n):\n    return 0 + n\n"),
    ("identity_operation", "def f(s):\n    return s + '' + s[0]\n"),
    ("identity_operation", "def f(xs):\n    total = 0\n    for x in xs:\n        total -= 0\n        total += x\n    return total\n"),
    ("idempotent_chain", "def f(s):\n    return s.zfill(12).zfill(5)\n"),
    ("idempotent_chain", "def f(s):\n    return s.ljust(5).ljust(5, '#')\n"),
    ("idempotent_chain", "def f(s):\n    return format(format(s, '-<5'), '^5')\n"),
    ("identity_operation", "def f(xs):\n    return (xs + [xs.pop()]).pop()\n"),
    ("identity_operation", "def f(xs, v):\n    return (xs + [v * 2]).pop(-1)\n"),
    ("repeated_update", "def f(scores):\n    scores *= 2\n    scores *= 2\n    return scores\n"),
    ("discarded_values", "def f(text):\n    return len([part.strip() for part in text.split(',')])\n"),
    ("discarded_values", "def f(xs):\n    return len([sum(xs[:j]) for j in range(1, len(xs) + 1)][:3])\n"),
    ("discarded_values", "def f(words):\n    return len({len(w): w for w in words}.keys())\n"),
    ("discarded_values", "def f(xs):\n    return len(sorted(xs)) + xs[0]\n"),
    ("discarded_values", "def f(s):\n    return len(s.upper())\n"),
    ("discarded_values", "def f(xs):\n    return len(list(map(abs, xs)))\n"),
    ("discarded_values", "def f(d):\n    return len(list({c % 4: c for c in d.values()}.values()))\n"),
    ("discarded_values", "def f(xs):\n    return sum(len((i, v, xs.count(v))) for i, v in enumerate(xs))\n"),
    ("predicate_fallback", "def f(code):\n    return (code if code.isalpha() else 'red').isalpha()\n"),
    ("predicate_fallback", "def f(p):\n    return (p if p.is_integer() else 2.5).is_integer()\n"),
    ("predicate_fallback", "def f(w):\n    return (w if w.startswith('a') else 'ant').startswith('a')\n"),
    ("predicate_fallback", "def f(v):\n    return bool(v if bool(v) else v * 10)\n"),
    ("predicate_fallback", "def f(v):\n    return bool(v if bool(v) else 2 * v)\n"),
    ("predicate_fallback", "def f(p):\n    return (p if p.is_integer() else -p).is_integer()\n"),
    # a normalizer applied again to what its own results make: the first of lowered words,
    # lowered words joined, a choice between two stripped values; swapped back; overridden
    ("idempotent_chain", "def f(ws):\n    return sorted(w.lower() for w in ws)[0].lower()\n"),
    ("idempotent_chain", "def f(t):\n    return '-'.join(p.upper() for p in t.split()).upper()\n"),
    ("idempotent_chain", "def f(ws):\n    return max([w.rstrip('s') for w in ws]).rstrip('s')\n"),
    ("idempotent_chain", "def f(a, b, c):\n    return (a.strip() if c else b.strip()).strip()\n"),
    ("idempotent_chain", "def f(t):\n    return ' '.join(p.title() for p in t.split()).title()\n"),
    ("idempotent_chain", "def f(t):\n    return '-'.join(p.swapcase() for p in t.split()).swapcase()\n"),
    ("idempotent_chain", "def f(ws):\n    return sorted(w.swapcase() for w in ws)[0].swapcase()\n"),
    ("idempotent_chain", "def f(t):\n    return '-'.join(p.capitalize() for p in t.split()).capitalize()\n"),
])
def test_each_rule_rejects_its_program_with_its_reason(reason: str, code: str) -> None:
    assert reason in static_reasons(code)
    assert static_reasons(code, skip=[reason]) == [r for r in static_reasons(code) if r != reason]


def test_a_conditional_expression_that_chooses_is_not_flagged() -> None:
    # a predicate asked again of a value it chose among the data is two tests, not one
    assert static_findings("def f(a, b):\n    return (a if a.isalpha() else b).isalpha()\n") == []
    assert static_findings("def f(a):\n    return (a if a.isalpha() else a[1:]).isalpha()\n") == []
    # a shifted number can change its truth, a scaled one only its integer-ness
    assert static_findings("def f(v):\n    return bool(v if bool(v) else v - 0.5)\n") == []
    assert static_findings("def f(p):\n    return (p if p.is_integer() else p * 10).is_integer()\n") == []
    assert static_findings("def f(a):\n    return (a if a.lower() < 'm' else 'm').lower()\n") == []  # a clamp
    assert static_findings("def f(a, b):\n    return a if a == b else sorted(b)\n") == []
    assert static_findings("def f(a, b, c):\n    return (a if b.copy() == c else c).copy()\n") == []
    # a rebuilt value is not the value: a list's set equal to a set is not the list
    assert static_findings("def f(xs, s):\n    return xs if set(xs) == s else s\n") == []


def test_counting_what_the_values_decide_is_not_discarded_values() -> None:
    # a filter keeps the items themselves, a set counts distinct mapped values, a strip
    # changes the length, and a sum reads every mapped value
    for body in ("len([x for x in xs if x > 2])", "len([(i, x) for i, x in enumerate(xs) if x > i])",
                 "len({str(x)[0] for x in xs})", "len(str(xs[0]).strip('0'))",
                 "sum(len(str(x)) for x in xs)", "len(list(filter(None, xs)))", "len(set(map(abs, xs)))",
                 "len(dict.fromkeys(xs))", "len(list(xs[0].values()))"):
        assert static_findings(f"def f(xs):\n    return {body}\n") == [], body


def test_a_pop_or_a_size_the_data_decides_is_not_flagged() -> None:
    # the front of a joined list is the data's, a starred display's size is the data's
    assert static_findings("def f(xs, v):\n    return (xs + [v]).pop(0)\n") == []
    assert static_findings("def f(xs, v):\n    return len((*xs, v))\n") == []
    # a wider pad of a padded text, or a cut before a pad, changes it
    assert static_findings("def f(s):\n    return s.ljust(8, '.').ljust(12)\n") == []
    assert static_findings("def f(s):\n    return format(format(s, '.3'), '>8')\n") == []


def test_distinct_keys_and_computed_keys_are_not_repeated_keys() -> None:
    assert static_findings("def f(d, k):\n    return d | {'b': 5, 1: 9, 'c': 2, k: 3, k: 4}\n") == []


def test_a_natural_program_has_no_finding() -> None:
    assert static_findings(NATURAL) == []
    assert static_reasons(NATURAL) == []


def test_loop_variables_read_in_the_next_turn_are_not_dead() -> None:
    code = "def f(xs):\n    prev = 0\n    out = []\n    for x in xs:\n        out.append(x - prev)\n        prev = x\n    return out\n"
    assert static_findings(code) == []


def test_findings_name_the_line_and_the_value() -> None:
    (finding,) = static_findings("def f(xs):\n    spare = len(xs)\n    return sorted(xs)\n")
    assert (finding.reason, finding.line, finding.detail) == ("dead_store", 2, "spare")


def test_an_unread_parameter_is_named_and_a_methods_self_is_not() -> None:
    code = ("def pick(words, pivot, cutoff):\n    return [w for w in words if w != pivot]\n"
            "class Box:\n    def size(self, items):\n        return len(items)\n"
            "def main(words, limit):\n    return pick(words, words[0], limit)[:Box().size(words)]\n")
    found = [(f.reason, f.line, f.detail) for f in static_findings(code)]
    assert found == [("unread_parameter", 1, "cutoff")]


def test_an_unused_definition_is_named_and_the_entry_and_what_it_reads_are_not() -> None:
    code = ("from __future__ import annotations\nimport math\nimport heapq\nLIMIT = 4\nSPARE = 5\n"
            "def floor_all(xs):\n    return [math.floor(x) for x in xs]\n"
            "def lowest(xs):\n    return heapq.nsmallest(LIMIT, xs)\n"
            "def main(xs):\n    return floor_all(xs)\n")
    found = [(f.reason, f.line, f.detail) for f in static_findings(code, "main")]
    assert found == [("unused_definition", 5, "SPARE"), ("unused_definition", 8, "lowest")]  # (heapq: lowest reads it)
    # another entry named: the function after it is the one nothing calls
    assert [f.detail for f in static_findings(code, "lowest")] == ["SPARE", "main"]
    # without the entry's name, the last function is the entry
    assert [f.detail for f in static_findings(code)] == ["SPARE", "lowest"]
    assert [f.detail for f in static_findings(code.replace("heapq.nsmallest(LIMIT, xs)", "sorted(xs)[:LIMIT]"))] \
        == ["heapq", "SPARE", "lowest"]


def test_an_ignored_error_and_a_called_inner_function_are_natural() -> None:
    code = ("def total_of(tokens):\n    def parsed(token):\n        return int(token.strip())\n"
            "    total = 0\n    for token in tokens:\n        try:\n            total += parsed(token)\n"
            "        except ValueError:\n            pass\n    return total\n")
    assert static_findings(code) == []


@pytest.mark.parametrize("code", [
    "def f(obj, name):\n    return getattr(obj, name, None)\n",
    "def f(s):\n    return '\u00e9' in s\n",
    "def f(it):\n    t = 0\n    while True:\n        v = next(it, None)\n        if v is None:\n            break\n"
    "        t += v\n    return t\n",
    "def f(x):\n    return round(round(x, 2))\n",
    "def f(xs, k):\n    return sum(1 for x in xs if x > k) + int(xs[0])\n",
    "def f(xs):\n    for i in range(2):\n        xs = xs[::-1] + xs[:1]\n    return xs\n",
    "def f(x):\n    return 0 < x and x < 10\n",
    "def f(ws):\n    return [w for w in ws if w and w[0].isupper()]\n",
    "def f(name, line):\n    return (name or 'anon') + line.partition('-')[0]\n",
    "def f(xs, k):\n    return sorted(xs)[:k] + [max(xs)]\n",
    "def f(s):\n    return s.strip().lower().title()\n",
    "def f(xs):\n    return list(reversed(sorted(xs)))\n",
    # a method named through its class as a key, a literal's method, class methods
    "def f(ws):\n    return sorted(ws, key=str.lower) + list(map(str.strip, ws))\n",
    "def f(ws, n):\n    return str.join(', ', ws) + str.format('{}', n)\n",
    "def f(ws):\n    return dict.fromkeys(ws, 0) | {k: 1 for k in ws}\n",
    # a copy by `[:]`, a slice that starts or stops elsewhere, a power or an item that does
    # work, a float made of an int, flags defined by shifts, a truth value compared by `==`
    "def f(xs, k):\n    ys = xs[:]\n    ys.sort()\n    return ys[1:] + ys[:len(ys) - 1] + ys[::2] + [pow(k, 2), [k, 1][0]]\n",
    "def f(n, total):\n    return (n + 0.0, 1.0 * total, sum([n, total]))\n",
    "def f(x):\n    flags = {'a': 1 << 0, 'b': 1 << 1}\n    return flags['a'] & x\n",
    "def f(a, b):\n    return [a == True, b < 2]\n",
    # the same normalizer again where what it applies to is not all its results: chosen by a
    # lowered key, filtered by one, joined without a separator (title), with other arguments
    "def f(ws):\n    return min(ws, key=lambda w: w.lower()).lower()\n",
    "def f(t):\n    return '-'.join(w for w in t.split() if w.lower() != w).lower()\n",
    "def f(t):\n    return ''.join(p.title() for p in t.split()).title()\n",
    "def f(ws):\n    return sorted(w.strip('.') for w in ws)[0].strip(',')\n",
    "def f(a, b, c):\n    return (a.strip() if c else b).strip()\n",
])
def test_what_the_newer_rules_must_keep_accepting(code: str) -> None:
    assert static_findings(code) == []


def test_loop_facts_count_constant_bounds_and_unused_variables() -> None:
    code = ("def f(xs):\n    t = 0\n    for _ in range(3):\n        t += 1\n    for x in xs[:3]:\n"
            "        t += x\n    c = 0\n    while c < 3:\n        c += 1\n    for x in xs:\n        t += x\n"
            "    return t + c\n")
    facts = loop_facts(code)
    assert (facts.loops, facts.constant_bounded, facts.unused_loop_vars) == (4, 3, 1)


def test_skipping_an_unknown_check_is_a_clear_error() -> None:
    with pytest.raises(UnknownCheck, match="dead_stores"):
        static_reasons(NATURAL, skip=["dead_stores"])


@pytest.mark.parametrize("reason, code", [
    # a bound implied by the bound around it: the else arm can never run
    ("contradictory_condition", "def f(w):\n    if w > 27:\n        if w > 25:\n            return 1\n        else:\n"
                                "            return 2\n    return 0\n"),
    # under w > 27, w < 20 never holds
    ("contradictory_condition", "def f(w):\n    if w > 27:\n        if w < 20:\n            return 1\n    return 0\n"),
    # an elif bound decided by the failed test before it (w <= 5 there)
    ("contradictory_condition", "def f(w):\n    if w > 5:\n        return 1\n    elif w > 9:\n        return 2\n    return 0\n"),
    # the same test again inside the else of its own chain: never true there
    ("contradictory_condition", "def f(m):\n    if m[:1] in 'aeiou':\n        return 1\n    else:\n"
                                "        if m[:1] in 'aeiou':\n            return 2\n    return 0\n"),
    # implied true with no arm after it: redundant
    ("duplicate_condition", "def f(n):\n    if n >= 10:\n        if n > 3:\n            return n\n    return 0\n"),
    ("duplicate_condition", "def f(n):\n    if 10 <= n:\n        if n != 2:\n            return n\n    return 0\n"),
])
def test_tests_decided_by_the_tests_around_them(reason: str, code: str) -> None:
    assert static_reasons(code) == [reason], static_findings(code)


@pytest.mark.parametrize("code", [
    # the value changes between the tests: nothing is decided
    "def f(w):\n    if w > 27:\n        w -= 10\n        if w > 25:\n            return 1\n        return 2\n    return 0\n",
    "def f(xs):\n    if len(xs) > 3:\n        xs.pop()\n        if len(xs) > 3:\n            return 1\n    return 0\n",
    "def f(w, k):\n    while w > 0:\n        if w > 5:\n            w -= k\n        elif w > 2:\n            w -= 1\n        else:\n"
    "            return w\n    return -1\n",
    # a function the block calls may change what the tested item holds
    "def f(p, k):\n    if p[k] == k:\n        fill(p, k)\n        if p[k] == k:\n            return 1\n    return 0\n",
    "def f(p, k):\n    if p[k] == k:\n        step()\n        if p[k] == k:\n            return 1\n    return 0\n",
    # double-checked locking: another thread may have set it meanwhile
    "def f(lock):\n    if cache is None:\n        with lock:\n            if cache is None:\n                load()\n    return cache\n",
    # a loop rebinds the name the outer test was about
    "def f(x, ys):\n    t = 0\n    if x > 5:\n        for x in ys:\n            if x > 5:\n                t += x\n    return t\n",
    # bounds that leave both arms open
    "def f(w):\n    if w > 5:\n        if w > 9:\n            return 1\n        return 2\n    elif w > 1:\n        return 3\n    return 0\n",
    "def f(a, b):\n    if a > 5:\n        if b > 5:\n            return 1\n    return 0\n",
    # a size or a magnitude against a bound its sign does not decide
    "def f(x, w):\n    if x not in (4, 8) and w in {'a', 'e'}:\n        return 1\n    return 0\n",
    "def f(s, t):\n    if s[1:4] in t or s[1] in s[2:]:\n        return 1\n    return 0\n",
    "def f(s, t):\n    return [w for w in t if s[:2] in w and len(w) > 0]\n",
    "def f(s, t):\n    return s.startswith(s[1:3]) or t.endswith(s[-2:]) or s.endswith(s[:2])\n",
    "def f(xs, k):\n    if k > 5:\n        k = len(xs)\n        return xs if k > 3 else []\n    return [x if x > 3 else 0 for x in xs]\n",
    "def f(name, w):\n    return '{a:>{w}}|{c[0]}.{c.real}'.format_map({'a': name, 'w': w, 'c': name})\n",
    "def f(r, s):\n    if abs(r) > 0:\n        return 1\n    if len(s) > 1 or abs(r) <= 0:\n        return 2\n    return 0\n",
])
def test_tests_the_tests_around_them_leave_open_are_not_findings(code: str) -> None:
    assert static_findings(code) == []


def test_bounds_on_the_same_named_value_are_compared() -> None:
    from workers.pipeline.naturalness.static import decided

    assert decided("x < limit", [("x > limit", True)]) is False
    assert decided("x >= limit", [("x > limit", True)]) is True
    assert decided("limit < x", [("x > limit", True)]) is True  # turned round
    assert decided("x > 3", [("x > limit", True)]) is None
    assert decided("x == limit", [("x > limit", False), ("x < limit", False)]) is True
    assert decided("x % 2 == 0", [("x > limit", True)]) is None


def test_arms_that_differ_in_one_value_are_not_duplicates() -> None:
    code = "def f(x):\n    if x > 3:\n        return x + 1\n    elif x < -3:\n        return x - 1\n    return 0\n"
    assert static_findings(code) == []


def test_operations_that_change_their_operand_are_not_identities() -> None:
    """`// 1` floors a float and `/ 1` makes an int a float; 1 - x, x * 2, s + 'a' and
    x + True are not the identity either; filters with two predicates are two tests."""
    for code in ("def f(x):\n    return x // 1 + x / 1\n", "def f(x):\n    return 1 - x\n",
                 "def f(x, s):\n    return (x * 2, s + 'a', 2 ** x)\n",
                 "def f(xs):\n    return list(filter(lambda v: v != 5, filter(lambda v: v != 6, xs)))\n",
                 "def f(x, k):\n    x *= k\n    x *= k\n    return x\n"):
        assert static_findings(code) == [], code


def test_a_change_written_twice_that_adds_up_is_not_a_repeated_effect() -> None:
    """`total += x` twice counts x twice, and a function of the program's own called twice
    may do anything: neither is flagged."""
    assert static_findings("def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n        total += x\n"
                           "    return total\n") == []
    assert static_findings("def add(xs):\n    xs.append(1)\ndef f(xs):\n    add(xs)\n    add(xs)\n    return xs\n") == []


def test_a_teachers_program_is_judged_against_the_entry_its_print_calls() -> None:
    """The generate stage names the entry (the function the completion's print calls): a
    helper nothing calls is found, and the same helper called by the entry passes."""
    from workers.pipeline.constraints import LEVELS
    from workers.pipeline.lifecycle import ProgramStatus
    from workers.pipeline.records import Completion, Constraint
    from workers.pipeline.stages.generate import judge_completion

    tidy = ("def tidy(text, old):\n    parts = []\n    for word in text.split():\n"
            "        parts.append(word.replace(old, '').replace('-', ' '))\n    return ' '.join(parts)\n\n")
    cell = Constraint("str", "replace", "C3", LEVELS["C3"])

    def verdict(code: str):
        return judge_completion(cell, Completion("k", (f"```python\n{code}\n```",), "m", "ok"), "relabel")

    unused = verdict(tidy + "def shout(text):\n    return text.upper()\n\nprint(tidy('a-b cab', 'b'))")
    assert (unused.reason, unused.detail) == ("unnatural_unused_definition", "unused_definition")
    # the entry written first, its helper after it (not the last-function convention)
    used = verdict("def shout(text, old):\n    return tidy(text, old).upper()\n\n" + tidy + "print(shout('a-b cab', 'b'))")
    assert (used.status, used.reason, used.entry_point) == (ProgramStatus.KEPT, None, "shout")
