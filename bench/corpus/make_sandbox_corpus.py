"""Writes sandbox_programs.jsonl: 208 small ExecVerify-style programs with their calls.

26 program templates (str/list/dict/set/tuple methods, loops, branches, helpers, recursion)
x 8 argument sets each. Deterministic: rerunning rewrites the same file.
"""

from __future__ import annotations

import json
from pathlib import Path

TEMPLATES = {
    "str_methods": ("def f(s):\n    parts = s.split('a')\n    return '-'.join(p.upper() for p in parts if p)\n",
                    ["'banana'", "'abracadabra'", "'xyz'", "'aaa'", "'papaya'", "'alpha beta'", "''", "'cabbage'"]),
    "count_vowels": ("def f(s):\n    n = 0\n    for ch in s:\n        if ch in 'aeiou':\n            n += 1\n    return n\n",
                     ["'hello'", "'queueing'", "'rhythm'", "'aeiou'", "'programming'", "'xyz'", "'a' * 20", "'Ouija'"]),
    "list_ops": ("def f(xs):\n    ys = sorted(xs)\n    ys.reverse()\n    ys.append(len(xs))\n    return ys[:3]\n",
                 ["[3, 1, 2]", "[5]", "[]", "[9, 8, 7, 6]", "[1, 1, 1]", "[-1, 0, 1]", "list(range(10))", "[4, 2]"]),
    "dict_count": ("def f(words):\n    d = {}\n    for w in words:\n        d[w] = d.get(w, 0) + 1\n    return d\n",
                   ["['a', 'b', 'a']", "[]", "['x']", "['p', 'q', 'p', 'q']", "list('mississippi')", "['k'] * 5", "['a', 'b']", "list('abcabc')"]),
    "set_ops": ("def f(a, b):\n    s = set(a) | set(b)\n    s -= set(a) & set(b)\n    return sorted(s)\n",
                ["[1, 2], [2, 3]", "[], []", "[1], [1]", "'abc', 'bcd'", "range(5), range(3, 8)", "[0], [1]", "'aa', 'b'", "[1, 2, 3], []"]),
    "tuple_zip": ("def f(a, b):\n    return tuple(x * y for x, y in zip(a, b))\n",
                  ["(1, 2), (3, 4)", "(), ()", "(5,), (6,)", "(1, 2, 3), (1, 1)", "(0, 1), (9, 9)", "(2, 2), (2, 2)", "(-1,), (4,)", "(7, 8, 9), (1, 2, 3)"]),
    "fizz": ("def f(n):\n    out = []\n    for i in range(1, n + 1):\n        if i % 15 == 0:\n            out.append('FB')\n        elif i % 3 == 0:\n            out.append('F')\n        elif i % 5 == 0:\n            out.append('B')\n        else:\n            out.append(str(i))\n    return ','.join(out)\n",
             ["1", "3", "5", "15", "16", "0", "7", "10"]),
    "helper_chain": ("def norm(s):\n    return s.strip().lower()\n\ndef f(items):\n    return [norm(x) for x in items if norm(x)]\n",
                     ["[' A ', 'b']", "[]", "['  ']", "['X', ' y ', 'Z']", "['Hello ', ' World']", "['a']", "[' Q', 'q ']", "['MiXeD']"]),
    "recursion_sum": ("def f(xs):\n    if not xs:\n        return 0\n    return xs[0] + f(xs[1:])\n",
                      ["[1, 2, 3]", "[]", "[10]", "list(range(20))", "[-1, -2]", "[5, 5, 5, 5]", "[0]", "[100, 200]"]),
    "while_collatz": ("def f(n):\n    steps = 0\n    while n != 1:\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n        steps += 1\n    return steps\n",
                      ["1", "2", "3", "6", "7", "27", "97", "12"]),
    "float_stats": ("def f(xs):\n    mean = sum(xs) / len(xs)\n    return round(max(xs) - mean, 3)\n",
                    ["[1.0, 2.0]", "[3.5]", "[0.1, 0.2, 0.3]", "[1, 2, 3, 4]", "[-1.5, 1.5]", "[2.25, 2.75]", "[10.0, 0.0]", "[1e3, 1e-3]"]),
    "enumerate_filter": ("def f(xs):\n    return [i for i, x in enumerate(xs) if x % 2 == 0]\n",
                         ["[1, 2, 3, 4]", "[]", "[2]", "[1, 3]", "list(range(10))", "[0, 0]", "[5, 6, 7]", "[8, 1, 8]"]),
    "reversed_words": ("def f(s):\n    return ' '.join(reversed(s.split()))\n",
                       ["'a b c'", "''", "'one'", "'hello world'", "' x  y '", "'1 2 3 4'", "'the end'", "'q'"]),
    "dict_invert": ("def f(d):\n    out = {}\n    for k, v in d.items():\n        out.setdefault(v, []).append(k)\n    return out\n",
                    ["{'a': 1, 'b': 1}", "{}", "{'x': 2}", "{1: 'p', 2: 'q', 3: 'p'}", "{'k': None}", "dict(a=1, b=2)", "{0: 0}", "{'m': 'n', 'o': 'n'}"]),
    "str_replace_chain": ("def f(s):\n    return s.replace('a', 'b').replace('b', 'c').title()\n",
                          ["'abc'", "'banana'", "''", "'aaa bbb'", "'xyz'", "'a b a'", "'cab'", "'bob'"]),
    "nested_if_loop": ("def f(grid):\n    total = 0\n    for row in grid:\n        for v in row:\n            if v > 0:\n                if v % 2:\n                    total += v\n                else:\n                    total -= v\n    return total\n",
                       ["[[1, 2], [3]]", "[]", "[[0]]", "[[-1, 5]]", "[[2, 2], [2]]", "[[9], [8], [7]]", "[[1] * 5]", "[[4, 5, 6]]"]),
    "set_comprehension": ("def f(s):\n    return len({c.lower() for c in s if c.isalpha()})\n",
                          ["'Hello'", "''", "'AaBb'", "'123'", "'Mississippi'", "'xyzXYZ'", "'a1b2'", "'The Quick'"]),
    "list_slices": ("def f(xs, k):\n    return xs[k:] + xs[:k]\n",
                    ["[1, 2, 3], 1", "[], 0", "[5], 3", "list('abcd'), 2", "[1, 2], -1", "[0] * 3, 1", "[9, 8, 7], 0", "(1, 2, 3)[:2] + (4,), 1"]),
    "str_format": ("def f(name, n):\n    return '{}:{:03d}'.format(name.upper(), n)\n",
                   ["'a', 1", "'bob', 42", "'', 0", "'x', 999", "'k', 7", "'longer', 12", "'q', 100", "'zz', 5"]),
    "gcd_loop": ("def f(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n",
                 ["12, 8", "7, 3", "100, 75", "0, 5", "17, 17", "81, 27", "1, 1", "270, 192"]),
    "palindrome": ("def clean(s):\n    return ''.join(c for c in s.lower() if c.isalnum())\n\ndef f(s):\n    t = clean(s)\n    return t == t[::-1]\n",
                   ["'Racecar'", "'hello'", "''", "'A man, a plan'", "'Was it a car'", "'noon'", "'xyzyx'", "'ab'"]),
    "dict_merge": ("def f(a, b):\n    out = dict(a)\n    for k, v in b.items():\n        out[k] = out.get(k, 0) + v\n    return out\n",
                   ["{'a': 1}, {'a': 2}", "{}, {}", "{'x': 1}, {'y': 1}", "{1: 1}, {1: -1}", "{'p': 0}, {'p': 0, 'q': 3}", "dict(a=1), dict(b=2)", "{'k': 5}, {}", "{}, {'z': 9}"]),
    "frozenset_ops": ("def f(a, b):\n    fa, fb = frozenset(a), frozenset(b)\n    return (fa <= fb, len(fa ^ fb))\n",
                      ["[1], [1, 2]", "[], []", "'ab', 'a'", "[3, 4], [4, 3]", "range(3), range(5)", "[0], [1]", "'xyz', 'zyx'", "[1, 2, 3], [2]"]),
    "filter_map": ("def f(xs):\n    return list(map(lambda v: v * v, filter(lambda v: v > 1, xs)))\n",
                   ["[1, 2, 3]", "[]", "[0, 1]", "[5]", "[-3, 3]", "list(range(6))", "[2, 2]", "[10, 1, 10]"]),
    "fib_memo": ("def f(n):\n    memo = {0: 0, 1: 1}\n    for i in range(2, n + 1):\n        memo[i] = memo[i - 1] + memo[i - 2]\n    return memo[n]\n",
                 ["0", "1", "2", "10", "20", "30", "5", "50"]),
    "raises_sometimes": ("def f(xs, i):\n    try:\n        return xs[i] * 2\n    except IndexError:\n        return None\n",
                         ["[1, 2], 0", "[1, 2], 5", "[], 0", "'ab', 1", "[3], -1", "[0, 0, 0], 2", "(4, 5), 1", "[7], 1"]),
}


def main() -> None:
    out = Path(__file__).with_name("sandbox_programs.jsonl")
    with out.open("w") as handle:
        for name, (code, arg_sets) in TEMPLATES.items():
            for index, args in enumerate(arg_sets):
                handle.write(json.dumps({"id": f"{name}-{index}", "code": code,
                                         "entry_point": "f", "args": args}) + "\n")
    print(f"wrote {out} ({len(TEMPLATES) * 8} programs)")


if __name__ == "__main__":
    main()
