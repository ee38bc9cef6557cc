"""One exported item: a stored sample asked as one task, built with `training`'s own
question constructors, prompt renderer and ground-truth record (never a second format).

White-box items use the questions stored with the sample; plain I->O and O->I items are
rebuilt from the stored arguments and typed result with `training.make`, exactly as the
pipeline builds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from training import make
from training.export.jsontext import dumps_sorted
from training.export.rows import SampleRow
from training.rationale.build import compose_target, reasoning_text
from training.question_record import IO, OI, Question
from training.rewards.whitebox import score_assertion_task
from training.training_tasks import IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT, Task

# where an SFT target comes from (the dataset card counts them)
FROM_TEACHER = "teacher_solution"  # the teacher's solving completion, its answer verified
FROM_TRACE = "trace_rationale"  # reasoning written from the trace and verified against it
ANSWER_ONLY = "answer_only"  # neither passed: the gold answer block alone
TARGET_SOURCES = (FROM_TEACHER, FROM_TRACE, ANSWER_ONLY)


class ItemError(ValueError):
    """A stored sample cannot become the requested task (a data bug upstream)."""


@dataclass(frozen=True, slots=True)
class ExportItem:
    split: str
    index: int  # position in its split file
    task: Task
    row: SampleRow
    sft: tuple[str, str] | None = None  # (target, source) once computed by `with_target`

    def provenance(self) -> dict[str, Any]:
        r = self.row
        return {
            "sample_id": r.sample_id, "program_id": r.program_id, "batch_id": r.batch_id,
            "execution_id": r.execution_id, "origin": r.origin, "input_origin": r.input_origin,
            "prompt_template": r.prompt_template, "python_version": r.python_version,
            "hash_seed": r.hash_seed, "level": r.level, "difficulty_level": r.difficulty_level,
            "difficulty_score": r.difficulty_score, "constraint_type": r.constraint_type,
            "constraint_method": r.constraint_method, "solver_passes": r.solver_passes,
            "solver_k": r.solver_k,
        }

    def provenance_json(self) -> str:
        data = self.provenance()
        data["program"] = self.row.provenance or {}
        return dumps_sorted(data)

    def response(self) -> str:
        return self.target()[0]

    def with_target(self) -> ExportItem:
        return ExportItem(self.split, self.index, self.task, self.row, self.target())

    def target(self) -> tuple[str, str]:
        """The SFT assistant turn and where it comes from: the teacher's solution when it
        answers this prompt (I->O only: the teacher was asked to solve the I->O task) and
        earns the maximum; else the verified trace rationale with the gold answer block;
        else the gold answer block alone."""
        if self.sft is not None:
            return self.sft
        task = self.task
        if self.row.solution and task.task_type == IO_ONLY:
            if score_assertion_task(task, self.row.solution).score == MAX_SCORE:
                return self.row.solution, FROM_TEACHER
        parts = {(str(q["kind"]), int(q["position"])): q.get("rationale") for q in self.row.questions}
        if task.task_type == IO_WHITEBOX:
            asked = {(q.kind, q.position) for q in task.questions}
            parts = {key: text for key, text in parts.items() if key in asked}
            if len(parts) != len(asked):
                parts = {}
        reasoning = reasoning_text(task.task_type, parts)
        if reasoning:
            return compose_target(reasoning, task), FROM_TRACE
        return task.gold_answer(), ANSWER_ONLY


MAX_SCORE = 2.0


def build_task(row: SampleRow, task_type: str, style: str) -> Task:
    result = row.result
    if not isinstance(result, dict) or "repr" not in result or "type" not in result:
        raise ItemError(f"sample {row.sample_id}: execution has no typed result")
    if task_type == IO_WHITEBOX:
        stored = [Question.from_dict(q) for q in row.questions if q["kind"] != OI]
        steps = tuple(q for q in stored if q.position > 0)
        io = next((q for q in stored if q.position == 0 and q.kind == IO), None)
        questions = (io or make.io_question(row.entry_point, row.args, result), *steps)
    elif task_type == IO_ONLY:
        questions = (make.io_question(row.entry_point, row.args, result),)
    elif task_type == OUTPUT_INPUT:
        questions = (make.oi_question(row.entry_point, row.args, result),)
    else:
        raise ItemError(f"task type {task_type!r} cannot be exported from samples")
    return Task(task_type=task_type, code=row.source, entry_point=row.entry_point, args=row.args,
                result={"type": result["type"], "repr": result["repr"]}, questions=questions,
                style=style, hash_seed=int(row.hash_seed))
