"""Questions worth asking, over a real batch: the builtin teacher's programs across C1-C6,
run in the sandbox and stored by `execsynth synth`, then their stored questions graded with
the project's own reward. Guessing policies earn at most 10% of the white-box reward; the
constant answers stay within their batch shares; no question is one a rule forbids."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.db.models import Execution, Program, Question, Sample
from tests.support import service_env
from training.question_record import Question as QuestionRecord
from training.training_tasks import IO_WHITEBOX, Task
from training.trace.source_map import build_source_map
from workers.pipeline.questions.policies import POLICIES, whitebox_share

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

PROGRAMS = 120


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("batch")
    out = subprocess.run([sys.executable, "-m", "execsynth", "synth", "--programs", str(PROGRAMS), "--seed", "11"],
                         cwd=cwd, env=service_env(COLUMNS="200"), capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    engine = create_engine(f"sqlite:///{cwd / 'execsynth-data' / 'execsynth.sqlite3'}")
    tasks = []
    with Session(engine) as session:
        stmt = (select(Sample.id, Program.source, Program.entry_point, Sample.args_source, Execution.result)
                .join(Program, Program.id == Sample.program_id).join(Execution, Execution.id == Sample.execution_id)
                .where(Sample.status == "accepted").order_by(Sample.id))
        rows = session.execute(stmt).all()
        stored: dict[int, list[QuestionRecord]] = {}
        for q in session.scalars(select(Question).where(Question.kind != "oi").order_by(Question.sample_id, Question.position)):
            stored.setdefault(q.sample_id, []).append(QuestionRecord(q.kind, q.position, q.line, q.visit, q.variable,
                                                                     q.prompt, q.gold_answer, q.payload))
        for sid, code, entry, args, result in rows:
            tasks.append(Task(IO_WHITEBOX, code, entry, args, {"type": result["type"], "repr": result["repr"]},
                              tuple(stored[sid])))
    engine.dispose()
    return tasks


def test_batch_has_white_box_questions(batch):
    steps = [q for t in batch for q in t.step_questions]
    assert len(batch) >= PROGRAMS and len(steps) >= 3 * len(batch)  # the naturalness gate turns some programs away


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_constant_answer_policies_earn_at_most_a_tenth_of_the_white_box_reward(batch, name):
    share = whitebox_share(batch, POLICIES[name])
    assert share <= 0.10, f"{name} earns {share:.1%} of the white-box reward"


def test_gold_answers_earn_all_of_it(batch):
    assert whitebox_share(batch, lambda task, q: q.gold_answer) == 1.0


def test_constant_answers_stay_within_their_batch_shares_and_per_sample_caps(batch):
    kinds: Counter = Counter()
    for task in batch:
        per_sample = Counter()
        for q in task.step_questions:
            kinds[q.kind] += 1
            if q.gold_answer in ("-1", "Nil"):
                kinds[(q.kind, "constant")] += 1
                per_sample[q.kind] += 1
        assert all(n <= 1 for n in per_sample.values())  # at most one -1 and one Nil per sample
    assert kinds[("next_line", "constant")] <= 0.10 * kinds["next_line"]
    assert kinds[("variable", "constant")] <= 0.03 * kinds["variable"]


def test_no_question_after_a_return_or_the_last_line_nor_about_a_literal_assignment(batch):
    asked_after_return = asked_literal = 0
    for task in batch:
        smap = build_source_map(task.code)
        for q in task.step_questions:
            stmt = smap.statements[q.line]
            if q.kind == "next_line":
                asked_after_return += stmt.kind == "return" or q.line == smap.last_line(stmt.scope)
            elif q.kind == "variable" and q.gold_answer != "Nil":
                asked_literal += stmt.assigns_literal
    assert asked_after_return == 0 and asked_literal == 0
