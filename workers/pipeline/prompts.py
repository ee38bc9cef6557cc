"""Constraint -> chat messages for a teacher that writes a program.

The fields and hard rules follow the reference prompt (METHOD.md section 1). The template is
versioned: TEMPLATE_VERSION is stored with every program, and changing any wording below
means bumping it, so programs stay attributable to the exact text their teacher saw.
"""

from __future__ import annotations

import random

from workers.pipeline.constraints.levels import with_blueprint
from workers.pipeline.records import Constraint, Knobs

TEMPLATE_VERSION = "generate-v1"
SYSTEM_PROMPT = "You are a code generator."

HARD_RULES = (
    "Do not include any comments.",
    "Use exactly one print(...) statement to display the result.",
    "Place that print(...) statement outside the function.",
    "Call the entry function exactly once, inside that single print(...) call.",
    "Do not use default parameter values in any function definition.",
    "Each function must take at least one argument.",
)
_LABELS = {"if": "if statement", "for": "for statement", "while": "while statement",
           "if-elif": "if-elif chain"}


def _article(phrase: str) -> str:
    return "an" if phrase[0] in "aeiou" else "a"


def control_flow_guideline(blueprint: tuple[str, ...]) -> str:
    if not blueprint:
        return "Do not include any control structures (if, for, while, elif)."
    labels = [_LABELS[k] for k in blueprint]
    parts = [f"Include {_article(labels[0])} {labels[0]}"]
    for i in range(1, len(labels)):
        where = "inside it" if i == 1 else f"inside the {labels[i - 1]}"
        parts.append(f"{'then ' if i > 1 else ''}nest {_article(labels[i])} {labels[i]} {where}")
    return ", ".join(parts) + "."


def guidelines(knobs: Knobs) -> list[str]:
    return [
        "Use nested calls to the method under test with at least two levels of depth and "
        "invoke it several times." if knobs.nested_calls else "Avoid nested calls.",
        "Use at least one additional built-in method (preferably of str, list, set or tuple) "
        "besides the method under test." if knobs.other_methods
        else "Do not call any method or function other than the method under test.",
        "Define exactly two functions: a helper A and an entry function B; B must call A at "
        "least once." if knobs.call_chain
        else "Define exactly one function; do not create helper functions.",
        control_flow_guideline(knobs.blueprint),
    ]


def _subject(constraint: Constraint) -> str:
    if constraint.method == constraint.type:
        return f"the built-in `{constraint.method}`"
    return f"`{constraint.method}` of the `{constraint.type}` type"


def render_generation_prompt(constraint: Constraint, seed: int = 0) -> str:
    knobs = with_blueprint(constraint.knobs, random.Random(f"prompt:{seed}"))
    rules = "\n".join(f"{i}) {r}" for i, r in enumerate(HARD_RULES, 1))
    guides = "\n".join(f"- {g}" for g in guidelines(knobs))
    return (
        f"Task\n----\nWrite Python code that tests {_subject(constraint)}.\n\n"
        f"Hard Requirements\n-----------------\n{rules}\n\n"
        f"Guidelines\n----------\n{guides}\n\n"
        "Output Format\n-------------\nReturn only a single Markdown code block:\n"
        "```python\n# complete code snippet\n```"
    )


def build_generation_messages(constraint: Constraint, seed: int = 0) -> tuple[dict[str, str], ...]:
    """System + user messages. `seed` only matters when the constraint's knobs ask for a
    control-flow depth without a blueprint: then it draws one, reproducibly."""
    return (
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": render_generation_prompt(constraint, seed)},
    )
