"""The four stages of a chunk of slots: generate -> inputs -> execute -> finish.

Each stage reads what it needs by ids, runs the pure pipeline code outside any transaction,
then writes with natural-key upserts, so running a stage twice (redelivery, crash, retry)
changes nothing. A stage only touches items in the state it owns (e.g. `execute` only
`pending` samples), which is what makes the order of retries irrelevant.
"""

from __future__ import annotations

from collections.abc import Sequence

from workers.runner.common import SandboxUnavailable, SessionFactory
from workers.runner.deps import StageDeps
from workers.runner.generation import generate, make_inputs
from workers.runner.verification import execute, finish

__all__ = ["STAGES", "SandboxUnavailable", "run_chunk", "generate", "make_inputs", "execute", "finish"]


STAGES = {"generate": generate, "inputs": make_inputs, "execute": execute, "finish": finish}


def run_chunk(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> None:
    """All four stages in order, in this process (the CLI's path; Celery runs them as a chain)."""
    for stage in STAGES.values():
        stage(scope, deps, batch_id, slots)
