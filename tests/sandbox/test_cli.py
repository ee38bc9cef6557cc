"""`execsynth sandbox run` and `batch` through Typer's runner, against the real sandbox."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from execsynth.commands.sandbox import app

runner = CliRunner()  # click 8.2+: stdout and stderr are kept apart


def test_run_prints_the_result_as_json(tmp_path):
    program = tmp_path / "prog.py"
    program.write_text("def helper(x):\n    return x + 1\n\ndef f(a, b):\n"
                       "    print('sum')\n    return {helper(a), b}\n")
    result = runner.invoke(app, ["run", str(program), "--entry", "f", "--args", "2, 1",
                                 "--trace"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "ok" and data["result"]["repr"] == "{1, 3}"
    assert data["stdout"] == "sum\n"
    assert [s["func"] for s in data["trace"]["steps"]].count("helper") == 3


def test_run_rejects_a_bad_entry_point(tmp_path):
    program = tmp_path / "prog.py"
    program.write_text("def f():\n    return 1\n")
    result = runner.invoke(app, ["run", str(program), "--entry", "f(", "--args", ""])
    assert result.exit_code == 2 and "entry_point" in result.stderr


def test_batch_implements_the_jsonl_contract():
    lines = [
        {"id": "a", "code": "def f(x):\n    return x * 2\n", "entry_point": "f", "args": "21"},
        {"id": 7, "code": "def f(x):\n    return x\n", "entry_point": "f", "args": "[1]",
         "trace": True},
        {"id": "loop", "code": "def f():\n    while True:\n        pass\n", "entry_point": "f",
         "args": ""},
        {"id": "bad", "code": "def f():\n    pass\n"},
    ]
    stdin = "\n".join(json.dumps(line) for line in lines) + "\nnot json\n\n"
    result = runner.invoke(app, ["batch", "--workers", "2", "--timeout", "1"], input=stdin)
    assert result.exit_code == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 5
    by_id = {str(item["id"]): item for item in out}
    assert by_id["a"]["result"] == {"type": "int", "repr": "42", "json": 42, "truncated": False}
    assert by_id["7"]["id"] == 7 and by_id["7"]["trace"]["steps"][0]["event"] == "call"
    assert by_id["a"]["trace"] is None
    assert by_id["loop"]["status"] == "timeout"
    assert by_id["bad"]["status"] == "sandbox_error" and "missing" in by_id["bad"]["exception"]["message"]
    assert by_id["None"]["exception"]["type"] == "InvalidInput"
    for item in out:
        assert set(item) >= {"id", "status", "result", "exception", "stdout", "duration_ms", "trace"}
