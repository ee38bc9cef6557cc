"""The rationale writer and verifier on real sandbox traces: a C6 program with a helper, a
loop and an early return checked line by line, long loops summarized within the length
bound, and every kind of false statement rejected."""

from __future__ import annotations

import re

import pytest

from sandbox import Job, Limits, Sandbox
from training.rationale import (
    MAX_TARGET_CHARS, RationaleError, build_rationales, compose_target, verify_forward, verify_oi,
    verify_steps, write_forward, write_oi, write_steps,
)
from training.rationale import language as L
from training.rewards import score
from training.training_tasks import IO_ONLY, IO_WHITEBOX, OUTPUT_INPUT, Task
from workers.pipeline.questions import QuestionConfig, build_oi_questions, build_questions

C6 = """def first_over(values, limit):
    for i, v in enumerate(values):
        if v > limit:
            return i
    return -1

def main(words, limit):
    sizes = [len(w) for w in words]
    pos = first_over(sizes, limit)
    if pos < 0:
        return 'none'
    return words[pos].upper()
"""
C6_ARGS = "['ab', 'abc', 'abcdef', 'x'], 2"

LONG = """def total(n):
    acc = 0
    for i in range(n):
        if i % 3 == 0:
            acc += i
        else:
            acc -= 1
    return acc
"""


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(isolation="namespaces", limits=Limits(timeout_s=5.0)) as sb:
        yield sb


def traced(sandbox, code, entry, args):
    run = sandbox.run(Job(id="r", code=code, entry_point=entry, args=args, trace=True, hash_seed=0))
    assert run.status == "ok", run
    return run.result, run.trace


