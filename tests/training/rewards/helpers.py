"""A hand-checked white-box task shared by the training tests."""

from __future__ import annotations

from training import make
from training.training_tasks import Task

CODE = """def f(xs, n):
    total = 0
    for x in xs:
        total += x
    if total > n:
        return xs + [n]
    return [total]
"""
ARGS = "[1, 2], 3"
RESULT = {"type": "list", "repr": "[3]"}


def whitebox_task(style: str = "tags") -> Task:
    questions = (
        make.io_question("f", ARGS, RESULT),
        make.next_line_question(1, 3, "for x in xs:", 3, 5, "if total > n:"),
        make.variable_question(2, 4, "total += x", 2, "total", {"type": "int", "repr": "3"}),
        make.variable_question(3, 6, "return xs + [n]", 1, "xs", None),
        make.next_line_question(4, 6, "return xs + [n]", 1, -1, None),
        make.next_line_question(5, 5, "if total > n:", 1, 7, "return [total]"),
    )
    return Task("io_whitebox", CODE, "f", ARGS, RESULT, questions, style=style)
