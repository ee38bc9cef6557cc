"""The call's text, checked on the host before a job is sent to a forkserver.

A job evaluates `entry_point(<args>)`, `args` being the exact source text between the
call's parentheses. Text that is not valid Python, or that closes the call and goes on
(`1), print(2`), is refused here with the SyntaxError the job would have raised, so the
job child only compiles the call and never builds a syntax tree (each Python object it
creates or touches costs it copy-on-write faults; on the host the check costs ~10 µs).
"""

from __future__ import annotations

import ast

CALL_FILENAME = "<call>"


def call_error(entry_point: str, args: str) -> BaseException | None:
    """None when `entry_point(<args>)` is exactly one call of `entry_point`, else the error
    that refuses it (SyntaxError; ValueError, RecursionError or MemoryError for text that
    cannot even be parsed)."""
    try:
        tree = ast.parse(f"{entry_point}({args})", filename=CALL_FILENAME, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return exc
    body = tree.body
    if not (isinstance(body, ast.Call) and isinstance(body.func, ast.Name)
            and body.func.id == entry_point):
        return SyntaxError("args must be exactly the text between the call's parentheses")
    return None
