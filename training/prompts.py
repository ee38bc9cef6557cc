"""Prompt templates (versioned) and the question wording.

The tags template follows the reference: line-numbered code, numbered questions, a worked
format example that is not to be answered, then `<reasoning>` and `<answer>` with one
answer per line. Answers are numbered so that each is graded on its own. The JSON variant
asks for the same answers as one JSON object. The intro, the example and the instructions
match the questions actually asked (an I->O or O->I assertion alone, or with the kinds of
step questions present), so an SFT target (`<reasoning>` then `<answer>`) answers exactly
what its prompt asks. Bump a version when its text changes: the version is stored with
every exported prompt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from training.question_record import OI, Question

TEMPLATE_VERSIONS = {"tags": "tags-v2", "json": "json-v2"}

_INTRO = (
    "You are given a Python function and an assertion about one call of it. Think about how "
    "the code executes, step by step, then {task}."
)
_OI_INTRO = (
    "You are given a Python function and an assertion with a missing input. Think about how "
    "the code executes, then find an input that makes the assertion true{rest}."
)
_EXAMPLE_ASSERTION = {
    "io": ("Complete the assertion: assert g([3]) == ????", "assert g([3]) == [3, 3]"),
    "oi": ("Complete the assertion with an input: assert g(????) == [3, 3]", "assert g([3]) == [3, 3]"),
}
_EXAMPLE_STEPS = {  # one example per step kind, in this order
    "next_line": ("Which line runs right after line 2 has executed for the 1st time? ...", "return y"),
    "variable": ("What are the value and type of `y` after line 2 has executed for the 1st time? ...", "[3, 3]; list"),
    "coverage": ("Does line 3 run for this input? ...", "no"),
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ..."""
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def numbered_code(code: str) -> str:
    lines = code.rstrip("\n").split("\n")
    width = len(str(len(lines)))
    return "\n".join(f"{i:>{width}} | {line}".rstrip() for i, line in enumerate(lines, 1))


def io_text(entry_point: str, args: str) -> str:
    return f"Complete the assertion with the function's exact output: assert {entry_point}({args}) == ????"


def oi_text(entry_point: str, result_repr: str) -> str:
    return (f"Complete the assertion with an input (literal arguments only) that produces this "
            f"output: assert {entry_point}(????) == {result_repr}")


def next_line_text(line: int, source: str, visit: int) -> str:
    return (f"Which line runs right after line {line} (`{source}`) has executed for the "
            f"{ordinal(visit)} time? Answer with that line's code, or -1 if line {line} never "
            f"runs or execution leaves the function there.")


def variable_text(line: int, source: str, visit: int, variable: str) -> str:
    return (f"What are the value and type of `{variable}` right after line {line} (`{source}`) "
            f"has executed for the {ordinal(visit)} time? Answer `value; type`, or Nil if "
            f"line {line} never runs.")


def coverage_text(line: int, source: str) -> str:
    return f"Does line {line} (`{source}`) run for this input? Answer yes or no."


def _example(ordered: Sequence[Question]) -> tuple[list[str], list[str]]:
    """A worked example with the same shape as the questions asked."""
    kind = OI if any(q.kind == OI for q in ordered) else "io"
    question, answer = _EXAMPLE_ASSERTION[kind]
    questions, answers = [f"0. {question}"], [answer]
    kinds = {q.kind for q in ordered if q.position > 0}
    for step in (k for k in _EXAMPLE_STEPS if k in kinds):
        n = len(questions)
        questions.append(f"{n}. {_EXAMPLE_STEPS[step][0]}")
        answers.append(f"{n}. {_EXAMPLE_STEPS[step][1]}")
    return questions, answers


def render_prompt(code: str, questions: Sequence[Question], style: str = "tags") -> str:
    """The user prompt for one sample: code, numbered questions, format instructions."""
    if style not in TEMPLATE_VERSIONS:
        raise ValueError(f"unknown prompt style {style!r} (expected one of {sorted(TEMPLATE_VERSIONS)})")
    ordered = sorted(questions, key=lambda q: q.position)
    steps = any(q.position > 0 for q in ordered)
    if any(q.kind == OI for q in ordered):
        intro = _OI_INTRO.format(rest=", and answer every question" if steps else "")
    else:
        intro = _INTRO.format(task="answer every question" if steps else "complete the assertion")
    listed = "\n".join(f"{q.position}. {q.text}" for q in ordered)
    parts = [intro, "", "Code:", "```python", numbered_code(code), "```", "", "Questions:", listed, ""]
    example_q, example_a = _example(ordered)
    parts += ["Format example (for a different function; do not answer it):", "\n".join(example_q),
              "<reasoning>", "...your step-by-step reasoning...", "</reasoning>"]
    if style == "tags":
        where = ("write the completed assertion (question 0) on the first line and one line per "
                 "numbered question, starting with its number (\"1. ...\")." if steps else
                 "write the completed assertion (question 0) on one line.")
        parts += ["<answer>", "\n".join(example_a), "</answer>", "",
                  f"Write your reasoning inside <reasoning></reasoning>. Then, inside <answer></answer>, {where}"]
    else:
        example = {"assertion": example_a[0], "answers": {str(i): a.split(". ", 1)[1] for i, a in enumerate(example_a[1:], 1)}}
        where = ("\"assertion\" holds the completed assertion (question 0) and \"answers\" maps each "
                 "question number (as a string) to its answer string." if steps else
                 "\"assertion\" holds the completed assertion (question 0) and \"answers\" is {}.")
        parts += ["<answer>", json.dumps(example), "</answer>", "",
                  f"Write your reasoning inside <reasoning></reasoning>. Then, inside <answer></answer>, "
                  f"write one JSON object: {where}"]
    return "\n".join(parts)


def answer_block(questions: Sequence[Question], style: str = "tags") -> str:
    """The `<answer>` block whose every line is the gold answer (the maximum reward)."""
    ordered = sorted(questions, key=lambda q: q.position)
    assertion = next((q.gold_answer for q in ordered if q.position == 0), None)
    steps = [q for q in ordered if q.position > 0]
    if style == "json":
        obj: dict = {}
        if assertion is not None:
            obj["assertion"] = assertion
        obj["answers"] = {str(q.position): q.gold_answer for q in steps}
        body = json.dumps(obj)
    elif style == "tags":
        lines = ([assertion] if assertion is not None else []) + [f"{q.position}. {q.gold_answer}" for q in steps]
        body = "\n".join(lines)
    else:
        raise ValueError(f"unknown answer style {style!r}")
    return f"<answer>\n{body}\n</answer>"
