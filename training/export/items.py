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
from training.export.records import SampleRow
from training.records import IO, OI, Question
from training.tasks import IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT, Task


class ItemError(ValueError):
    """A stored sample cannot become the requested task (a data bug upstream)."""


@dataclass(frozen=True, slots=True)
class ExportItem:
    split: str
    index: int  # position in its split file
    task: Task
    row: SampleRow

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
        """The assistant turn for SFT: the teacher's verified solution when stored, else the
        gold answer block (which earns the maximum reward)."""
        return self.row.solution if self.row.solution else self.task.gold_answer()


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
