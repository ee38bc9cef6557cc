"""The gate on an LLM teacher's programs: the fake OpenAI server (over real HTTP) answers
each C3 `str.replace` prompt by its control-flow guideline with a program that has a dead
store, a contradictory elif, a constant output, or none of these; `execsynth synth` runs
the real pipeline and the rows carry the reasons. Natural guards are kept with the
boundary inputs that reach them (a blank text, a text ending with the comma it tests for)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.db.models import Execution, Program, Sample
from tests.fakes.openai_server import FakeChatRequest, FakeOpenAIServer
from tests.support import service_env

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

NATURAL = '''def tidy(text, old):
    parts = []
    for word in text.split():
        parts.append(word.replace(old, '').replace('-', ' '))
    return ' '.join(parts)

print(tidy('a-b cab b-c', 'b'))'''
DEAD_STORE = '''def tidy(text, old):
    spare = len(text)
    cleaned = text
    if old in text:
        cleaned = text.replace(old, old.upper()).replace('  ', ' ')
    return cleaned

print(tidy('a b', 'b'))'''
CONTRADICTORY = '''def tidy(text, old):
    out = []
    if text == '':
        out.append(text.replace(old, '-').replace('--', '-'))
    elif text != '':
        out.append(text.replace(old, '+'))
    else:
        out.append(text.upper())
    return out

print(tidy('abc', 'b'))'''
CONSTANT = '''def tidy(text, old):
    n = 0
    total = 0
    while n < 3:
        total += len('abc'.replace('a', 'bb').replace('b', 'c'))
        n += 1
    return min(total, len(text) + len(old) + 12)

print(tidy('abc', 'b'))'''
BY_GUIDELINE = {"an if-elif chain": CONTRADICTORY, "an if statement": DEAD_STORE,
                "a for statement": NATURAL, "a while statement": CONSTANT}


def teacher(request: FakeChatRequest) -> list[str]:
    prompt = request.last_user_message
    code = next(c for phrase, c in BY_GUIDELINE.items() if f"Include {phrase}" in prompt)
    return [f"```python\n{code}\n```"] * request.n


def test_unnatural_programs_are_rejected_with_their_reasons_and_natural_ones_kept(tmp_path: Path) -> None:
    with FakeOpenAIServer(responder=teacher) as server:
        teachers = {"llm": {"kind": "openai", "base_url": server.base_url, "model": "coder-30b",
                            "backoff_base_s": 0.01, "max_retries": 1, "request_timeout_s": 5}}
        out = subprocess.run(
            [sys.executable, "-m", "execsynth", "synth", "--quiet", "--programs", "8", "--levels", "C3",
             "--types", "str", "--methods", "replace", "--teacher", "llm", "--no-llm-mutation",
             "-k", "3", "--seed", "1"],
            env=service_env(EXECSYNTH_DATA_DIR=str(tmp_path), EXECSYNTH_TEACHERS=json.dumps(teachers), COLUMNS="200"),
            capture_output=True, text=True, timeout=300,
        )
    assert out.returncode == 0, out.stderr[-2000:]
    with Session(create_engine(f"sqlite:///{tmp_path / 'execsynth.sqlite3'}")) as s:
        programs = s.scalars(select(Program).where(Program.variant == 0)).all()
        reasons = {p.source.split("\n")[1].strip(): p.reject_reason for p in programs if p.reject_reason != "duplicate"}
        assert reasons == {
            "parts = []": None,
            "spare = len(text)": "unnatural_dead_store",
            "out = []": "unnatural_contradictory_condition",
            "n = 0": "unnatural_constant_output",
        }
        kept = next(p for p in programs if p.status == "kept")
        samples = s.scalars(select(Sample).where(Sample.program_id == kept.id)).all()
        assert len(samples) == 3 and all(x.status == "accepted" for x in samples)
        results = s.scalars(select(Execution.result).where(Execution.id.in_([x.execution_id for x in samples])))
        assert len({r["repr"] for r in results}) >= 2  # coverage-first inputs: distinct outputs
    assert "unnatural_dead_store" in out.stdout + out.stderr


@contextmanager
def one_program(tmp_path: Path, code: str, method: str) -> Iterator[tuple[Session, Program]]:
    """`execsynth synth` of one C3 `str.<method>` program the fake LLM teacher writes as
    `code` (seed 8 draws the blueprint `if`): a session on the store and the program's row."""
    with FakeOpenAIServer(responder=lambda request: [f"```python\n{code}\n```"] * request.n) as server:
        teachers = {"llm": {"kind": "openai", "base_url": server.base_url, "model": "coder-30b",
                            "backoff_base_s": 0.01, "max_retries": 1, "request_timeout_s": 5}}
        out = subprocess.run(
            [sys.executable, "-m", "execsynth", "synth", "--quiet", "--programs", "1", "--levels", "C3",
             "--types", "str", "--methods", method, "--teacher", "llm", "--no-llm-mutation",
             "-k", "3", "--seed", "8"],
            env=service_env(EXECSYNTH_DATA_DIR=str(tmp_path), EXECSYNTH_TEACHERS=json.dumps(teachers), COLUMNS="200"),
            capture_output=True, text=True, timeout=300,
        )
    assert out.returncode == 0, out.stderr[-2000:]
    with Session(create_engine(f"sqlite:///{tmp_path / 'execsynth.sqlite3'}")) as s:
        (program,) = s.scalars(select(Program).where(Program.variant == 0)).all()
        yield s, program


GUARDED = '''def tidy(text, old):
    if not text.strip():
        return 'empty'
    return text.replace(old, '').replace('-', ' ').title()

print(tidy('a-b cab b-c', 'b'))'''


def test_a_guard_clause_is_kept_with_the_boundary_input_that_reaches_it(tmp_path: Path) -> None:
    """No drawn input is blank, so the guard alone would look deletable; the blank
    boundary input reaches it, is kept, and the program passes the gate."""
    with one_program(tmp_path, GUARDED, "replace") as (s, program):
        assert program.reject_reason is None and program.status == "kept"
        samples = s.scalars(select(Sample).where(Sample.program_id == program.id)).all()
        by_origin = {x.input_origin: x.args_source for x in samples}
        assert set(by_origin) == {"teacher", "synthesized", "boundary"}, by_origin
        assert not by_origin["boundary"].split(",")[0].strip(" '\"")  # the blank text


TRAILING_COMMA = '''def plural_item(line):
    if line.endswith(','):
        line = line[:-1]
    words = line.split()
    last = words[-1] if words else ''
    return (last[:-1] if last.endswith('.') else last).endswith('s')

print(plural_item('red apples and pears'))'''


def test_a_program_is_given_the_affixes_it_tests_for(tmp_path: Path) -> None:
    """No drawn input ends with a comma, so the comma's arm would look deletable and the
    level's deepest block unrun; the program's own affix (`endswith(',')`) is offered as an
    input (session 30), is kept, and the program passes the gate."""
    with one_program(tmp_path, TRAILING_COMMA, "endswith") as (s, program):
        assert program.reject_reason is None and program.status == "kept", program.reject_reason
        samples = s.scalars(select(Sample).where(Sample.program_id == program.id)).all()
        assert len(samples) == 3 and all(x.status == "accepted" for x in samples)
        assert any(x.input_origin == "boundary" and x.args_source.rstrip("'\"").endswith(",") for x in samples), \
            [(x.input_origin, x.args_source) for x in samples]
