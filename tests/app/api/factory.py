"""Rows for API tests, written through the real ORM into the real test database."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from app.db.models import Batch, Execution, Program, Question, Sample, TeacherCall
from app.db.session import session_scope


def make_batch(url: str, status: str = "running", programs_requested: int = 10, started_minutes_ago: float | None = 10.0) -> int:
    now = datetime.now(timezone.utc)
    with session_scope(url) as session:
        batch = Batch(spec={"levels": ["C1"], "programs": programs_requested}, seed=1, status=status,
                      programs_requested=programs_requested,
                      started_at=None if started_minutes_ago is None else now - timedelta(minutes=started_minutes_ago))
        session.add(batch)
        session.flush()
        return batch.id


def add_teacher_calls(url: str, batch_id: int, ok: int, errors: int, tokens: tuple[int, int] = (100, 50), cost: float = 0.01) -> None:
    with session_scope(url) as session:
        for i in range(ok + errors):
            session.add(TeacherCall(
                batch_id=batch_id, request_key=f"slot:{i}/generate", purpose="generate", teacher="builtin",
                model="builtin", prompt=[], status="ok" if i < ok else "error",
                error=None if i < ok else "HTTP 500", prompt_tokens=tokens[0], completion_tokens=tokens[1], cost_usd=cost,
            ))


def add_program(url: str, batch_id: int, slot: int, status: str = "kept", reason: str | None = None,
                type_: str = "str", method: str = "split", level: str = "C1", variant: int = 0) -> int:
    with session_scope(url) as session:
        program = Program(
            batch_id=batch_id, slot=slot, variant=variant, origin="builtin", constraint_type=type_,
            constraint_method=method, level=level, requested={"nested_calls": True},
            measured={"control_flow_depth": 0}, prompt_template="gen-v1",
            source="def f(s):\n    return s.split(',')\n", entry_point="f", call_args="'a,b'",
            status=status, reject_reason=reason,
            provenance={"teacher_model": "builtin", "seed": 1, "constraint": f"{type_}.{method}/{level}"},
        )
        session.add(program)
        session.flush()
        return program.id


def add_sample(url: str, batch_id: int, program_id: int, index: int = 0, status: str = "accepted",
               reason: str | None = None, passes: int | None = 2, k: int | None = 10, score: float | None = 0.5,
               type_: str = "str", method: str = "split", level: str = "C1", questions: int = 0,
               features: dict | None = None) -> int:
    args = f"'a,b,{index}'"
    with session_scope(url) as session:
        execution = Execution(
            program_id=program_id, args_source=args, args_hash=uuid.uuid4().hex, input_origin="teacher",
            hash_seed=0, status="ok", result={"type": "list", "repr": "['a', 'b']"}, exception=None, stdout="",
            trace={"steps": [{"event": "line", "func": "f", "line": 2, "depth": 1, "locals": {}}]},
            duration_ms=1.5, python_version="3.11.9",
        )
        session.add(execution)
        session.flush()
        sample = Sample(
            batch_id=batch_id, program_id=program_id, execution_id=execution.id, args_hash=execution.args_hash,
            args_source=args, input_index=index, input_origin="teacher", status=status, reject_reason=reason,
            constraint_type=type_, constraint_method=method, level=level, difficulty_level=level,
            difficulty_score=score, features={"depth": 0} if features is None else features, solver_passes=passes, solver_k=k,
        )
        session.add(sample)
        session.flush()
        for position in range(questions):
            session.add(Question(sample_id=sample.id, position=position, kind="io" if position == 0 else "variable",
                                 line=None if position == 0 else 2, visit=None if position == 0 else 1,
                                 variable=None if position == 0 else "s", prompt=f"q{position}", gold_answer=f"a{position}"))
        return sample.id
