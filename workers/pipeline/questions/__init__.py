"""Pipeline stage: turn an accepted sample's trace into questions with exact answers.

Pure: code, entry point, arguments, the typed result and the sandbox trace in; a
QuestionSet out (kept with its questions, or rejected with a machine-readable reason). Every
gold answer is checked with the same grader the rewards use before it is kept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from training import make
from training.answers import holds_answer_tag, is_open
from training.kinds import GradeContext, grade_question
from training.question_record import Question
from training.trace.source_map import LOOP_KINDS, SourceMap, source_map_of
from training.trace.visits import LEAVES, read_visits
from training.values import NotALiteral, canonical_type, parse_literal
from workers.pipeline.questions.candidates import (
    NextLineCandidate, VariableCandidate, input_dependent_names, never_run_lines,
    next_line_candidates, variable_candidates,
)
from workers.pipeline.questions.choosing import choose, spread

__all__ = ["QuestionConfig", "QuestionSet", "build_questions", "build_oi_questions"]


@dataclass(frozen=True)
class QuestionConfig:
    """Caps per sample (the reference asks up to 5 next-statement + 5 variable questions)
    and the limits on constant answers (-1 and Nil): at most `max_never_run` per kind and
    sample, asked so that their expected share of the kind's questions over a batch stays
    at `minus_one_share` (next line) and `nil_share` (variable). `min_lines`: programs
    without a loop need this many non-blank lines to get white-box questions (the paper's
    eligibility)."""

    max_next_line: int = 5
    max_variable: int = 5
    max_coverage: int = 0
    max_never_run: int = 1  # per kind
    minus_one_share: float = 0.08
    nil_share: float = 0.025
    min_lines: int = 5

    def __post_init__(self) -> None:
        for name in ("max_next_line", "max_variable", "max_coverage", "max_never_run", "min_lines"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0")
        for name in ("minus_one_share", "nil_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1]")


@dataclass(frozen=True)
class QuestionSet:
    status: str  # "kept" | "rejected"
    questions: tuple[Question, ...] = ()
    reason: str | None = None  # machine-readable, for rejected sets
    stats: dict[str, Any] = field(default_factory=dict)


def _check_result(result: Any, args: str) -> str | None:
    if not isinstance(result, dict) or "repr" not in result or "type" not in result:
        return "result_missing"
    if holds_answer_tag(str(result["repr"])) or holds_answer_tag(args):
        return "answer_tag_in_value"  # (the gold assertion would close its own answer block)
    if result.get("truncated"):
        return "result_truncated"
    try:
        parse_literal(str(result["repr"]))
    except NotALiteral:
        return "result_not_literal"
    return None


def build_oi_questions(entry_point: str, args: str, result: dict[str, Any]) -> QuestionSet:
    """The output->input task: one `assert f(????) == <result>` question."""
    reason = _check_result(result, args)
    if reason:
        return QuestionSet("rejected", reason=reason)
    return QuestionSet("kept", (make.oi_question(entry_point, args, result),))


def build_questions(code: str, entry_point: str, args: str, result: dict[str, Any],
                    trace: dict[str, Any] | None, config: QuestionConfig = QuestionConfig(),
                    seed: int = 0) -> QuestionSet:
    """The I->O question plus white-box questions chosen from `trace` (seeded)."""
    reason = _check_result(result, args)
    if reason:
        return QuestionSet("rejected", reason=reason)
    io = make.io_question(entry_point, args, result)
    if not trace or not isinstance(trace.get("steps"), list):
        return QuestionSet("rejected", (io,), reason="trace_missing")
    try:
        smap = source_map_of(code)
    except SyntaxError:
        return QuestionSet("rejected", (io,), reason="code_not_parsable")
    log = read_visits(trace["steps"], smap)
    if trace.get("truncated"):
        log.complete = False
    rng = random.Random(seed)
    steps: list[Question] = []
    next_cands: list[NextLineCandidate] = []
    var_cands: list[VariableCandidate] = []
    if whitebox_eligible(code, smap, config.min_lines):
        tainted = input_dependent_names(smap)
        next_cands = next_line_candidates(smap, log, tainted)
        var_cands = variable_candidates(smap, log, tainted)
    picked_next = choose(next_cands, config.max_next_line, config.max_never_run, config.minus_one_share, rng,
                         lambda c: c.constant, lambda c: c.line, lambda c: c.priority)
    picked_var = choose(var_cands, config.max_variable, config.max_never_run, config.nil_share, rng,
                        lambda c: c.constant, lambda c: c.line, lambda c: c.priority)
    ordered_next = sorted(picked_next, key=lambda c: (c.line, c.visit))
    ordered_var = sorted(picked_var, key=lambda c: (c.line, c.visit, c.variable))
    for cand in ordered_next:
        steps.append(_next_question(len(steps) + 1, cand, smap))
    for cand in ordered_var:
        steps.append(_variable_question(len(steps) + 1, cand, smap))
    if config.max_coverage and (next_cands or var_cands):
        steps.extend(_coverage_questions(len(steps), config.max_coverage, smap, log, rng))
    if not grade_question(io.gold_answer, io, GradeContext(entry_point)):
        return QuestionSet("rejected", reason="gold_answer_ungradable")
    steps = _verified(steps, entry_point)
    stats = {"next_line_candidates": len(next_cands), "variable_candidates": len(var_cands),
             "trace_complete": log.complete}
    return QuestionSet("kept", (io, *steps), stats=stats)


def whitebox_eligible(code: str, smap: SourceMap, min_lines: int) -> bool:
    """The paper asks white-box questions of programs with a loop or at least 5 lines."""
    if any(stmt.kind in LOOP_KINDS for stmt in smap.statements.values()):
        return True
    return sum(1 for line in code.split("\n") if line.strip()) >= min_lines


def _next_question(position: int, cand: NextLineCandidate, smap: SourceMap) -> Question:
    source = smap.statements[cand.line].source
    target_source = None if cand.next_line == LEAVES else smap.statements[cand.next_line].source
    return make.next_line_question(position, cand.line, source, cand.visit, cand.next_line, target_source)


def _variable_question(position: int, cand: VariableCandidate, smap: SourceMap) -> Question:
    typed = None
    if cand.typed is not None:
        typed = {"type": canonical_type(cand.typed["type"]), "repr": cand.typed["repr"]}
    return make.variable_question(position, cand.line, smap.statements[cand.line].source,
                                  cand.visit, cand.variable, typed)


def _coverage_questions(start: int, cap: int, smap: SourceMap, log, rng: random.Random) -> list[Question]:
    never = set(never_run_lines(smap, log))
    ran = [line for line in sorted(log.by_line) if smap.statements[line].askable]
    lines = spread([(line, False) for line in never], (cap + 1) // 2, rng, lambda c: c[0])
    lines += spread([(line, True) for line in ran], cap - len(lines), rng, lambda c: c[0])
    return [make.coverage_question(start + i, line, smap.statements[line].source, executed)
            for i, (line, executed) in enumerate(sorted(lines), 1)]


def _verified(steps: list[Question], entry_point: str) -> list[Question]:
    """Keep only questions whose gold answer survives the shared parser and grader, then
    renumber 1..n."""
    ctx = GradeContext(entry_point)
    kept = [q for q in steps
            if "\n" not in q.gold_answer and not is_open(q.gold_answer) and not holds_answer_tag(q.gold_answer)
            and grade_question(q.gold_answer, q, ctx)]
    return [Question(q.kind, i, q.line, q.visit, q.variable, q.text, q.gold_answer, q.payload)
            for i, q in enumerate(kept, 1)]
