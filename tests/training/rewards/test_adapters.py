"""Trainer adapters (verl, TRL, OpenRLHF), the ground-truth round trip, prompts, and the
import arrow: `training` loads with the standard library (plus `sandbox`) only."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.training.rewards.helpers import whitebox_task
from training.errors import GroundTruthError, UnknownTaskTypeError
from training.rewards import compute_score, make_trl_reward, reward_func, trl_reward
from training.training_tasks import Task, gold_answer_text, render_prompt

TASK = whitebox_task()
GOLD = TASK.gold_answer()
HALF = GOLD.replace("1. if total > n:", "1. -1")


def test_verl_compute_score_returns_fixed_numeric_keys():
    out = compute_score("execsynth/io_whitebox", GOLD, TASK.ground_truth(), TASK.extra_info())
    assert out == {"score": 2.0, "io": 1.0, "step_accuracy": 1.0, "n_questions": 5,
                   "n_correct": 5, "valid_format": 1.0}
    assert compute_score("execsynth/io_whitebox", HALF, TASK.ground_truth(), alpha=1.0)["score"] == pytest.approx(1.6)
    assert compute_score("execsynth/io_whitebox", "nothing", TASK.ground_truth()).keys() == out.keys()
    with pytest.raises(UnknownTaskTypeError):
        compute_score("openai/gsm8k", GOLD, TASK.ground_truth())
    with pytest.raises(GroundTruthError):
        compute_score("execsynth/oi", GOLD, TASK.ground_truth())  # source and ground truth disagree
    with pytest.raises(GroundTruthError):
        compute_score("execsynth/io_whitebox", GOLD, "{not json")


def test_trl_reward_takes_dataset_columns_as_kwargs():
    convo = [[{"role": "assistant", "content": GOLD}], [{"role": "assistant", "content": HALF}]]
    got = trl_reward(prompts=["p", "p"], completions=convo, ground_truth=[TASK.ground_truth()] * 2,
                     data_source=["execsynth/io_whitebox"] * 2, completion_ids=[[1], [2]])
    assert got == [2.0, pytest.approx(1.8)]  # one of five step answers wrong
    strict = make_trl_reward(alpha=1.0)
    assert strict(completions=[HALF], ground_truth=[TASK.ground_truth()]) == [pytest.approx(1.6)]


def test_openrlhf_reward_func_strips_the_prompt():
    prompt = TASK.prompt()
    out = reward_func([prompt + GOLD, prompt + "<answer>\nno\n</answer>"], [prompt, prompt],
                      [TASK.ground_truth()] * 2)
    rewards = [float(x) for x in out["rewards"]]
    assert rewards == [2.0, 0.0] and [float(x) for x in out["scores"]] == [1.0, 0.0]


def test_ground_truth_and_extra_info_round_trip():
    again = Task.from_ground_truth(TASK.ground_truth())
    assert again == TASK and again.questions[1].to_dict() == TASK.questions[1].to_dict()
    info = TASK.extra_info()
    assert info["gold_answer"] == GOLD == gold_answer_text(TASK.questions)
    assert info["entry_point"] == "f" and info["result"] == "[3]" and info["task_type"] == "io_whitebox"
    assert len(info["questions"]) == 6 and info["prompt_version"] == "tags-v2"
    assert json.loads(json.dumps(info)) == info


def test_prompt_styles():
    tags = render_prompt(TASK.code, TASK.questions, "tags")
    assert "1 | def f(xs, n):" in tags and "0. Complete the assertion" in tags
    assert "do not answer it" in tags and "<reasoning>" in tags and "3rd time" in tags
    js = whitebox_task("json")
    assert '"answers"' in js.prompt() and js.gold_answer().startswith("<answer>\n{")
    assert compute_score(js.data_source, js.gold_answer(), js.ground_truth())["score"] == 2.0
    with pytest.raises(ValueError):
        render_prompt(TASK.code, TASK.questions, "xml")


def test_training_imports_only_stdlib_and_sandbox():
    probe = ("import sys, training.rewards, training.training_tasks, training.answers, training.make\n"
             "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
             "{'pydantic', 'app', 'workers', 'sqlalchemy', 'fastapi', 'celery', 'openai', 'typer'})\n"
             "print(','.join(bad))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
