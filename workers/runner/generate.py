"""Runner of stage `generate`: slots without a program -> teacher -> program rows, deduplicated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from app.synthesis import repository as repo
from workers.pipeline.grid import cached_constraints
from workers.pipeline.lifecycle import BATCH_ACTIVE, BatchStatus, ProgramStatus
from workers.pipeline.prompts import TEMPLATE_VERSION
from workers.pipeline.provenance import program_provenance
from workers.pipeline.stages.generate import GeneratedProgram, generate
from workers.runner.common import SessionFactory, batch_teacher, load_spec, record_calls, refused
from workers.runner.deps import StageDeps


def run(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    loaded = load_spec(scope, batch_id, BATCH_ACTIVE)
    if loaded is None:
        return 0
    spec, teacher_name = loaded
    with scope() as session:
        todo = [s for s in slots if s not in repo.existing_slots(session, batch_id, slots)]
        if todo and repo.batch_over_budget(session, batch_id, spec):
            repo.move_batch(session, batch_id, BatchStatus.BUDGET_EXHAUSTED, finished_at=repo.now())
            return 0
    if not todo:
        return 0
    constraints = cached_constraints(deps.catalog, spec)
    teacher = batch_teacher(scope, deps, batch_id, spec, teacher_name)
    generated = generate(teacher, [(slot, constraints[slot]) for slot in todo], spec)
    made = [g for g in generated if not refused(g.completion)]  # a slot the budget stopped stays open
    with scope() as session:
        call_ids = record_calls(session, batch_id, [(g.request, g.completion) for g in made], teacher_name, TEMPLATE_VERSION)
        repo.insert_programs(session, [_row(batch_id, g, call_ids.get(g.request.key), spec.run_seed, teacher_name)
                                       for g in made])
        repo.touch(session, batch_id)
        if len(made) < len(generated):
            repo.move_batch(session, batch_id, BatchStatus.BUDGET_EXHAUSTED, finished_at=repo.now())
        elif made and all(g.verdict.reason == "teacher_error" for g in made):
            _fail_if_teacher_never_answered(session, batch_id, teacher_name, made[0].completion.error)
        for program in repo.programs_in_slots(session, batch_id, todo, status=ProgramStatus.KEPT, variant=0):
            if program.dedup_key is None and not repo.claim_dedup(session, program.id, program.normalized_hash):
                repo.reject_program(session, program.id, "duplicate", "same normalized AST as a kept program")
    return len(todo)


def _fail_if_teacher_never_answered(session, batch_id: int, teacher_name: str, error: str | None) -> None:
    """A batch whose teacher has failed every generation call so far (down, misconfigured,
    refusing the key) ends failed with the teacher's error, instead of completing empty."""
    if repo.generation_calls_ok(session, batch_id) == 0:
        repo.move_batch(session, batch_id, BatchStatus.FAILED, finished_at=repo.now(),
                        error=f"teacher {teacher_name!r} failed every generation call: {error or 'no answer'}"[:2000])


def _row(batch_id: int, g: GeneratedProgram, call_id: int | None, seed: int, teacher_name: str) -> dict[str, Any]:
    v = g.verdict
    return {
        "batch_id": batch_id, "slot": g.slot, "variant": 0, "origin": "builtin" if teacher_name == "builtin" else "teacher",
        "teacher_call_id": call_id, "constraint_type": g.constraint.type, "constraint_method": g.constraint.method,
        "level": g.constraint.level, "requested": asdict(g.constraint.knobs), "prompt_template": TEMPLATE_VERSION,
        "provenance": program_provenance(seed, teacher=teacher_name, model=g.completion.model, prompt_template=TEMPLATE_VERSION),
        "status": v.status, "reject_reason": v.reason, "reject_detail": v.detail, "measured": v.measured,
        "source": v.code, "entry_point": v.entry_point, "call_args": v.args, "normalized_hash": v.normalized_hash,
    }
