"""Constructors for each question kind: wording, gold answer and grading payload together,
so the pipeline, tests and exports cannot disagree on what a question's answer is."""

from __future__ import annotations

from typing import Any

from training.kinds import coverage_gold, next_line_gold, variable_gold
from training.prompts import coverage_text, io_text, next_line_text, oi_text, variable_text
from training.question_record import COVERAGE, IO, NEXT_LINE, OI, VARIABLE, Question


def _typed(result: dict[str, Any]) -> dict[str, Any]:
    return {"type": result["type"], "repr": result["repr"]}


def io_question(entry_point: str, args: str, result: dict[str, Any]) -> Question:
    return Question(IO, 0, None, None, None, io_text(entry_point, args),
                    f"assert {entry_point}({args}) == {result['repr']}",
                    {"args": args, "result": _typed(result)})


def oi_question(entry_point: str, args: str, result: dict[str, Any]) -> Question:
    """`args` is one known answer (the gold one); any other input giving `result` also counts."""
    return Question(OI, 0, None, None, None, oi_text(entry_point, result["repr"]),
                    f"assert {entry_point}({args}) == {result['repr']}",
                    {"args": args, "result": _typed(result)})


def next_line_question(position: int, line: int, source: str, visit: int,
                       next_line: int, next_source: str | None) -> Question:
    return Question(NEXT_LINE, position, line, visit, None, next_line_text(line, source, visit),
                    next_line_gold(next_line, next_source),
                    {"next_line": next_line, "source": next_source})


def variable_question(position: int, line: int, source: str, visit: int, variable: str,
                      typed: dict[str, Any] | None) -> Question:
    """`typed` is the variable's value after the line ({"type", "repr"}), None if the line
    never runs."""
    executed = typed is not None
    payload = {"executed": executed, "repr": typed["repr"] if typed else None,
               "type": typed["type"] if typed else None}
    return Question(VARIABLE, position, line, visit, variable,
                    variable_text(line, source, visit, variable),
                    variable_gold(executed, payload["repr"], payload["type"]), payload)


def coverage_question(position: int, line: int, source: str, executed: bool) -> Question:
    return Question(COVERAGE, position, line, None, None, coverage_text(line, source),
                    coverage_gold(executed), {"executed": executed})
