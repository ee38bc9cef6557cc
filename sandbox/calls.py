"""The call's text, checked on the host before a job is sent to a forkserver.

A job evaluates `entry_point(<args>)`, `args` being the exact source text between the
call's parentheses. Text that is not valid Python, or that closes the call and goes on
(`1), print(2`), is refused here with the SyntaxError the job would have raised, so the
job child only compiles the call (each Python object a child creates or touches costs it
copy-on-write faults).

No syntax tree is built here either: CPython 3.11 keeps the AST constructor's recursion
depth per interpreter, not per thread, and `ast.parse` in the sandbox's threads can fail
another thread's `ast.parse` or `literal_eval` with "AST constructor recursion depth
mismatch". The text is compiled (the same parser, the same SyntaxError) and, when args
hold a `)`, a scan of its brackets (skipping strings and comments) shows whether the
call's parenthesis closes before the end.
"""

from __future__ import annotations

import re

CALL_FILENAME = "<call>"
# In valid source, brackets are the bracket characters outside string literals and
# comments. A string's prefix letters need no matching; backslash-escapes (raw strings
# too, for where a literal ends) and line continuations are skipped with the string.
_LEXEMES = re.compile("|".join((
    r"'''(?:\\.|[^\\])*?'''", r'"""(?:\\.|[^\\])*?"""',  # triple-quoted strings
    r"'(?:\\.|[^\\'\n])*'", r'"(?:\\.|[^\\"\n])*"',  # single-quoted strings
    r"#[^\n]*",  # comments
    r"(?P<open>[(\[{])", r"(?P<close>[)\]}])",
)), re.DOTALL)
_TRIVIA = re.compile(r"(?:\s|#[^\n]*|\\\n)*")


def call_error(entry_point: str, args: str) -> BaseException | None:
    """None when `entry_point(<args>)` is exactly one call of `entry_point`, else the error
    that refuses it (SyntaxError; ValueError, RecursionError or MemoryError for text that
    cannot even be compiled)."""
    text = f"{entry_point}({args})"
    try:
        compile(text, CALL_FILENAME, "eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return exc
    if ")" in args and _closes_early(text):
        return SyntaxError("args must be exactly the text between the call's parentheses")
    return None


def _closes_early(text: str) -> bool:
    """Whether the call's own parenthesis (the first one) closes with more source after it
    than whitespace and comments (exact for valid source; a comment in args may also hide
    the final `)`)."""
    depth = 0
    for match in _LEXEMES.finditer(text):
        if match.lastgroup == "open":
            depth += 1
        elif match.lastgroup == "close":
            depth -= 1
            if depth == 0:
                return _TRIVIA.fullmatch(text, match.end()) is None
    return False
