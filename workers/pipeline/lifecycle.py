"""The statuses of batches, programs and samples, and the moves allowed between them.

Every status write goes through `check_move` (the repositories compute their `WHERE status
IN (...)` guards from `sources_of`), so a status is spelled once and a transition that the
table does not allow is a bug that fails loudly instead of a silently corrupted row.
"""

from __future__ import annotations

from enum import StrEnum


class BatchStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    CANCELLED = "cancelled"
    FAILED = "failed"
    BUDGET_EXHAUSTED = "budget_exhausted"  # generation stopped; generated chunks still finish


class ProgramStatus(StrEnum):
    KEPT = "kept"
    REJECTED = "rejected"


class SampleStatus(StrEnum):
    PENDING = "pending"  # waiting for the sandbox
    EXECUTED = "executed"  # ran cleanly under both hash seeds; waiting for the judge
    ACCEPTED = "accepted"
    REJECTED = "rejected"


_B, _P, _S = BatchStatus, ProgramStatus, SampleStatus
TRANSITIONS: dict[type[StrEnum], dict[StrEnum, frozenset[StrEnum]]] = {
    BatchStatus: {
        _B.PENDING: frozenset({_B.RUNNING, _B.CANCELLED, _B.FAILED}),
        _B.RUNNING: frozenset({_B.COMPLETED, _B.CANCELLED, _B.FAILED, _B.BUDGET_EXHAUSTED}),
        _B.BUDGET_EXHAUSTED: frozenset({_B.FAILED}),
        _B.COMPLETED: frozenset(), _B.CANCELLED: frozenset(), _B.FAILED: frozenset(),
    },
    # a kept program is rejected later when it turns out to duplicate another or no input runs
    ProgramStatus: {_P.KEPT: frozenset({_P.REJECTED}), _P.REJECTED: frozenset()},
    SampleStatus: {
        _S.PENDING: frozenset({_S.EXECUTED, _S.REJECTED}),
        _S.EXECUTED: frozenset({_S.ACCEPTED, _S.REJECTED}),
        _S.ACCEPTED: frozenset(), _S.REJECTED: frozenset(),
    },
}

BATCH_ACTIVE = (BatchStatus.PENDING, BatchStatus.RUNNING)
# stages after generation keep working through a budget stop, so started chunks end cleanly
BATCH_FINISHING = (*BATCH_ACTIVE, BatchStatus.BUDGET_EXHAUSTED)
BATCH_FINISHED = (BatchStatus.COMPLETED, BatchStatus.CANCELLED, BatchStatus.FAILED, BatchStatus.BUDGET_EXHAUSTED)
SAMPLE_IN_FLIGHT = (SampleStatus.PENDING, SampleStatus.EXECUTED)


class IllegalTransition(RuntimeError):
    """A status write the lifecycle does not allow (a bug in the caller, never user input)."""


def sources_of(target: StrEnum) -> tuple[StrEnum, ...]:
    """Every status that may move to `target`."""
    table = TRANSITIONS[type(target)]
    return tuple(source for source, targets in table.items() if target in targets)


def check_move(source: StrEnum | str, target: StrEnum) -> None:
    kind = type(target)
    if target not in TRANSITIONS[kind][kind(source)]:
        raise IllegalTransition(f"{kind.__name__}: {source} -> {target} is not allowed")
