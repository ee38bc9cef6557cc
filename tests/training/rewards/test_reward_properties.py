"""Property tests over generated white-box samples: the gold answer scores the maximum,
each wrong answer costs exactly its share, and whitespace changes nothing."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from training import make
from training.rewards import compute_score, score
from training.training_tasks import Task

IDENT = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: s not in {"if", "in", "is", "or", "as", "for", "def", "and", "not", "del"})
SCALARS = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(),
                    st.floats(allow_nan=False, allow_infinity=False, width=32),
                    st.text(alphabet="ab;c \n'\"\\", max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.text(alphabet="xyz;", max_size=3), inner, max_size=3),
    st.frozensets(st.integers(-50, 50), max_size=5).map(set)), max_leaves=8)
SOURCES = st.sampled_from(["total += x", "for x in xs:", "if a > b:", "return [total]",
                           "s = 'a  ;  b'", "out.append(k)", "while i < n:"])


@st.composite
def samples(draw):
    result = draw(VALUES)
    questions = [make.io_question("f", "[1, 2]", {"type": type(result).__name__, "repr": repr(result)})]
    for pos in range(1, draw(st.integers(0, 10)) + 1):
        kind = draw(st.sampled_from(["next", "leave", "var", "nil", "cov"]))
        line, visit = draw(st.integers(1, 30)), draw(st.integers(1, 12))
        if kind == "next":
            q = make.next_line_question(pos, line, "x = 1", visit, line + 1, draw(SOURCES))
        elif kind == "leave":
            q = make.next_line_question(pos, line, "return x", visit, -1, None)
        elif kind == "var":
            value = draw(VALUES)
            q = make.variable_question(pos, line, "x = 1", visit, draw(IDENT),
                                       {"type": type(value).__name__, "repr": repr(value)})
        elif kind == "nil":
            q = make.variable_question(pos, line, "x = 1", visit, draw(IDENT), None)
        else:
            q = make.coverage_question(pos, line, "x = 1", draw(st.booleans()))
        questions.append(q)
    style = draw(st.sampled_from(["tags", "json"]))
    return Task("io_whitebox", "def f(xs):\n    return xs\n", "f", "[1, 2]",
                questions[0].payload["result"], tuple(questions), style=style)


def wrong_answer(question) -> str:
    if question.kind == "next_line":
        return "-1" if question.payload["next_line"] != -1 else "x = 1"
    if question.kind == "variable":
        return "Nil" if question.payload["executed"] else "0; int"
    return "no" if question.payload["executed"] else "yes"


def answer_text(task: Task, answers: dict[int, str]) -> str:
    """Render an answer block with the given per-question answers, in the task's style."""
    replaced = tuple(
        q if q.position not in answers else type(q)(q.kind, q.position, q.line, q.visit, q.variable,
                                                   q.text, answers[q.position], q.payload)
        for q in task.questions)
    return Task(task.task_type, task.code, task.entry_point, task.args, task.result,
                replaced, style=task.style).gold_answer()


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(samples())
def test_gold_answer_scores_the_maximum(task):
    out = compute_score(task.data_source, "<reasoning>r</reasoning>\n" + task.gold_answer(), task.ground_truth())
    assert out["score"] == 2.0 and out["n_correct"] == len(task.step_questions)


@FAST
@given(samples(), st.data())
def test_each_wrong_answer_costs_exactly_its_share(task, data):
    steps = task.step_questions
    if not steps:
        return
    wrong = data.draw(st.sets(st.sampled_from([q.position for q in steps])))
    text = answer_text(task, {q.position: wrong_answer(q) for q in steps if q.position in wrong})
    result = score(text, task.ground_truth(), alpha=0.5)
    assert result.per_question == tuple(q.position not in wrong for q in steps)
    expected = 2 * (0.5 + 0.5 * (len(steps) - len(wrong)) / len(steps))
    assert abs(result.score - expected) < 1e-12


@FAST
@given(samples(), st.data())
def test_missing_answer_lines_cost_only_their_question(task, data):
    steps = task.step_questions
    if not steps or task.style != "tags":
        return
    drop = data.draw(st.sampled_from([q.position for q in steps]))
    text = "\n".join(line for line in task.gold_answer().splitlines() if not line.startswith(f"{drop}. "))
    result = score(text, task.ground_truth())
    assert result.n_correct == len(steps) - 1
    assert abs(result.score - (1 + (len(steps) - 1) / len(steps))) < 1e-12


@FAST
@given(samples(), st.sampled_from(["  ", "\t", " \t "]), st.booleans())
def test_whitespace_changes_nothing(task, pad, blank_lines):
    answers = {}
    for q in task.step_questions:
        if q.kind == "variable" and q.payload["executed"]:
            answers[q.position] = f"{pad}{q.payload['repr']}{pad};{pad}{q.payload['type']}{pad}"
        else:
            answers[q.position] = f"{pad}{q.gold_answer}{pad}"
    text = answer_text(task, answers)
    if task.style == "tags":
        sep = "\n\n" if blank_lines else "\n"
        text = sep.join(pad + re.sub(r"^(\d+)\. ", r"\1.  ", line) for line in text.splitlines())
    else:
        body = json.loads(text.removeprefix("<answer>").removesuffix("</answer>"))
        text = f"<answer>{pad}{json.dumps(body, indent=pad, separators=(',', ' :' + pad))}{pad}</answer>"
    assert score(text, task.ground_truth()).score == 2.0


@FAST
@given(samples(), st.floats(0, 1))
def test_alpha_composition(task, alpha):
    result = score(task.gold_answer(), task.ground_truth(), alpha=alpha)
    assert abs(result.score - 2.0) < 1e-12
    bad = answer_text(task, {0: "assert f([1, 2]) == object()"})
    assert score(bad, task.ground_truth(), alpha=alpha).score == 0.0
