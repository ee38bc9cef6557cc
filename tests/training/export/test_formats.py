"""Each format read back the way its consumer reads it (pyarrow, Hugging Face `datasets`,
json), schema asserted field by field, and the RL rows graded by `training.rewards`."""

from __future__ import annotations

import json

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from training.rewards import compute_score, reward_func, trl_reward
from training.training_tasks import Task

EXPECTED_COUNTS = {"sft": {"io": 20, "oi": 20}, "rl": {"io_whitebox": 30, "oi": 10},
                   "eval": {"io_whitebox": 10, "oi": 5}}


def _answer(gold_block: str) -> str:
    return f"<reasoning>I traced the code line by line.</reasoning>\n{gold_block}"


def _by_task(rows, key) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in rows:
        counts[key(r)] = counts.get(key(r), 0) + 1
    return counts


def test_verl_parquet_schema_and_values(exports, db):
    table = pq.read_table(exports["verl"] / "rl.parquet")
    assert table.schema.names == ["data_source", "prompt", "ability", "reward_model", "extra_info"]
    assert table.schema.field("prompt").type == pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
    assert table.schema.field("reward_model").type == pa.struct([("style", pa.string()), ("ground_truth", pa.string())])
    extra_fields = {f.name: f.type for f in table.schema.field("extra_info").type}
    for name in ("function_source", "entry_point", "args", "result", "gold_answer", "task_type", "provenance"):
        assert extra_fields[name] == pa.string()
    assert extra_fields["questions"] == pa.list_(pa.string())
    assert extra_fields["gold_answers"] == pa.list_(pa.string())
    rows = table.to_pylist()
    assert _by_task(rows, lambda r: r["extra_info"]["task_type"]) == EXPECTED_COUNTS["rl"]
    for i, row in enumerate(rows):
        extra = row["extra_info"]
        task = Task.from_ground_truth(row["reward_model"]["ground_truth"])
        assert row["data_source"] == f"execsynth/{extra['task_type']}" == task.data_source
        assert row["ability"] == "code_execution"
        assert row["reward_model"]["style"] == "rule"
        assert [m["role"] for m in row["prompt"]] == ["user"]
        assert row["prompt"][0]["content"] == task.prompt()
        assert extra["index"] == i and extra["split"] == "rl"
        assert extra["function_source"] == task.code and extra["entry_point"] == task.entry_point
        assert extra["args"] == task.args and extra["result"] == task.result["repr"]
        assert extra["gold_answer"] == task.gold_answer()
        assert extra["gold_answers"] == [q.gold_answer for q in sorted(task.questions, key=lambda q: q.position)]
        assert len(extra["result"]) <= 150  # the RL split's result-length limit
        provenance = json.loads(extra["provenance"])
        assert provenance["sample_id"] == extra["sample_id"] and provenance["python_version"] == "3.11.9"
        assert provenance["program"]["teacher_model"] == "builtin"
        if extra["task_type"] == "io_whitebox":
            assert len(task.step_questions) == 2
            assert {q["kind"] for q in json.loads(extra["question_records"])} == {"io", "next_line", "variable"}


def test_verl_gold_answers_earn_the_maximum_reward(exports, sandbox):
    rows = [r for split in ("rl", "eval") for r in pq.read_table(exports["verl"] / f"{split}.parquet").to_pylist()]
    seen = set()
    for row in rows:
        extra, gt = row["extra_info"], row["reward_model"]["ground_truth"]
        result = compute_score(row["data_source"], _answer(extra["gold_answer"]), gt, extra)
        assert result["score"] == 2.0, (extra["task_type"], extra["gold_answer"], result)
        seen.add(extra["task_type"])
        if extra["task_type"] == "io_whitebox":
            # one wrong step answer costs exactly its share of step credit
            wrong = extra["gold_answer"].replace("\n2. ", "\n2. 'not it'; str  # ", 1)
            assert compute_score(row["data_source"], _answer(wrong), gt, extra)["score"] == 1.5
    assert seen == {"io_whitebox", "oi"}


def test_verl_folder_loads_with_datasets(exports):
    ds = datasets.load_dataset(str(exports["verl"]))
    assert sorted(ds) == ["eval", "rl"]  # the RL layout; the SFT split is a config of its own
    sft = datasets.load_dataset(str(exports["verl"]), "sft")
    assert sorted(sft) == ["sft"] and sft["sft"].num_rows == 40
    assert ds["rl"].num_rows == 40 and ds["eval"].num_rows == 15
    row = ds["rl"][0]
    assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
    assert row["reward_model"]["style"] == "rule" and isinstance(row["reward_model"]["ground_truth"], str)
    assert row["prompt"][0]["role"] == "user"
    # the same load verl itself does: the parquet builder on one file
    rl = datasets.load_dataset("parquet", data_files=str(exports["verl"] / "rl.parquet"))["train"]
    assert rl.num_rows == 40 and rl[0]["extra_info"]["split"] == "rl"


