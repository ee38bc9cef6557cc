"""The status tables: every move a stage makes is allowed, and nothing leaves a final state."""

from __future__ import annotations

import pytest

from workers.pipeline.lifecycle import (
    BATCH_FINISHED,
    BatchStatus,
    IllegalTransition,
    ProgramStatus,
    SampleStatus,
    check_move,
    sources_of,
)


def test_sources_of_each_batch_status() -> None:
    assert sources_of(BatchStatus.RUNNING) == (BatchStatus.PENDING,)
    assert set(sources_of(BatchStatus.CANCELLED)) == {BatchStatus.PENDING, BatchStatus.RUNNING}
    assert set(sources_of(BatchStatus.FAILED)) == {BatchStatus.PENDING, BatchStatus.RUNNING, BatchStatus.BUDGET_EXHAUSTED}
    assert sources_of(BatchStatus.COMPLETED) == (BatchStatus.RUNNING,)


def test_final_states_are_final() -> None:
    for status in (BatchStatus.COMPLETED, BatchStatus.CANCELLED, BatchStatus.FAILED):
        assert status in BATCH_FINISHED
        for target in BatchStatus:
            with pytest.raises(IllegalTransition):
                check_move(status, target)
    for target in SampleStatus:
        with pytest.raises(IllegalTransition):
            check_move(SampleStatus.ACCEPTED, target)


def test_the_pipeline_s_sample_moves_are_allowed_and_others_are_not() -> None:
    check_move("pending", SampleStatus.EXECUTED)
    check_move(SampleStatus.EXECUTED, SampleStatus.ACCEPTED)
    check_move(ProgramStatus.KEPT, ProgramStatus.REJECTED)
    with pytest.raises(IllegalTransition, match="pending -> accepted"):
        check_move(SampleStatus.PENDING, SampleStatus.ACCEPTED)
    with pytest.raises(IllegalTransition):
        check_move(ProgramStatus.REJECTED, ProgramStatus.KEPT)
