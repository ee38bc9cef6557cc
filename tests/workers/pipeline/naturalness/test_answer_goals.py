"""Answer sites as coverage goals (session 30): a call of the target predicate and a
conditional expression's test mark which answer they gave, and the input choice reaches for
the answer the kept inputs lack once the arms are covered, in the probe job (real sandbox)
and in the builtin self-check."""

from __future__ import annotations

import ast

from sandbox import Job, Sandbox
from workers.pipeline.builtin.selfcheck import one_way_answers, target_answers
from workers.pipeline.inputs import InputCandidate, greedy_cover
from workers.pipeline.naturalness.dynamic import DRIVER, answer_mark, build_probe, instrument, is_predicate, probe_args
from workers.pipeline.naturalness.stage import GateItem, gate_inputs

# the output (a length, clamped for digits) does not tell the test's answer: 'abc' and
# '1234' both give 3, so outputs alone never ask for digits
CLAMPED = "def f(s):\n    return min(len(s), 3) if s.isdigit() else len(s)\n"
CANDIDATES = ["'ab'", "'abc'", "'abcd'", "'1234'"]


def test_answer_marks_are_negative_and_apart_from_every_arm() -> None:
    marks = {answer_mark(k, a) for k in range(5) for a in (False, True)}
    assert len(marks) == 10 and max(marks) == -1


def test_predicates_are_the_yes_or_no_methods() -> None:
    assert [m for m in ("isdigit", "startswith", "issubset", "is_integer", "lower", "split", "endswith")
            if is_predicate(m)] == ["isdigit", "startswith", "issubset", "is_integer", "endswith"]


def test_instrument_names_each_site_with_its_kind_and_line() -> None:
    code = ("LIMIT = 'x'.isdigit()\n\n\ndef f(ws):\n    n = 0\n    for w in ws:\n"
            "        n += 2 if w.isdigit() else 1\n    return [w for w in ws if w.startswith('a')], n\n")
    made = instrument(code, target="isdigit")
    # the module's own line runs at load, not on a call: not a site
    assert made.answers == (("target", 7), ("test", 7))
    assert instrument(code, target="startswith").answers == (("test", 7), ("target", 8))
    assert instrument(code, target="lower").answers == (("test", 7),)  # not a predicate: its calls are no site
    assert instrument(code, target="isdigit", answers=False).answers == ()


def test_greedy_cover_takes_arms_first_then_two_outputs_then_answers() -> None:
    # item 1 reaches a new arm, item 2 only new answers: the arm wins
    assert greedy_cover([{0}, {0, -2}, {0, 1}], ["a", "b", "c"], 2) == [0, 2]
    # no new arm anywhere: a second output before a new answer while fewer than 2 are kept
    assert greedy_cover([{0, -1}, {0, -2}, {0, -1}], ["a", "a", "b"], 2) == [0, 2]
    # two outputs kept (item 1 for its arm): the new answer before a third output
    assert greedy_cover([{0, -1}, {0, 1, -1}, {0, -1}, {0, -2}], ["a", "b", "c", "b"], 3) == [0, 1, 3]
    # without answer marks the choice is the one before session 30: arms, then new outputs
    assert greedy_cover([{0}, {0}, {0}, {0}], ["a", "b", "b", "c"], 3) == [0, 1, 3]


def _kept(sb: Sandbox, answers: bool) -> list[str]:
    probe = build_probe(CLAMPED, target="isdigit", answers=answers)
    (result,) = sb.run_many([Job(id="p", code=probe.code, entry_point=DRIVER,
                                 args=probe_args(probe, "f", CANDIDATES, 3))])
    assert result.ok, result
    return [CANDIDATES[c] for c in ast.literal_eval(result.result["repr"])[2]]


def test_the_probe_keeps_an_input_for_the_answer_no_kept_input_gave(sb: Sandbox) -> None:
    # before: the teacher's call, then new outputs in order; all three answer "no"
    assert _kept(sb, answers=False) == ["'ab'", "'abc'", "'abcd'"]
    # now: the digits, whose output 3 another kept input could give, are kept for their "yes"
    assert _kept(sb, answers=True) == ["'ab'", "'abcd'", "'1234'"]
    item = GateItem(CLAMPED, "f", [InputCandidate(a, "teacher" if i == 0 else "synthesized")
                                   for i, a in enumerate(CANDIDATES)], target="str.isdigit")
    (choice,) = gate_inputs(sb, [item], 3)
    assert [c.args for c in choice.inputs] == ["'ab'", "'abcd'", "'1234'"] and choice.reasons == []


def test_the_self_check_reads_answers_per_site() -> None:
    values = [("ab",), ("abc",), ("abcd",)]
    assert target_answers(CLAMPED, "f", "isdigit", values) == {0: {False}}
    assert one_way_answers(CLAMPED, "f", "isdigit", values) == (1, 1)
    assert one_way_answers(CLAMPED, "f", "isdigit", values + [("1234",)]) == (0, 0)
    # a site that never ran is absent, not one way
    guarded = "def f(s):\n    if s:\n        return s.isdigit()\n    return False\n"
    assert target_answers(guarded, "f", "isdigit", [("",)]) == {}
    assert one_way_answers(guarded, "f", "isdigit", [("",)]) == (0, 0)


def test_a_second_output_outranks_an_arm_when_the_arms_fill_every_place() -> None:
    """Three arms for three places, each reached by an input giving False: the kept inputs
    would agree. An input giving True in the teacher's arm takes the place of the one whose
    arm is least missed (the later of two that each reach one arm alone)."""
    marks = [{0, -1}, {1, -1}, {2, -1}, {0, -2}]
    outputs = ["False", "False", "False", "True"]
    assert greedy_cover(marks, outputs, 3) == [0, 1, 3]
    # where no item gives another output, the arms stay
    assert greedy_cover(marks[:3], outputs[:3], 3) == [0, 1, 2]
    # the teacher's call is never the one to go
    assert 0 in greedy_cover([{0}, {1}, {0}], ["a", "a", "b"], 2)
