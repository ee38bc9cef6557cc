"""The call's text, checked on the host before a job is sent to a forkserver.

A job evaluates `entry_point(<args>)`, `args` being the exact source text between the
call's parentheses. Text that closes the call and goes on (`1), print(2`) is refused here
with a SyntaxError, so that the job child only compiles the call: building a syntax tree
there cost a fifth of an untraced job (each Python object a child creates or touches costs
it copy-on-write faults). Text that is not valid Python fails that compile in the child,
with the parser's own SyntaxError (and any warnings in the job's stderr), as before.

No syntax tree is built on the host either: CPython 3.11 keeps the AST constructor's
recursion depth per interpreter, not per thread, and `ast.parse` in the sandbox's threads
can fail another thread's `ast.parse` or `literal_eval` with "AST constructor recursion
depth mismatch". A scan of the brackets (skipping strings and comments) shows whether the
call's parenthesis closes before the end; only then is the text compiled here, to tell a
breakout from text that is not valid at all.
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
    """A SyntaxError when `entry_point(<args>)` is valid Python but not exactly one call of
    `entry_point`; the error compiling it raises when it is not valid and looks like such a
    breakout; None otherwise (the child compiles it and reports any error itself)."""
    text = f"{entry_point}({args})"
    if ")" not in args or not _closes_early(text):  # no `)`: nothing can close the call early
        return None
    try:
        compile(text, CALL_FILENAME, "eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return exc
    return SyntaxError("args must be exactly the text between the call's parentheses")


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
