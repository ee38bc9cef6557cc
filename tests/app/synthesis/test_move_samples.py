"""Batched sample moves on a real store: each sample moves only from its stated source, with
its own values, and an illegal transition is refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from app.db import migrate
from app.db.models import Sample
from app.db.session import session_scope
from app.synthesis import repository as repo
from tests.app.api.factory import add_program, add_sample, make_batch
from workers.pipeline.lifecycle import IllegalTransition, SampleStatus


@pytest.fixture
def store(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/store.sqlite3"
    migrate.upgrade(url)
    return url


def test_many_samples_move_with_their_own_values_and_only_from_their_source(store: str) -> None:
    batch = make_batch(store)
    program = add_program(store, batch, slot=0)
    ids = [add_sample(store, batch, program, index=i, status="executed") for i in range(3)]
    ids.append(add_sample(store, batch, program, index=3, status="accepted"))  # not executed
    moves = [(ids[0], SampleStatus.EXECUTED, SampleStatus.ACCEPTED, {"difficulty_score": 1.5, "features": {"a": 1}}),
             (ids[1], SampleStatus.EXECUTED, SampleStatus.ACCEPTED, {"difficulty_score": 2.5, "features": {"a": 2}}),
             (ids[2], SampleStatus.EXECUTED, SampleStatus.REJECTED, {"reject_reason": "too_easy"}),
             (ids[3], SampleStatus.EXECUTED, SampleStatus.REJECTED, {"reject_reason": "too_easy"})]
    with session_scope(store) as session:
        repo.move_samples(session, moves)
    with session_scope(store) as session:
        rows = {s.id: (s.status, s.difficulty_score, s.features, s.reject_reason)
                for s in session.scalars(select(Sample))}
    assert rows[ids[0]] == ("accepted", 1.5, {"a": 1}, None)
    assert rows[ids[1]] == ("accepted", 2.5, {"a": 2}, None)
    assert rows[ids[2]][0] == "rejected" and rows[ids[2]][3] == "too_easy"
    assert rows[ids[3]][0] == "accepted" and rows[ids[3]][3] is None  # its source was not executed


def test_an_illegal_move_writes_nothing(store: str) -> None:
    batch = make_batch(store)
    program = add_program(store, batch, slot=0)
    sid = add_sample(store, batch, program, status="executed")
    with pytest.raises(IllegalTransition), session_scope(store) as session:
        repo.move_samples(session, [(sid, SampleStatus.EXECUTED, SampleStatus.ACCEPTED, {}),
                                    (sid, SampleStatus.ACCEPTED, SampleStatus.PENDING, {})])
    with session_scope(store) as session:
        assert session.get(Sample, sid).status == "executed"
