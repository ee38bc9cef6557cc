"""Runner of stage `inputs`: kept programs without samples -> (mutants,) inputs -> pending samples."""

from __future__ import annotations

from collections.abc import Sequence

from app.synthesis import repository as repo
from workers.pipeline.arg_mutation import MUTATION_TEMPLATE_VERSION
from workers.pipeline.lifecycle import ProgramStatus, SampleStatus
from workers.pipeline.provenance import program_provenance
from workers.pipeline.stages.inputs import ProgramToSample, make_inputs, make_mutants
from workers.pipeline.naturalness.stage import ProbeUnavailable
from workers.runner.common import RetryChunk, SessionFactory, batch_teacher, load_spec, record_calls
from workers.runner.deps import StageDeps


def _view(program) -> ProgramToSample:
    return ProgramToSample(program.id, program.slot, program.variant, program.source, program.entry_point,
                           program.call_args, program.constraint_method or "")


def run(scope: SessionFactory, deps: StageDeps, batch_id: int, slots: Sequence[int]) -> int:
    loaded = load_spec(scope, batch_id)
    if loaded is None:
        return 0
    spec, teacher_name = loaded
    if spec.mutation:
        _add_mutants(scope, batch_id, slots, spec)
    with scope() as session:
        programs = repo.programs_without_samples(session, batch_id, slots)
        views = [_view(p) for p in programs]
        strata = {p.id: (p.constraint_type, p.constraint_method, p.level) for p in programs}
    if not views:
        return 0
    try:
        outcome = make_inputs(batch_teacher(scope, deps, batch_id, spec, teacher_name), deps.sandbox, views, spec)
    except ProbeUnavailable as exc:
        raise RetryChunk(str(exc)) from exc
    rows = [{
        "batch_id": batch_id, "program_id": s.program_id, "args_hash": s.args_hash, "args_source": s.args,
        "input_index": s.input_index, "input_origin": s.input_origin, "status": SampleStatus.PENDING,
        "constraint_type": strata[s.program_id][0], "constraint_method": strata[s.program_id][1],
        "level": strata[s.program_id][2],
    } for s in outcome.samples]
    with scope() as session:
        if outcome.calls:
            record_calls(session, batch_id, outcome.calls, teacher_name, MUTATION_TEMPLATE_VERSION)
        repo.insert_samples(session, rows)
        for program in outcome.unnatural:
            repo.reject_program(session, program.program_id, program.reason, program.detail)
        repo.touch(session, batch_id)
    return len(rows)


def _add_mutants(scope: SessionFactory, batch_id: int, slots: Sequence[int], spec) -> None:
    with scope() as session:
        parents = repo.programs_in_slots(session, batch_id, slots, status=ProgramStatus.KEPT, variant=0)
        have = {p.slot for p in repo.programs_in_slots(session, batch_id, slots, status=None) if p.variant > 0}
        strata = {p.id: (p.constraint_type, p.constraint_method, p.level, p.entry_point, p.call_args) for p in parents}
        views = [_view(p) for p in parents if p.slot not in have]
        rows = [{
            "batch_id": batch_id, "slot": m.slot, "variant": m.variant, "parent_id": m.parent_id, "origin": "mutation",
            "constraint_type": strata[m.parent_id][0], "constraint_method": strata[m.parent_id][1],
            "level": strata[m.parent_id][2], "requested": {}, "source": m.code, "entry_point": strata[m.parent_id][3],
            "call_args": strata[m.parent_id][4], "normalized_hash": m.normalized_hash, "status": ProgramStatus.KEPT,
            "provenance": program_provenance(spec.run_seed, mutation=m.edit, parent_id=m.parent_id),
        } for m in make_mutants(views, spec)]
        repo.insert_programs(session, rows)
        for program in repo.programs_in_slots(session, batch_id, slots, status=ProgramStatus.KEPT):
            if program.variant > 0 and program.dedup_key is None and not repo.claim_dedup(session, program.id, program.normalized_hash):
                repo.reject_program(session, program.id, "duplicate", "mutant equals a kept program")