def test_trl_parquet_with_its_reward_function(exports, sandbox):
    ds = datasets.load_dataset("parquet", data_files=str(exports["trl"] / "rl.parquet"))["train"]
    assert ds.column_names == ["prompt", "ground_truth", "data_source", "task_type", "gold_answer",
                               "sample_id", "split", "level", "constraint_type"]
    assert _by_task(ds, lambda r: r["task_type"]) == EXPECTED_COUNTS["rl"]
    assert all(r["prompt"][0]["role"] == "user" for r in ds)
    # TRL hands conversational completions (lists of messages) plus every column as kwargs
    completions = [[{"role": "assistant", "content": _answer(g)}] for g in ds["gold_answer"]]
    scores = trl_reward(prompts=ds["prompt"], completions=completions, ground_truth=ds["ground_truth"],
                        task_type=ds["task_type"], sample_id=ds["sample_id"])
    assert scores == [2.0] * ds.num_rows


def test_openai_chat_jsonl(exports):
    lines = (exports["openai"] / "sft.jsonl").read_text().splitlines()
    assert len(lines) == 40
    verl = {r["sample_id"]: r for r in pq.read_table(exports["verl"] / "sft.parquet").to_pylist()}
    assert len(verl) == 40
    for line in lines:
        record = json.loads(line)
        assert list(record) == ["messages"]
        user, assistant = record["messages"]
        assert user["role"] == "user" and assistant["role"] == "assistant"
        assert "<answer>" in assistant["content"] and user["content"].startswith("You are given a Python function")
    prompts = {json.loads(line)["messages"][0]["content"] for line in lines}
    assert prompts == {r["messages"][0]["content"] for r in verl.values()}
    ds = datasets.load_dataset("json", data_files=str(exports["openai"] / "sft.jsonl"))["train"]
    assert ds.num_rows == 40 and ds.column_names == ["messages"]


def test_llamafactory_sharegpt_and_dataset_info(exports):
    folder = exports["llamafactory"]
    info = json.loads((folder / "dataset_info.json").read_text())
    assert sorted(info) == ["execsynth_eval", "execsynth_rl", "execsynth_sft"]
    entry = info["execsynth_sft"]
    assert entry["file_name"] == "sft.jsonl" and entry["formatting"] == "sharegpt"
    assert entry["columns"]["messages"] == "conversations"
    assert entry["tags"] == {"role_tag": "from", "content_tag": "value", "user_tag": "human", "assistant_tag": "gpt"}
    # LLaMA-Factory loads `file_name` from `dataset_dir` with the datasets json builder
    ds = datasets.load_dataset("json", data_files=str(folder / entry["file_name"]))["train"]
    assert ds.num_rows == 40 and ds.column_names == ["conversations"]
    for record in ds:
        turns = record["conversations"]
        assert [t["from"] for t in turns] == ["human", "gpt"]
        assert turns[1]["value"].rstrip().endswith("</answer>")


def test_openrlhf_jsonl_with_its_reward_hook(exports, sandbox):
    records = [json.loads(line) for line in (exports["openrlhf"] / "rl.jsonl").read_text().splitlines()]
    assert len(records) == 40
    assert all(set(r) == {"input", "label", "datasource", "task_type", "sample_id", "split"} for r in records)
    gold = [Task.from_ground_truth(r["label"]).gold_answer() for r in records]
    prompts = [r["input"] for r in records]
    out = reward_func(queries=[p + _answer(g) for p, g in zip(prompts, gold)], prompts=prompts,
                      labels=[r["label"] for r in records])
    assert list(out["rewards"]) == [2.0] * 40


def test_card_counts_and_seeds(exports):
    card = (exports["verl"] / "README.md").read_text()
    assert "  - split: rl\n    path: rl.parquet" in card
    assert "| rl | 40 |" in card and "| sft | 40 |" in card and "| eval | 15 |" in card
    assert "| io_whitebox | 0 | 30 | 10 |" in card
    assert "- export seed: 0" in card and ": 7, builtin" in card  # the batch seed and teacher
    assert "## Licence" in card and "Difficulty score histograms" in card


@pytest.mark.parametrize("args, code", [
    ("'ab', 2", "def f(s, k):\n    return s * k\n"),
    ("'é', 2", "def f(s, k):\n    return s * k\n"),  # non-ASCII questions: plain encoding
    ("\x00questions\x00", "def f(s, k=1):\n    return s * k\n"),  # a field equal to the placeholder
])
def test_verl_ground_truth_reuses_the_question_json_byte_for_byte(args, code):
    from training import make
    from training.export.formats.verl import ground_truth

    result = {"type": "str", "repr": repr("x" * 3)}
    questions = (make.io_question("f", args, result),
                 make.variable_question(1, 2, "return s * k", 1, "s", {"type": "str", "repr": args.split(",")[0]}))
    task = Task(task_type="io_whitebox", code=code, entry_point="f", args=args, result=result, questions=questions)
    records = json.dumps([q.to_dict() for q in task.questions], sort_keys=True, ensure_ascii=False)
    assert ground_truth(task, records) == task.ground_truth()
    assert Task.from_ground_truth(ground_truth(task, records)) == task
