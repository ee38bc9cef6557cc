"""Guessing policies the white-box questions must defeat (METHOD.md section 9: a
constant-answer policy must earn almost nothing).

Each policy answers every step question of a sample without reading the execution: all
`-1`, all `Nil`, the function's first line, or the value of the entry's first argument. It
is given the right assertion (the best case for a guesser: no white-box credit is paid
without it), so what it earns beyond 1.0 is white-box reward it collected by guessing.
`whitebox_share` scores a policy with the project's own reward over a batch, as a share of
the white-box reward the gold answers earn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from training.kinds import literal_args
from training.question_record import Question
from training.rewards.whitebox import score_assertion_task
from training.training_tasks import IO_WHITEBOX, Task
from training.trace.source_map import source_map_of

Policy = Callable[[Task, Question], str]


def _minus_one(task: Task, q: Question) -> str:
    return "-1"


def _nil(task: Task, q: Question) -> str:
    return "Nil"


def _first_line(task: Task, q: Question) -> str:
    smap = source_map_of(task.code)
    scope = smap.statements[q.line].scope if q.line in smap.statements else task.entry_point
    lines = smap.functions.get(scope) or smap.functions.get(task.entry_point) or []
    return smap.statements[lines[0]].source if lines else "-1"


def _first_argument(task: Task, q: Question) -> str:
    parsed = literal_args(task.args)
    if not parsed or not parsed[0]:
        return "Nil"
    value = parsed[0][0]
    return f"{value!r}; {type(value).__name__}"


POLICIES: dict[str, Policy] = {
    "all -1": _minus_one, "all Nil": _nil, "first line": _first_line, "first argument": _first_argument,
}


def _solution(task: Task, answer: Callable[[Question], str]) -> str:
    assertion = task.assertion_question
    assert assertion is not None
    lines = [assertion.gold_answer, *(f"{q.position}. {answer(q)}" for q in task.step_questions)]
    return "<answer>\n" + "\n".join(lines) + "\n</answer>"


def whitebox_share(tasks: Iterable[Task], policy: Policy) -> float:
    """White-box reward the policy earns / white-box reward of the gold answers."""
    earned = gold = 0.0
    for task in tasks:
        if task.task_type != IO_WHITEBOX or not task.step_questions:
            continue
        gold += score_assertion_task(task, task.gold_answer()).score - 1.0
        earned += score_assertion_task(task, _solution(task, lambda q: policy(task, q))).score - 1.0
    return earned / gold if gold else 0.0