def records(text):
    """(depth, line, text) of each line record, read with the language's own pattern."""
    out = []
    for raw in text.split("\n"):
        body = raw.lstrip(" ")
        m = L.LINE_RE.match(body)
        if m:
            out.append(((len(raw) - len(body)) // 2, int(m["n"]), body))
    return out


def test_c6_helper_loop_and_early_return_line_by_line(sandbox):
    result, trace = traced(sandbox, C6, "main", C6_ARGS)
    assert result["repr"] == "'ABC'"
    text = write_forward(C6, "main", C6_ARGS, result, trace, seed=1)
    assert text is not None
    verify_forward(text, C6, "main", C6_ARGS, result, trace)
    lines = text.split("\n")
    assert lines[0].endswith(f"`main({C6_ARGS})`, so `words` = `['ab', 'abc', 'abcdef', 'x']` (list), `limit` = `2` (int).")
    got = records(text)
    # main: 8, 9 (calls first_over: 2, 3, 2, 3, 4 one level deeper), 10, 12
    assert [(d, n) for d, n, _ in got] == [(0, 8), (0, 9), (1, 2), (1, 3), (1, 2), (1, 3), (1, 4), (0, 10), (0, 12)]
    by = [t for _, _, t in got]
    assert "`sizes` " in by[0] and "`[2, 3, 6, 1]` (list)" in by[0]
    assert by[1].endswith("calls `first_over`:")
    assert "`i` " in by[2] and "`0` (int)" in by[2] and "`2` (int)" in by[2] and "next item" in by[2]
    assert re.search(r"(?:is|evaluates to) False", by[3]) and "line 2" in by[3]  # 2 > 2 is False: back to the loop
    assert "`1` (int)" in by[4] and "`3` (int)" in by[4]
    assert re.search(r"(?:is|evaluates to) True", by[5]) and "line 4" in by[5]
    assert "returns `1` (int)" in by[6]  # the early return, inside the loop
    back = next(line for line in lines if line.startswith("`first_over` returns"))
    assert back.startswith("`first_over` returns `1` (int), `pos`") and "`1` (int)." in back
    assert re.search(r"(?:is|evaluates to) False", by[7]) and "line 12" in by[7]
    assert "returns `'ABC'` (str)" in by[8]
    assert lines[-1] in ("So `main(['ab', 'abc', 'abcdef', 'x'], 2)` returns `'ABC'` (str).",
                         "So the call `main(['ab', 'abc', 'abcdef', 'x'], 2)` gives `'ABC'` (str).")


@pytest.mark.parametrize("wrong, right", [
    ("`[2, 3, 6, 1]` (list)", "`[2, 3, 6, 2]` (list)"),  # one wrong value
    ("`[2, 3, 6, 1]` (list)", "`[2, 3, 6, 1]` (tuple)"),  # a wrong type
    ("returns `'ABC'` (str)", "returns `'abc'` (str)"),  # a wrong return value
    ("Line 10 (`if pos < 0:`)", "Line 11 (`if pos < 0:`)"),  # a wrong line number
    ("(`sizes = [len(w) for w in words]`)", "(`sizes = [len(w) for w in word]`)"),  # a wrong source line
    ("so line 12", "so line 11"),  # a wrong next line
])
def test_one_false_statement_is_rejected(sandbox, wrong, right):
    result, trace = traced(sandbox, C6, "main", C6_ARGS)
    text = write_forward(C6, "main", C6_ARGS, result, trace, seed=1)
    for variant in L.NEXTS:  # the next-line claim of line 10 in whichever wording it got
        text = text.replace(variant.format(m=12), "so line 12 runs next")
    assert wrong in text
    with pytest.raises(RationaleError):
        verify_forward(text.replace(wrong, right, 1), C6, "main", C6_ARGS, result, trace)


def test_flipped_branch_skipped_line_and_stray_claims_are_rejected(sandbox):
    result, trace = traced(sandbox, C6, "main", C6_ARGS)
    text = write_forward(C6, "main", C6_ARGS, result, trace, seed=1)
    lines = text.split("\n")
    flipped = re.sub(r"(is|evaluates to) False", r"\1 True", text, count=1)
    skipped = "\n".join(line for line in lines if not line.startswith("Line 10 ") and "line 10 (" not in line)
    stray = text.replace("(`if pos < 0:`):", "(`if pos < 0:`): `limit` = `3` (int),", 1)
    chatter = "\n".join([lines[0], "I think `pos` will be `7`.", *lines[1:]])
    no_end = "\n".join(lines[:-1] + [lines[-1].replace("'ABC'", "'ABD'")])
    for bad in (flipped, skipped, stray, chatter, no_end):
        assert bad != text
        with pytest.raises(RationaleError):
            verify_forward(bad, C6, "main", C6_ARGS, result, trace)


def test_long_loops_are_summarized_within_the_bound_and_the_summary_is_checked(sandbox):
    result, trace = traced(sandbox, LONG, "total", "400")
    text = write_forward(LONG, "total", "400", result, trace, seed=2)
    assert text is not None and len(text) < MAX_TARGET_CHARS
    verify_forward(text, LONG, "total", "400", result, trace)
    summary = next(line for line in text.split("\n") if L.SUMMARY_RE.match(line))
    m = L.SUMMARY_RE.match(summary)
    assert int(m["h"]) == 3 and int(m["n"]) == 400 + 1 - 2 - 3  # 401 header visits, 3 + last 2 written out
    count = m["n"]
    for bad in (summary.replace(f" {count} more", f" {int(count) - 1} more"),
                re.sub(r"`i` (=|becomes|is now|is set to) `\d+`", "`i` = `7`", summary)):
        assert bad != summary
        with pytest.raises(RationaleError):
            verify_forward(text.replace(summary, bad), LONG, "total", "400", result, trace)


def test_white_box_notes_and_targets_score_the_maximum(sandbox):
    result, trace = traced(sandbox, C6, "main", C6_ARGS)
    config = QuestionConfig(minus_one_share=1.0, nil_share=1.0)
    built = build_questions(C6, "main", C6_ARGS, result, trace, config, seed=4)
    questions = [*built.questions, *build_oi_questions("main", C6_ARGS, result).questions]
    steps = [q for q in questions if q.position > 0]
    assert steps
    notes = write_steps(C6, "main", C6_ARGS, result, trace, steps)
    verify_steps(notes, steps, C6, "main", C6_ARGS, result, trace)
    first = steps[0]
    bad = dict(notes)
    bad[first.position] = re.sub(r"the (\d+)(st|nd|rd|th) time", "the 9th time", notes[first.position])
    with pytest.raises(RationaleError):
        verify_steps(bad, steps, C6, "main", C6_ARGS, result, trace)
    made = build_rationales(C6, "main", C6_ARGS, result, trace, questions, seed=4)
    assert made.failures == {} and made.io and made.oi and set(made.steps) == {q.position for q in steps}
    typed = {"type": result["type"], "repr": result["repr"]}
    io, oi = questions[0], questions[-1]
    for task_type, qs, reasoning in (
            (IO_ONLY, (io,), made.io),
            (IO_WHITEBOX, (io, *steps), "\n".join([made.io, *(made.steps[q.position] for q in steps)]))):
        task = Task(task_type, C6, "main", C6_ARGS, typed, qs)
        target = compose_target(reasoning, task)
        assert target.startswith("<reasoning>\n") and len(target) <= MAX_TARGET_CHARS
        assert score(target, task.ground_truth()).score == 2.0
    oi_task = Task(OUTPUT_INPUT, C6, "main", C6_ARGS, typed, (oi,))
    assert score(compose_target(made.oi, oi_task), oi_task.ground_truth()).score == 2.0  # runs in the sandbox


def test_oi_reasoning_goes_back_from_the_output_and_checks_forward(sandbox):
    result, trace = traced(sandbox, LONG, "total", "7")
    text = write_oi(LONG, "total", "7", result, trace, seed=3)
    verify_oi(text, LONG, "total", "7", result, trace)
    lines = text.split("\n")
    assert lines[0] == f"We need `total(????)` to return `{result['repr']}` (int)."
    assert lines[1] == f"The function returns it at line 8 (`return acc`), so `acc` must be `{result['repr']}` (int) there."
    assert lines[2] in ("`acc` gets that value at line 5 (`acc += i`).", "`acc` gets that value at line 7 (`acc -= 1`).")
    assert lines[3] == "Try these arguments: `n` = `7` (int)." or lines[3].startswith("Try these arguments: `n` ")
    for bad in (text.replace("`7` (int).", "`8` (int).", 1), text.replace("line 8 (", "line 7 (", 1)):
        with pytest.raises(RationaleError):
            verify_oi(bad, LONG, "total", "7", result, trace)


def test_wording_is_seeded(sandbox):
    result, trace = traced(sandbox, C6, "main", C6_ARGS)
    texts = {write_forward(C6, "main", C6_ARGS, result, trace, seed=s) for s in range(6)}
    assert len(texts) > 1
    assert write_forward(C6, "main", C6_ARGS, result, trace, seed=3) == write_forward(C6, "main", C6_ARGS, result, trace, seed=3)
