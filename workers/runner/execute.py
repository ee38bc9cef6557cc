"""Runner of stage `execute`: pending samples -> sandbox (two hash seeds, traced) ->
executions + executed | rejected."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.db.session import JSONText
from app.synthesis import repository as repo
from workers.pipeline.lifecycle import SampleStatus
from workers.pipeline.provenance import PYTHON_VERSION
from workers.pipeline.stages.execute import ExecItem, execute
from workers.runner.common import RetryChunk, SessionFactory, load_spec
from workers.runner.deps import StageDeps


def run(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    loaded = load_spec(scope, batch_id)
    if loaded is None:
        return 0
    spec, _ = loaded
    with scope() as session:
        pending = [(s.id, p.id, s.args_hash, s.args_source, s.input_origin, ExecItem(str(s.id), p.source, p.entry_point, s.args_source))
                   for s, p in repo.samples_with_status(session, batch_id, slots, SampleStatus.PENDING)]
    if not pending:
        return 0
    outcomes = execute(deps.sandbox, [row[-1] for row in pending], spec.exec_policy)
    judged = [(row, outcome) for row, outcome in zip(pending, outcomes) if outcome.verdict != "error"]
    exec_rows = [{
        "program_id": program_id, "args_source": args, "args_hash": a_hash, "input_origin": origin,
        "hash_seed": run.hash_seed, "status": run.status, "result": run.result, "exception": run.exception,
        "stdout": run.stdout, "trace": None if run.trace_json is None else JSONText(run.trace_json), "duration_ms": run.duration_ms, "python_version": run.python or PYTHON_VERSION,
    } for (_, program_id, a_hash, args, origin, _), outcome in judged for run in outcome.runs]
    with scope() as session:
        ids = repo.insert_executions(session, exec_rows)  # the whole chunk in one statement
        moves = []
        for (sample_id, program_id, a_hash, _, _, _), outcome in judged:
            first = outcome.runs[0]
            values: dict[str, Any] = {"execution_id": ids.get((program_id, a_hash, first.hash_seed))}
            if outcome.verdict == "kept":
                values.update(result_chars=len((first.result or {}).get("repr", "")),
                              trace_steps=first.trace_steps)
                moves.append((sample_id, SampleStatus.PENDING, SampleStatus.EXECUTED, values))
            else:
                values.update(reject_reason=outcome.reason, reject_detail=outcome.detail)
                moves.append((sample_id, SampleStatus.PENDING, SampleStatus.REJECTED, values))
        repo.move_samples(session, moves)
        repo.reject_failed_mutants(session, batch_id, slots)
        repo.touch(session, batch_id)
    if unjudged := len(pending) - len(judged):
        raise RetryChunk(f"{unjudged} of {len(pending)} runs could not be judged (sandbox_error); retry the chunk")
    return len(pending)
