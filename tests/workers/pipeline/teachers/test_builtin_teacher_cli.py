"""The builtin teacher behind the Teacher protocol, and the generate / constraints CLI."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from typer.testing import CliRunner

from execsynth.commands.generate import app, process_completion
from workers.pipeline.batch_spec import NaturalnessSpec
from workers.pipeline.arg_mutation import parse_mutation, sample_reference_values
from workers.pipeline.builtin import generate_program
from workers.pipeline.constraints import load_catalog, select
from workers.pipeline.inputs import parse_literal_args
from workers.pipeline.parsing import ParsedProgram, parse_completion
from workers.pipeline.records import ChatRequest, Completion, Constraint, Knobs
from workers.pipeline.teachers.base import Teacher, complete_all_sync
from workers.pipeline.teachers.builtin import BuiltinTeacher

runner = CliRunner()


def request(cell: Constraint | None, index: int, n: int = 1, purpose: str = "generate",
            context: dict | None = None) -> ChatRequest:
    return ChatRequest(key=f"t/slot:{index}/{purpose}", messages=(), purpose=purpose, seed=4,
                       n=n, constraint=cell, context=context if context is not None else {"index": index})


def test_generate_answers_like_an_llm_and_parses_back_to_the_program() -> None:
    teacher = BuiltinTeacher()
    assert isinstance(teacher, Teacher) and teacher.name == "builtin"
    cells = select(load_catalog(), types=["list"], levels=["C2", "C6"], count=3, seed=4)
    completions = complete_all_sync(teacher, [request(c, i, n=2) for i, c in enumerate(cells)])
    for i, (cell, completion) in enumerate(zip(cells, completions)):
        assert completion.status == "ok" and completion.model == "execsynth-builtin-v1"
        assert len(completion.texts) == 2 and completion.texts[0] != completion.texts[1]
        parsed = parse_completion(completion.texts[0])
        assert isinstance(parsed, ParsedProgram), parsed
        expected = generate_program(cell, 4, i)
        assert (parsed.code, parsed.entry_point, parsed.args) == (
            expected.code, expected.entry_point, expected.args)
        assert completion.texts[0].startswith("```python\n") and completion.texts[0].endswith("```")


def test_failures_come_back_as_error_completions() -> None:
    teacher = BuiltinTeacher()
    bad = [request(None, 0), request(Constraint("str", "nope", "C1"), 1),
           request(Constraint("str", "upper", "C1"), 2, purpose="solve")]
    results = complete_all_sync(teacher, bad)
    assert [r.status for r in results] == ["error"] * 3
    assert "needs its constraint" in results[0].error
    assert "no catalog entry str.nope" in results[1].error
    assert "does not answer purpose 'solve'" in results[2].error


def test_without_an_index_the_key_decides() -> None:
    teacher = BuiltinTeacher()
    cell = Constraint("str", "split", "C1", Knobs())
    a = asyncio.run(teacher.complete(request(cell, 0, context={})))
    b = asyncio.run(teacher.complete(request(cell, 0, context={})))
    assert a.texts == b.texts and a.status == "ok"


def test_mutate_inputs_keeps_argument_types_and_uses_reference_values() -> None:
    teacher = BuiltinTeacher()
    cell = Constraint("dict", "get", "C2", Knobs(True, True))
    program = generate_program(cell, 4, 0)
    refs = sample_reference_values(4, "slot:0")
    context = {"code": program.code, "entry_point": program.entry_point, "args": program.args,
               "reference_values": refs.to_dict()}
    done = asyncio.run(teacher.complete(request(None, 0, n=2, purpose="mutate_inputs",
                                                context=context)))
    assert done.status == "ok" and len(done.texts) == 2
    new_args = parse_mutation(done.texts[0], program.entry_point)
    assert new_args is not None and new_args != program.args
    old, new = parse_literal_args(program.args), parse_literal_args(new_args)
    assert [type(v) for v in old] == [type(v) for v in new]
    for value in new:
        if isinstance(value, (str, dict, list, set, tuple)):
            assert len(value) > 5
        if isinstance(value, str):
            assert value in refs.strings
    broken = asyncio.run(teacher.complete(request(None, 0, purpose="mutate_inputs",
                                                  context={"code": "x"})))
    assert broken.status == "error" and "lacks 'entry_point'" in broken.error


def test_constraints_list_prints_the_grid() -> None:
    result = runner.invoke(app, ["constraints", "list"])
    assert result.exit_code == 0, result.output
    assert "str (65): +  in  not in" in result.output
    assert "total: 186 entries in 11 types" in result.output
    assert "C6     yes     yes    yes    3" in result.output
    as_json = json.loads(runner.invoke(app, ["constraints", "list", "--json", "--types", "zip"]).output)
    assert as_json["entries"] == [{"type": "zip", "method": "zip", "syntax": "call", "origin": "builtin"}]
    bad = runner.invoke(app, ["constraints", "list", "--types", "complex"])
    assert bad.exit_code == 2 and "unknown types" in bad.output


def test_generate_writes_jsonl_and_counts_rejections(tmp_path: Path) -> None:
    out, rejected = tmp_path / "programs.jsonl", tmp_path / "rejected.jsonl"
    args = ["generate", "--teacher", "builtin", "--levels", "C1,C3", "--types", "str,set",
            "--methods", "split,add,|=", "--per-level", "6", "--seed", "5", "--out", str(out),
            "--rejected", str(rejected)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 12 and "kept 12 of 12 programs" in result.output
    first = lines[0]
    assert set(first) >= {"id", "constraint", "measured", "code", "entry_point", "args",
                          "prompt", "provenance", "normalized_hash"}
    assert first["constraint"]["level"] == "C1" and first["measured"]["matches"] is True
    assert first["provenance"]["teacher"] == "builtin" and first["provenance"]["seed"] == 5
    assert "print(" not in first["code"]
    assert {l["constraint"]["method"] for l in lines} == {"split", "add", "|="}
    assert runner.invoke(app, args).exit_code == 0
    assert [json.loads(l) for l in out.read_text().splitlines()] == lines  # same spec, same data
    bad = runner.invoke(app, ["generate", "--levels", "C9", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown level" in bad.output


OFF = NaturalnessSpec(enabled=False)


def _answer(text: str) -> Completion:
    return Completion("k", (text,), "m", "ok")


def test_rejection_reasons_of_the_generate_stage() -> None:
    cell = Constraint("str", "upper", "C1", Knobs())
    seen: set[str] = set()
    assert process_completion(cell, Completion("k", (), "m", "error", "HTTP 500"), "reject", seen)[1:] == ("teacher_error", "HTTP 500")
    good = "```python\ndef f(s):\n    return s.upper().upper()\nprint(f('a'))\n```"
    # the naturalness gate (on by default) turns the idempotent chain away; the other rules are
    # checked here with it off
    assert process_completion(cell, _answer(good), "reject", set())[1] == "unnatural_idempotent_chain"
    record, reason, _ = process_completion(cell, _answer(good), "reject", seen, OFF)
    assert record is not None and reason is None and record["args"] == "'a'"
    renamed = "```python\ndef g(t):\n    return t.upper().upper()\nprint(g('b'))\n```"
    assert process_completion(cell, _answer(renamed), "reject", seen, OFF)[1] == "duplicate"
    flat = "```python\ndef f(s):\n    return s.upper()\nprint(f('a'))\n```"
    assert process_completion(cell, _answer(flat), "reject", seen, OFF)[1:] == ("constraint_mismatch", "nested_calls")
    kept, _, _ = process_completion(cell, _answer(flat), "relabel", seen, OFF)
    assert kept is not None and kept["measured"]["mismatches"] == ["nested_calls"]
    assert process_completion(cell, _answer("no code"), "reject", seen, OFF)[1] == "no_code_block"


def test_generator_processes_write_the_same_programs_and_errors() -> None:
    from workers.pipeline.teachers.builtin import close_pools

    cells = select(load_catalog(), levels=["C1", "C4", "C6"], count=6, seed=9)[:6]
    requests = [request(c, i, n=2) for i, c in enumerate(cells)]
    requests.append(request(Constraint("str", "nope", "C1"), 99))
    try:
        here = complete_all_sync(BuiltinTeacher(processes=0), requests)
        spawned = complete_all_sync(BuiltinTeacher(processes=2), requests)
    finally:
        close_pools()
    assert [c.texts for c in spawned] == [c.texts for c in here] and here[0].texts
    assert [c.status for c in spawned] == ["ok"] * 6 + ["error"]
    assert spawned[-1].error == here[-1].error and "no catalog entry str.nope" in here[-1].error
