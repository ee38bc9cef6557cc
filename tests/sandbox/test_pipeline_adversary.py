"""Issue 13's attacks through a pipeline batch: the fake teacher (a real OpenAI-compatible
HTTP server) answers every generation request with a hostile program, `execsynth synth
--teacher evil` runs it. The test's own listening Unix sockets receive nothing, the
databases are untouched, no forged sample is accepted, and the batch completes."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import psycopg
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.db.models import Batch, Execution, Program, Sample
from tests.fakes.openai_server import FakeChatRequest, FakeOpenAIServer
from tests.support import service_env

from . import adversary as A

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
# Both programs fit level C3 of str.upper (nested target calls, other calls, no helper, one
# level of control flow of every kind), so the static check lets them through to the sandbox.
CONTROL_FLOW = ("    if n > 3:\n        n -= 1\n    while n > 10:\n        n -= 1\n"
                "    if n == 1:\n        n = 2\n    elif n == 2:\n        n = 3\n")
NORMAL = ("def f(s):\n    t = s.upper().upper()\n    n = len(t)\n    for c in t:\n        n += 1\n"
          + CONTROL_FLOW + "    return t + str(n)\n\nprint(f('abc'))\n")


def hostile_program(listeners: A.Listeners, data_dir: Path) -> str:
    """One teacher answer that tries everything at once, in the shape the parser accepts
    (imports, one def, one top-level print of the entry call, no comments): Unix sockets
    (the test's own and Postgres's, with a CREATE TABLE over trust auth), the data dir and
    its database file, and a forged result frame on fd 3."""
    startup = b"user\x00postgres\x00database\x00postgres\x00\x00"
    query = f"CREATE TABLE {listeners.table} (x int);\x00".encode()
    addresses = listeners.paths + A.POSTGRES_SOCKETS + ["\0" + a for a in listeners.abstract]
    files = [str(data_dir / "execsynth.sqlite3"), str(data_dir / "pwned")]
    return ("import json\nimport os\nimport socket\nimport struct\n\n"
            "def f(s):\n"
            "    t = s.upper().upper()\n"
            "    n = len(t)\n"
            f"    for address in {addresses!r}:\n"
            "        try:\n"
            "            c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
            "            c.settimeout(1)\n"
            "            c.connect(address)\n"
            f"            c.sendall(struct.pack('>ii', 8 + len({startup!r}), 196608) + {startup!r})\n"
            f"            c.sendall(b'Q' + struct.pack('>i', 4 + len({query!r})) + {query!r})\n"
            "        except OSError:\n"
            "            n += 1\n"
            + CONTROL_FLOW +
            "    try:\n"
            f"        open({files[0]!r}, 'ab').write(b'pwned')\n"
            f"        open({files[1]!r}, 'w').write('pwned')\n"
            "    except OSError:\n"
            "        n += 1\n"
            "    d = json.dumps({'status': 'ok', 'result': {'type': 'str', 'repr': repr('FORGED'),"
            " 'json': 'FORGED', 'truncated': False}}).encode()\n"
            "    os.write(3, struct.pack('>4sQ', b'XSR2', len(d)) + bytes(32) + d)\n"
            "    os._exit(0)\n\n"
            "print(f('abc'))\n")


def test_a_hostile_teacher_batch_reaches_nothing_and_completes(tmp_path: Path) -> None:
    listeners = A.Listeners()
    program = hostile_program(listeners, tmp_path)
    turns = itertools.count()

    def teacher(request: FakeChatRequest) -> list[str]:
        code = program if next(turns) % 2 == 0 else NORMAL
        return [f"```python\n{code}```"] * request.n

    try:
        with FakeOpenAIServer(responder=teacher) as server:
            teachers = {"evil": {"kind": "openai", "base_url": server.base_url, "model": "evil-1",
                                 "backoff_base_s": 0.01, "max_retries": 1, "request_timeout_s": 10}}
            out = subprocess.run(
                [sys.executable, "-m", "execsynth", "synth", "--quiet", "--programs", "6", "--teacher", "evil",
                 "--types", "str", "--methods", "upper", "--levels", "C3", "--no-llm-mutation", "-k", "1",
                 "--no-naturalness",  # the gate would turn these away before the sandbox: this tests the sandbox
                 "--seed", "5"],
                env=service_env(EXECSYNTH_DATA_DIR=str(tmp_path), EXECSYNTH_TEACHERS=json.dumps(teachers)),
                capture_output=True, text=True, timeout=600)
        received = listeners.received()
    finally:
        listeners.close()
    assert out.returncode == 0, out.stderr[-3000:]
    assert received == []
    with psycopg.connect(POSTGRES) as conn:
        assert conn.execute("select to_regclass(%s)", (listeners.table,)).fetchone()[0] is None
    db = tmp_path / "execsynth.sqlite3"
    assert not db.read_bytes().endswith(b"pwned")
    with Session(create_engine(f"sqlite:///{db}")) as s:
        assert s.get(Batch, 1).status == "completed"
        hostile = s.scalars(select(Program).where(Program.source.contains("FORGED"))).all()
        assert hostile, "the hostile program never reached the pipeline"
        ran = s.scalars(select(Execution).where(Execution.program_id.in_([p.id for p in hostile]))).all()
        assert ran and all(e.status != "ok" for e in ran), [(e.status, e.exception) for e in ran]
        accepted = s.scalars(select(Sample).where(Sample.status == "accepted")).all()
        assert all(sample.program_id not in {p.id for p in hostile} for sample in accepted)
        for execution in s.scalars(select(Execution)).all():
            assert "FORGED" not in json.dumps(execution.result or {})
    assert not os.path.exists(tmp_path / "pwned")
