"""Writing, verifying and composing the reasoning of a sample's SFT targets.

`build_rationales` runs in the pipeline where questions are built: it writes the forward
account (I->O), one note per white-box question and the O->I reasoning, verifies each
against the trace, composes each target exactly as the export will (`compose_target`) and
keeps a part only when its composed target scores the maximum with `training.rewards` and
fits the length bound. A part that fails anything is None: it is never used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from training.kinds import literal_args
from training.rationale.reading import Unreadable, read
from training.rationale.verify import RationaleError, verify_forward, verify_oi, verify_steps
from training.rationale.write import MAX_TARGET_CHARS, write_forward, write_oi, write_steps
from training.question_record import IO, OI, Question
from training.rewards.whitebox import score_assertion_task
from training.training_tasks import IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT, Task
from training.values import values_equal

MAX_SCORE = 2.0


@dataclass(frozen=True)
class RationaleSet:
    """Verified reasoning per question: the io and oi rows hold their task's account, each
    step row its note (all or none of the steps). `failures` says why a part is missing."""

    io: str | None = None
    oi: str | None = None
    steps: dict[int, str] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)

    def for_question(self, question: Question) -> str | None:
        if question.position == 0:
            return self.io if question.kind == IO else self.oi if question.kind == OI else None
        return self.steps.get(question.position)


def reasoning_text(task_type: str, rationales: dict[tuple[str, int], str | None]) -> str | None:
    """The reasoning of one task from stored parts ((kind, position) -> text), or None."""
    if task_type == OUTPUT_INPUT:
        return rationales.get((OI, 0))
    io = rationales.get((IO, 0))
    if io is None or task_type == IO_ONLY:
        return io
    if task_type != IO_WHITEBOX:
        return None
    notes = [(pos, text) for (kind, pos), text in rationales.items() if pos > 0]
    if any(text is None for _, text in notes):
        return None
    return "\n".join([io, *(text for _, text in sorted(notes))])  # type: ignore[misc]


def compose_target(reasoning: str, task: Task) -> str:
    """The assistant turn: the prompt's `<reasoning>` block, then the gold answer block."""
    return f"<reasoning>\n{reasoning}\n</reasoning>\n{task.gold_answer()}"


def _stored_runner(args: str, result: dict[str, Any]):
    """O->I grading for the stored input: the stored, twice-run execution is the run of it
    (any other input is not one the rationale proposes, so it is not run here)."""
    stored = literal_args(args)

    def run(code: str, entry: str, call_args: str, hash_seed: int) -> dict | None:
        got = literal_args(call_args)
        if stored is None or got is None or not values_equal(got, stored):
            return None
        return result

    return run


def _scores_max(reasoning: str, task: Task, runner=None) -> str | None:
    target = compose_target(reasoning, task)
    if len(target) > MAX_TARGET_CHARS:
        return "target too long"
    got = score_assertion_task(task, target, runner=runner)
    return None if got.score == MAX_SCORE else f"target scores {got.score}, not {MAX_SCORE}"


def build_rationales(code: str, entry: str, args: str, result: dict[str, Any], trace: dict[str, Any] | None,
                     questions: Sequence[Question], seed: int = 0) -> RationaleSet:
    typed = {"type": result.get("type"), "repr": result.get("repr")}
    io_q = next((q for q in questions if q.kind == IO and q.position == 0), None)
    oi_q = next((q for q in questions if q.kind == OI and q.position == 0), None)
    steps = tuple(sorted((q for q in questions if q.position > 0), key=lambda q: q.position))
    failures: dict[str, str] = {}
    io_text = oi_text = None
    notes: dict[int, str] = {}
    written: dict[int, str] | None = None
    try:
        reading = read(code, entry, args, result, trace)
    except Unreadable as exc:
        return RationaleSet(failures={"trace": str(exc)})
    if io_q is not None:
        io_task = Task(IO_ONLY, code, entry, args, typed, (io_q,))
        budget = MAX_TARGET_CHARS - len(compose_target("", io_task))
        written = write_steps(code, entry, args, result, trace, steps, reading) if steps else None
        wb_task = Task(IO_WHITEBOX, code, entry, args, typed, (io_q, *steps))
        if written is not None:
            notes_chars = sum(len(written[q.position]) + 1 for q in steps)
            budget = min(budget, MAX_TARGET_CHARS - len(compose_target("", wb_task)) - notes_chars)
        io_text = write_forward(code, entry, args, result, trace, seed, budget, reading=reading)
        try:
            if io_text is None:
                raise RationaleError("could not be written")
            verify_forward(io_text, code, entry, args, result, trace, reading)
            problem = _scores_max(io_text, io_task)
            if problem:
                raise RationaleError(problem)
        except RationaleError as exc:
            failures["io"], io_text = str(exc), None
    if io_text is not None and steps:
        try:
            if written is None:
                raise RationaleError("could not be written")
            verify_steps(written, list(steps), code, entry, args, result, trace, reading)
            problem = _scores_max("\n".join([io_text, *(written[q.position] for q in steps)]), wb_task)
            if problem:
                raise RationaleError(problem)
            notes = written
        except RationaleError as exc:
            failures["steps"] = str(exc)
    if oi_q is not None:
        oi_task = Task(OUTPUT_INPUT, code, entry, args, typed, (oi_q,))
        oi_text = write_oi(code, entry, args, result, trace, seed + 1, MAX_TARGET_CHARS - len(compose_target("", oi_task)),
                           reading=reading, forward=io_text)
        try:
            if oi_text is None:
                raise RationaleError("could not be written")
            verify_oi(oi_text, code, entry, args, result, trace, reading, verified_forward=io_text)
            problem = _scores_max(oi_text, oi_task, _stored_runner(args, typed))
            if problem:
                raise RationaleError(problem)
        except RationaleError as exc:
            failures["oi"], oi_text = str(exc), None
    return RationaleSet(io_text, oi_text, notes, failures)
