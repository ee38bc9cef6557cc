"""The completion parser on a corpus shaped like real teacher answers."""

from __future__ import annotations

import pytest

from workers.pipeline.parsing import REASONS, ParsedProgram, ParseRejection, parse_completion

GOOD_WITH_REASONING = '''<think>
The user wants split. Maybe:
```python
def draft(s):
    return s
```
That is wrong, let me redo it.
</think>
Here is the program:

```python
import math
from collections import Counter

def helper(words):
    return Counter(words).most_common(1)

def solve(text, n):
    parts = text.split(",")
    return helper(parts), math.floor(n)

print(solve("a,b,a", 2.5))
```
This prints the most common part.'''


def test_reasoning_then_last_block_after_think() -> None:
    parsed = parse_completion(GOOD_WITH_REASONING)
    assert isinstance(parsed, ParsedProgram)
    assert parsed.entry_point == "solve"
    assert parsed.args == '"a,b,a", 2.5'
    assert parsed.imports == ("import math", "from collections import Counter")
    assert "print(" not in parsed.code and parsed.code.startswith("import math\n")
    assert "def helper(words):" in parsed.code and parsed.raw == GOOD_WITH_REASONING


def test_several_blocks_take_the_last_one() -> None:
    text = ("First try:\n```python\ndef f(x):\n    return x\n\nprint(f(1))\n```\n"
            "Better:\n```py\ndef g(xs):\n    return sorted(xs)\n\nprint(g([3, 1]))\n```\n"
            "Output:\n```text\n[1, 3]\n```")
    parsed = parse_completion(text)
    assert isinstance(parsed, ParsedProgram)
    assert (parsed.entry_point, parsed.args) == ("g", "[3, 1]")


def test_multiline_arguments_and_main_guard() -> None:
    text = ('```python\ndef f(d, k):\n    return d.get(k)\n\nif __name__ == "__main__":\n'
            '    print(f({"a": 1,\n             "b": 2}, "a"))\n```')
    parsed = parse_completion(text)
    assert isinstance(parsed, ParsedProgram)
    assert parsed.args == '{"a": 1,\n             "b": 2}, "a"'
    assert parsed.code == "def f(d, k):\n    return d.get(k)\n"


def test_untagged_block_is_code() -> None:
    parsed = parse_completion("```\ndef f(s):\n    return s.upper()\nprint(f('x'))\n```")
    assert isinstance(parsed, ParsedProgram) and parsed.args == "'x'"


@pytest.mark.parametrize("text, reason", [
    ("I cannot do that.", "no_code_block"),
    ("<think>```python\ndef f(x):\n    return x\nprint(f(1))\n```</think>No code here.",
     "no_code_block"),
    ("```python\ndef f(x)\n    return x\nprint(f(1))\n```", "syntax_error"),
    ("```python\ndef f(x):\n    # double it\n    return x * 2\nprint(f(1))\n```", "has_comments"),
    ("```python\ndef f(x):\n    return x * 2  # twice\nprint(f(1))\n```", "has_comments"),
    ("```python\nprint(len('abc'))\n```", "no_function"),
    ("```python\ndef f(x):\n    return x\nf(1)\n```", "no_print_call"),
    ("```python\ndef f(x):\n    print(x)\n    return x\nprint(f(1))\n```", "several_prints"),
    ("```python\ndef f(x):\n    return x\nprint(f(1))\nprint(f(2))\n```", "several_prints"),
    ("```python\ndef f(x):\n    return x\nfor i in range(2):\n    print(f(i))\n```",
     "print_not_top_level"),
    ("```python\ndef f(x):\n    return x\nprint(f(1), end='')\n```", "bad_print_call"),
    ("```python\ndef f(x):\n    return x\nprint(len([1]))\n```", "print_not_calling_entry"),
    ("```python\ndef f(x):\n    return x\nprint(f)\n```", "print_not_calling_entry"),
    ("```python\ndef f(x, y=2):\n    return x + y\nprint(f(1))\n```", "default_args"),
    ("```python\ndef f(x, *, y=2):\n    return x + y\nprint(f(1))\n```", "default_args"),
    ("```python\ndef g():\n    return 1\ndef f(x):\n    return x + g()\nprint(f(1))\n```",
     "function_without_args"),
    ("```python\ndef f(x):\n    return x\ndata = [1, 2]\nprint(f(data))\n```",
     "module_statements"),
])
def test_rule_breaks_are_rejected_with_their_reason(text: str, reason: str) -> None:
    result = parse_completion(text)
    assert isinstance(result, ParseRejection), result
    assert result.reason == reason and reason in REASONS
    assert result.raw == text and result.detail


def test_hash_inside_a_string_is_not_a_comment() -> None:
    parsed = parse_completion("```python\ndef f(s):\n    return s.count('#')\nprint(f('a#b'))\n```")
    assert isinstance(parsed, ParsedProgram) and parsed.args == "'a#b'"
