"""Every SFT layout, loaded the way its trainer loads it: the target is the verified trace
rationale followed by the gold answer block, it earns the maximum reward for its prompt,
and the prompt asks for exactly what the target answers."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import datasets
import pytest

from training.export.items import ANSWER_ONLY, FROM_TEACHER, FROM_TRACE, ExportItem, build_task
from training.export.query import load_rows
from training.rewards import score
from training.training_tasks import IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT

SFT_ROWS = 40


def _pairs(fmt: str, folder: Path) -> list[tuple[str, str]]:
    """(prompt, target) of each SFT row, read with `datasets` the way the trainer reads it."""
    if fmt == "verl":  # MultiTurnSFTDataset over `messages`
        ds = datasets.load_dataset("parquet", data_files=str(folder / "sft.parquet"))["train"]
        assert [m["role"] for m in ds[0]["messages"]] == ["user", "assistant"]
        return [(r["messages"][0]["content"], r["messages"][-1]["content"]) for r in ds]
    if fmt == "trl":  # SFTTrainer, conversational prompt-completion
        ds = datasets.load_dataset("parquet", data_files=str(folder / "sft.parquet"))["train"]
        assert ds.column_names[:2] == ["prompt", "completion"]
        assert all(r["completion"][0]["role"] == "assistant" and len(r["completion"]) == 1 for r in ds)
        return [(r["prompt"][-1]["content"], r["completion"][0]["content"]) for r in ds]
    if fmt == "openrlhf":  # SFTDataset with --input_key input --output_key output
        ds = datasets.load_dataset("json", data_files=str(folder / "sft.jsonl"))["train"]
        return [(r["input"], r["output"]) for r in ds]
    if fmt == "openai":
        ds = datasets.load_dataset("json", data_files=str(folder / "sft.jsonl"))["train"]
        return [(r["messages"][0]["content"], r["messages"][1]["content"]) for r in ds]
    ds = datasets.load_dataset("json", data_files=str(folder / "sft.jsonl"))["train"]
    return [(r["conversations"][0]["value"], r["conversations"][1]["value"]) for r in ds]


@pytest.mark.parametrize("fmt", ["verl", "trl", "openai", "llamafactory", "openrlhf"])
def test_every_sft_format_loads_with_a_verified_reasoning_target(exports, fmt):
    pairs = _pairs(fmt, exports[fmt])
    assert len(pairs) == SFT_ROWS
    for prompt, target in pairs:
        assert target.strip() and target.startswith("<reasoning>\n") and target.rstrip().endswith("</answer>")
        reasoning = target.split("</reasoning>")[0]
        assert "Line " in reasoning and "`" in reasoning  # the account states lines and values
        assert "<reasoning>" in prompt and "<answer>" in prompt  # the prompt asks for both tags
        assert "Questions:\n0. " in prompt and "\n1. " not in prompt.split("Format example")[0]  # one question


def test_sft_targets_earn_the_maximum_reward_for_their_own_prompt(db, sandbox):
    from sqlalchemy.orm import Session

    with Session(db.engine) as session:
        ids = db.built.sample_ids[:12]
        rows = list(load_rows(session, ids, [True] * len(ids)))
    seen = set()
    for row in rows:
        for task_type in (IO_ONLY, OUTPUT_INPUT, IO_WHITEBOX):
            task = build_task(row, task_type, "tags")
            target, source = ExportItem("sft", 0, task, row).target()
            assert source == FROM_TRACE
            assert score(target, task.ground_truth()).score == 2.0
            if task_type == IO_WHITEBOX:
                for q in task.step_questions:
                    assert f"Question {q.position}: " in target
            seen.add(task_type)
    assert seen == {IO_ONLY, OUTPUT_INPUT, IO_WHITEBOX}


def test_target_sources_teacher_then_trace_then_answer_only(db):
    from sqlalchemy.orm import Session

    with Session(db.engine) as session:
        row = next(load_rows(session, db.built.sample_ids[:1], [True]))
    task = build_task(row, IO_ONLY, "tags")
    solved = f"<reasoning>\nThe teacher worked it out.\n</reasoning>\n{task.gold_answer()}"
    assert ExportItem("sft", 0, task, replace(row, solution=solved)).target() == (solved, FROM_TEACHER)
    wrong = solved.replace(task.questions[0].gold_answer, task.questions[0].gold_answer + " + 1")
    assert ExportItem("sft", 0, task, replace(row, solution=wrong)).target()[1] == FROM_TRACE  # unverified: not used
    oi = build_task(row, OUTPUT_INPUT, "tags")  # the teacher solved I->O, not O->I
    assert ExportItem("sft", 0, oi, replace(row, solution=solved)).target()[1] == FROM_TRACE
    bare = replace(row, questions=tuple({**q, "rationale": None} for q in row.questions))
    assert ExportItem("sft", 0, task, bare).target() == (task.gold_answer(), ANSWER_ONLY)


def test_llamafactory_maps_system_only_when_rows_have_one(exports):
    plain = json.loads((exports["llamafactory"] / "dataset_info.json").read_text())
    assert plain["execsynth_sft"]["columns"] == {"messages": "conversations"}
    first = json.loads((exports["llamafactory"] / "sft.jsonl").read_text().splitlines()[0])
    assert "system" not in first
    with_system = json.loads((exports["llamafactory_system"] / "dataset_info.json").read_text())
    assert with_system["execsynth_sft"]["columns"] == {"messages": "conversations", "system": "system"}
    ds = datasets.load_dataset("json", data_files=str(exports["llamafactory_system"] / "sft.jsonl"))["train"]
    assert set(ds["system"]) == {"You reason about code."}


def test_card_states_reward_range_target_sources_and_answer_distributions(exports):
    card = (exports["verl"] / "README.md").read_text()
    assert "in the range 0 to 2" in card and "## Rewards" in card
    assert "| target source | sft |" in card and f"| trace_rationale | {SFT_ROWS} |" in card
    assert "| question kind | sft | rl | eval |" in card
    assert "| next_line | 0 | 30 | 10 |" in card and "| oi | 20 | 10 | 5 |" in card
    assert "of next-line answers" in card and "of variable answers" in card
    assert "- config_name: sft" in card  # its own `datasets` config: another layout
    manifest = json.loads((exports["verl"] / "manifest.json").read_text())
    assert manifest["splits"]["sft"]["targets"] == {"trace_rationale": SFT_ROWS}
    assert manifest["splits"]["rl"]["targets"] == {}
