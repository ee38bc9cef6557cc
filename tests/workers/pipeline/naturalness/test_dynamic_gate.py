"""The gate's probe job in the real sandbox: ablation, constant outputs, the deepest block,
coverage-first inputs, and that a variant which stops a loop advancing cannot hang it."""

from __future__ import annotations

import pytest

from sandbox import Sandbox
from workers.pipeline.inputs import InputCandidate, coverage_first
from workers.pipeline.naturalness.stage import GateItem, gate_inputs


def cands(*args: str) -> list[InputCandidate]:
    return [InputCandidate(a, "teacher" if i == 0 else "synthesized") for i, a in enumerate(args)]


def one(sb: Sandbox, code: str, *args: str, limit: int = 3, skip: tuple = ()):
    (choice,) = gate_inputs(sb, [GateItem(code, "f", cands(*args))], limit, skip)
    return choice


NATURAL = '''def f(xs, limit):
    total = 0
    for x in xs:
        if x > limit:
            total += x
        else:
            total -= 1
    return total
'''


def test_a_natural_program_passes_with_its_inputs(sb: Sandbox) -> None:
    choice = one(sb, NATURAL, "[1, 5, 9], 4", "[2], 3", "[7, 8], 1")
    assert choice.reasons == [] and [c.args for c in choice.inputs] == ["[1, 5, 9], 4", "[2], 3", "[7, 8], 1"]


def test_a_statement_no_input_needs_is_deletable(sb: Sandbox) -> None:
    code = "def f(xs):\n    out = sorted(xs)\n    out = out[:]\n    return out\n"
    choice = one(sb, code, "[3, 1]", "[2, 5, 4]")
    assert choice.reasons == ["deletable_statement"]
    assert choice.reject_reason == "unnatural_deletable_statement" and "line 3" in choice.detail


def test_an_arm_no_input_takes_is_deletable_and_the_deepest_block_unrun(sb: Sandbox) -> None:
    code = ("def f(xs):\n    total = 0\n    for x in xs:\n        if x > 100:\n"
            "            total += x\n    return total + len(xs)\n")
    choice = one(sb, code, "[1, 2]", "[3]")
    assert choice.reasons == ["deletable_statement", "deepest_block_unrun"]


def test_the_same_output_for_every_input_is_rejected(sb: Sandbox) -> None:
    code = "def f(text):\n    n = len('abc'.replace('a', 'bb'))\n    return n\n"
    assert one(sb, code, "'x'", "'yy'", "'zzz'").reasons == ["constant_output"]
    assert one(sb, code, "'x'", "'yy'", skip=("constant_output",)).reasons == []


def test_a_variant_that_stops_a_loop_advancing_ends_with_an_error(sb: Sandbox) -> None:
    code = ("def f(xs):\n    i = 0\n    total = 0\n    while i < len(xs):\n        total += xs[i]\n"
            "        i += 1\n    return total\n")
    choice = one(sb, code, "[1, 2, 3]", "[4]")
    assert choice.reasons == [] and choice.detail == ""


def test_inputs_are_chosen_for_the_arms_they_reach(sb: Sandbox) -> None:
    code = ("def f(n):\n    out = n\n    if n > 10:\n        out *= 2\n    else:\n"
            "        out += 1\n    return out\n")
    # the first three alone never take the if arm; coverage picks the candidate that does
    choice = one(sb, code, "1", "2", "3", "50", limit=2)
    assert [c.args for c in choice.inputs] == ["1", "50"] and choice.reasons == []


def test_coverage_first_keeps_distinct_values_and_prefers_new_outputs() -> None:
    picked = coverage_first(cands("[1]", "[1]", "[2]", "[3]"), [{0}, {0}, {0}, {0, 1}],
                            ["a", "a", "a", "b"], 2)
    assert [c.args for c in picked] == ["[1]", "[3]"]
    picked = coverage_first(cands("1", "2", "3"), [set(), set(), set()], ["x", "x", "y"], 2)
    assert [c.args for c in picked] == ["1", "3"]


@pytest.mark.parametrize("bad", ["def f(:\n", "def g(x):\n    return x\n"])
def test_programs_the_probe_cannot_judge_keep_their_first_inputs(sb: Sandbox, bad: str) -> None:
    choice = one(sb, bad, "1", "2")
    assert choice.reasons == [] and [c.args for c in choice.inputs] == ["1", "2"]


def test_a_value_that_grows_each_turn_costs_the_probe_a_bounded_time(sb: Sandbox) -> None:
    # each digit multiplies the list eightfold: 512 MB within a few turns, for every input
    code = ("def f(xs):\n    out = list(xs)\n    for x in xs:\n        for ch in str(x):\n"
            "            out *= 8\n    return len(out)\n")
    args = [f"[{'1' * 9}, {d}]" for d in range(2, 12)]
    from workers.pipeline.naturalness.dynamic import DRIVER, build_probe, probe_args
    from sandbox import Job
    probe = build_probe(code)
    run = sb.run(Job(id="grow", code=probe.code, entry_point=DRIVER,
                     args=probe_args(probe, "f", args, 3)))
    assert run.ok and run.cpu_ms < 2500  # JOB_CPU_S (0.5 s) and one turn past it
    outputs = eval(run.result["repr"])[3]  # noqa: S307 - the probe's own plain data
    assert all(out.startswith("error:") for out in outputs)


def test_a_variant_that_loops_far_longer_than_the_program_counts_as_a_change(sb: Sandbox) -> None:
    # without the `break` the search walks all 400 values and still finds one square root:
    # the same outputs, but a hundred times the turns on 4 and 9, which is a change
    code = ("def f(n):\n    hits = 0\n    i = 0\n    while i < 400:\n        if i * i == n:\n"
            "            hits += 1\n            break\n        i += 1\n    return hits\n")
    choice = one(sb, code, "4", "9", "5")
    assert choice.reasons == [] and choice.detail == ""


def test_a_program_no_input_of_which_the_filter_would_keep_is_turned_away(sb: Sandbox) -> None:
    # the list doubles at every turn: every candidate ends over the size cap or the CPU budget
    code = ("def f(xs):\n    out = list(xs)\n    for x in xs:\n        for ch in str(x):\n"
            "            out *= 2\n            out *= 2\n    return out\n")
    choice = one(sb, code, "[123456, 7891011, 12131415]", "[99999999, 8888888]")
    assert choice.reasons[0] == "no_viable_input"
    assert choice.reject_reason == "unnatural_no_viable_input"
    assert choice.detail.startswith("every input: ") and "probe's CPU" in choice.detail
    kept = one(sb, code, "[123456, 7891011, 12131415]", "[99999999, 8888888]", skip=("no_viable_input",))
    assert "no_viable_input" not in kept.reasons


def test_inputs_that_fail_beside_viable_ones_are_not_chosen(sb: Sandbox) -> None:
    code = "def f(xs):\n    total = 0\n    for x in xs:\n        total += 10 // x\n    return total\n"
    choice = one(sb, code, "[1, 0]", "[2, 5]", "[1, 3]")
    assert choice.reasons == [] and [c.args for c in choice.inputs] == ["[2, 5]", "[1, 3]"]


BRANCHY = '''def g(v):
    return v * 2
def f(xs, limit):
    total = 0
    kept = []
    for x in xs:
        if x > limit:
            total += x
            if x % 2:
                kept.append(x)
        elif x < 0:
            total -= g(x)
        else:
            kept.append(-x)
    return total, kept
'''


def test_a_variant_skips_the_inputs_that_never_reached_its_statement(sb: Sandbox) -> None:
    """The probe does not run a deletion on an input that never entered the statement's arm
    (it runs as it did): the findings are those of running every deletion on every input."""
    from sandbox import Job
    from workers.pipeline.naturalness.dynamic import DRIVER, build_probe, instrument, probe_args
    made = instrument(BRANCHY)
    texts = dict(zip((t for _, t in made.variants), made.within))
    arms = {a.mark: (a.kind, a.line) for a in made.arms}
    assert texts["total = 0"] == -1 and texts["for x in xs:"] == -1  # a function's top level
    assert texts["total += x"] == texts["if x % 2:"] and arms[texts["total += x"]] == ("if", 7)
    assert arms[texts["kept.append(x)"]] == ("if", 9) and arms[texts["total -= g(x)"]] == ("if", 11)
    assert arms[texts["kept.append(-x)"]] == ("else", 11) and arms[texts["if x > limit:"]][0] == "loop"
    for inputs in (["[1, 5, 9], 4", "[-3], 2", "[2], 3"], ["[7], 1", "[0], 1", "[-1, 4], 0"], ["[2, 4], 3"]):
        probe = build_probe(BRANCHY)
        every = build_probe(BRANCHY)
        every.within = [-1] * len(every.within)  # every deletion run on every kept input
        results = [sb.run(Job(id=str(k), code=p.code, entry_point=DRIVER, args=probe_args(p, "f", inputs, 3)))
                   for k, p in enumerate((probe, every))]
        assert all(r.ok for r in results)
        assert results[0].result["repr"] == results[1].result["repr"], inputs
    assert eval(results[0].result["repr"])[4]  # noqa: S307 - one input leaves statements unneeded


def test_an_input_that_shows_a_statement_is_swapped_in(sb: Sandbox) -> None:
    """The first three inputs have no blank to strip: the probe swaps in the one that has,
    so the strip is shown doing its work instead of being called dead."""
    code = "def f(word):\n    word = word.strip()\n    return word.upper()\n"
    choice = one(sb, code, "'ab'", "'cd'", "'ef'", "' gh '")
    assert choice.reasons == [] and [c.args for c in choice.inputs] == ["'ab'", "'ef'", "' gh '"]
    # with only inputs that have no blank, the statement is still deletable
    assert one(sb, code, "'ab'", "'cd'", "'ef'", "'gh'").reasons == ["deletable_statement"]


def test_effect_swap_keeps_marks_outputs_and_what_the_dropped_input_showed() -> None:
    from workers.pipeline.inputs import effect_swap

    marks = [[0], [1], [0], [0], [2]]
    outputs = ["a", "b", "c", "d", "e"]
    shows = {(0, 3), (0, 4), (1, 2)}  # (variant, input): leaving the statement out changes that output

    def differs(j: int, c: int) -> bool:
        return (j, c) in shows

    # variant 0 is deletable on 0, 1, 2; input 3 shows it and may replace 2 (whose mark 0
    # input 0 keeps) only if variant 1, which only input 2 showed, stays shown: it does not
    assert effect_swap([0, 1, 2], [0, 1, 2, 3], [0], 2, differs, marks, outputs) == ([0, 1, 2], [0])
    # input 4 shows variant 0 but dropping 1 loses mark 1: no swap either
    assert effect_swap([0, 1, 2], [0, 1, 2, 4], [0], 2, differs, marks, outputs) == ([0, 1, 2], [0])
    # without variant 1, input 3 replaces 1? no (mark 1); it replaces 2 (mark 0 kept by 0)
    assert effect_swap([0, 1, 2], [0, 1, 2, 3], [0], 1, differs, marks, outputs) == ([0, 1, 3], [])
    # the teacher's call (index 0) is never dropped, and equal outputs count against a swap
    assert effect_swap([0, 1], [0, 1, 3], [0], 1, differs, [[0]] * 4, ["a", "b", "c", "b"]) == ([0, 3], [])
    assert effect_swap([0, 1], [0, 1, 3], [0], 1, differs, [[0]] * 4, ["a", "b", "c", "a"]) == ([0, 1], [0])
    # with three kept, a swap may repeat an output while two distinct ones stay (an input
    # that differs from another in case alone shows a `.lower()`), but never down to one
    assert effect_swap([0, 1, 2], [0, 1, 2, 3], [0], 1, differs, [[0]] * 4, ["a", "b", "c", "a"]) == ([0, 2, 3], [])
    assert effect_swap([0, 1, 2], [0, 1, 2, 3], [0], 1, differs, [[0]] * 4, ["a", "a", "c", "a"]) == ([0, 2, 3], [])
    assert effect_swap([0, 1, 2], [0, 1, 2, 3], [0], 1, differs, [[0]] * 4, ["a", "b", "a", "a"]) == ([0, 1, 3], [])


def test_every_run_starts_from_the_module_state_as_loaded(sb: Sandbox) -> None:
    """A counter kept between calls made every run's output new, so no deletion looked
    deletable; each run now starts from the globals as loaded and the junk copy shows."""
    code = ("calls = 0\n\ndef f(xs):\n    global calls\n    calls += 1\n    xs = list(xs)\n    total = 0\n"
            "    for x in xs:\n        total += x\n    return total + calls\n")
    choice = one(sb, code, "[3, 1, 2]", "[5, 5, 9, 0]", "[7]", "[-4, 8, 2, 6, 1]")
    assert choice.reasons == ["deletable_statement"] and choice.detail == "line 6: xs = list(xs)"
    logged = ("seen = []\n\ndef f(xs):\n    seen.append(len(xs))\n    return sum(xs) * len(seen)\n")
    assert one(sb, logged, "[3, 1, 2]", "[5, 5, 9, 0]", "[7]").reasons == []  # (one call: the log holds one entry)


def test_a_program_that_spends_the_probes_cpu_is_not_judged_kept(sb: Sandbox) -> None:
    """Deletions the job's CPU budget left untried used to count as changes (the junk
    kept); they are now a reason of their own."""
    code = ("def f(xs):\n    xs = list(xs)\n    total = 0\n    for x in xs:\n        total += x\n"
            "    return total + sum(range(40_000_000)) % 5\n")
    choice = one(sb, code, "[3, 1, 2]", "[5, 5, 9, 0]", "[7]")
    assert choice.reasons == ["unjudged_statement"] and "line 2: xs = list(xs)" in choice.detail


# --- expressions that give an operand back, and statements that undo each other ---------

def test_a_conversion_to_the_type_a_value_has_is_an_idle_expression(sb: Sandbox) -> None:
    code = "def f(xs):\n    total = 0\n    for n in xs:\n        total += int(str(n)) * 2\n    return total\n"
    choice = one(sb, code, "[1, 5, 9]", "[2]", "[7, 8]")
    assert choice.reasons == ["idle_expression"] and choice.reject_reason == "unnatural_idle_expression"
    assert choice.detail.endswith("line 4: int(str(n)) -> n")  # the round trip
    # other round trips of a text: through its letters, its code points, an f-string
    for body in ("''.join(list(w))", "chr(ord(w[0])) + w[1:]", "f'{w}'"):
        trip = f"def f(words):\n    out = []\n    for w in words:\n        out.append({body} + '!')\n    return out\n"
        choice = one(sb, trip, "['maple', 'fig']", "['kiwi']", "['pear', 'plum']")
        assert choice.reasons == ["idle_expression"] and f"{body.split(' +')[0]} -> " in choice.detail, body
    # a text formatted alone, an int floored or rounded to whole units
    for body in ("'{}'.format(w)", "'%s' % w"):
        trip = f"def f(words):\n    out = []\n    for w in words:\n        out.append({body} + '!')\n    return out\n"
        choice = one(sb, trip, "['maple', 'fig']", "['kiwi']", "['pear', 'plum']")
        assert choice.reasons == ["idle_expression"] and f"{body} -> w" in choice.detail, body
    for body in ("n // 1", "round(n, 0)"):
        whole = f"def f(xs):\n    return [{body} * 3 for n in xs]\n"
        assert one(sb, whole, "[1, 5, 9]", "[2]", "[7, 8]").reasons == ["idle_expression"], body
        assert one(sb, whole, "[1.5, 5.25]", "[2.75]", "[7.5, 8.0]").reasons == [], body  # (floats: a use)
    # a round trip around a call that is none (`str(len(w))`) is still found
    around = "def f(words):\n    best = 0\n    for w in words:\n        best = max(best, int(str(len(w))))\n    return best\n"
    choice = one(sb, around, "['maple', 'fig']", "['kiwi']", "['pear', 'plum']")
    assert choice.reasons == ["idle_expression"] and "int(str(len(w))) -> len(w)" in choice.detail
    # a conversion the value needs (text to number) is a use
    parsed = "def f(words):\n    total = 0\n    for w in words:\n        total += int(w) * 2\n    return total\n"
    assert one(sb, parsed, "['1', '5']", "['2']", "['7', '8']").reasons == []
    # a conversion of a value of another type is never given back, whatever it feeds
    tupled = "def f(xs):\n    out = 0\n    for v in tuple(x for x in xs if x > 1):\n        out += v\n    return out\n"
    assert one(sb, tupled, "[1, 5, 9]", "[2]", "[7, 8]").reasons == []


def test_arithmetic_that_gives_its_value_back_is_an_idle_expression(sb: Sandbox) -> None:
    passthrough = ("def f(xs):\n    offset = 0\n    total = 0\n    for x in xs:\n"
                   "        total += x + offset\n    return total\n")
    choice = one(sb, passthrough, "[1, 5, 9]", "[2]", "[7, 8]")
    assert choice.reasons == ["idle_expression"] and "x + offset -> x" in choice.detail
    chain = "def f(xs):\n    best = 0\n    for x in xs:\n        best = max(best, x * 2 // 2)\n    return best\n"
    assert "x * 2 // 2 -> x" in one(sb, chain, "[1, 5, 9]", "[2]", "[7, 8]").detail
    # the same shapes doing work pass: a name that is not zero, a chain that rounds
    scaled = ("def f(xs, step):\n    total = 0\n    for x in xs:\n        total += x * step\n"
              "    return total\n")
    assert one(sb, scaled, "[1, 5, 9], 3", "[2], 2", "[7, 8], 5").reasons == []
    rounded = "def f(xs):\n    out = []\n    for x in xs:\n        out.append(x // 10 * 10)\n    return out\n"
    assert one(sb, rounded, "[15, 27]", "[3]", "[71, 8]").reasons == []


def test_a_conditional_expression_is_idle_only_when_both_arms_are(sb: Sandbox) -> None:
    same = "def f(xs):\n    return [(x if x > 2 else x) * 3 for x in xs]\n"
    choice = one(sb, same, "[1, 5, 9]", "[2]", "[7, 8]")
    assert choice.reasons == ["idle_expression"] and "x if x > 2 else x -> x" in choice.detail
    # an arm no kept input takes is an untaken arm (measured), not an idle expression
    one_sided = "def f(xs):\n    return [x if x > 0 else -x for x in xs]\n"
    assert one(sb, one_sided, "[1, 5, 9]", "[2]", "[7, 8]").reasons == []
    both = "def f(xs):\n    return [x if x > 4 else -x for x in xs]\n"
    assert one(sb, both, "[1, 5, 9]", "[2]", "[7, 8]").reasons == []


def test_an_if_statement_whose_arms_give_the_same_outputs_is_idle(sb: Sandbox) -> None:
    same = ("def f(words):\n    out = []\n    for w in words:\n        if len(w) > 3:\n            out.append(w[0])\n"
            "        else:\n            out.append(w[:1])\n    return out\n")
    choice = one(sb, same, "['maple', 'fig']", "['kiwi', 'ox']", "['pear', 'plum']")
    assert choice.reasons == ["idle_expression"] and "line 4: if len(w) > 3: -> its arm" in choice.detail
    # arms that differ pass
    differ = ("def f(words):\n    out = []\n    for w in words:\n        if len(w) > 3:\n            out.append(w[0])\n"
              "        else:\n            out.append(w[-1])\n    return out\n")
    assert one(sb, differ, "['maple', 'fig']", "['kiwi', 'ox']", "['pear', 'plum']").reasons == []


def test_a_choice_by_the_targets_own_test_is_the_targets_use(sb: Sandbox) -> None:
    code = "def f(word):\n    return (word if word.isalpha() else word[1:]).isalpha()\n"
    args = ("'maple'", "'r2d2'", "'stone'")
    (plain,) = gate_inputs(sb, [GateItem(code, "f", cands(*args))], 3)
    (targeted,) = gate_inputs(sb, [GateItem(code, "f", cands(*args), target="isalpha")], 3)
    assert plain.reasons == ["idle_expression"] and targeted.reasons == []


def test_a_helper_that_gives_its_argument_back_is_an_idle_expression(sb: Sandbox) -> None:
    identity = "def norm(v):\n    w = v\n    return w\n\ndef f(xs):\n    return [norm(x) * 2 for x in xs]\n"
    choice = one(sb, identity, "[1, 5, 9]", "[2]", "[7, 8]")
    assert choice.reasons == ["idle_expression"] and "norm(x) -> x" in choice.detail
    clamp = ("def clamp(v, lo, hi):\n    return max(lo, min(v, hi))\n\n"
             "def f(xs):\n    return [clamp(x, 0, 1000) + 1 for x in xs]\n")
    assert one(sb, clamp, "[1, 5, 9]", "[2]", "[7, 8]").reasons == ["idle_expression"]  # bounds that never bite
    # a helper doing work passes; one holding the target's use is the target's, never idled
    square = "def sq(v):\n    return v * v\n\ndef f(xs):\n    return [sq(x) + 1 for x in xs]\n"
    assert one(sb, square, "[1, 5, 9]", "[2]", "[7, 8]").reasons == []
    trim = ("def trim(w):\n    return w.removesuffix('zz')\n\n"
            "def f(words):\n    return [trim(w) + '!' for w in words]\n")
    args = ("['maple', 'fig']", "['kiwi']", "['pear', 'plum']")
    (plain,) = gate_inputs(sb, [GateItem(trim, "f", cands(*args))], 3)
    (targeted,) = gate_inputs(sb, [GateItem(trim, "f", cands(*args), target="removesuffix")], 3)
    assert plain.reasons == ["idle_expression"] and targeted.reasons == []


def test_an_except_clause_no_input_enters_is_deletable(sb: Sandbox) -> None:
    unreached = ("def f(xs):\n    out = []\n    for x in xs:\n        try:\n            out.append(x * 2)\n"
                 "        except TypeError:\n            out.append(0)\n    return out\n")
    choice = one(sb, unreached, "[1, 5, 9]", "[2]", "[7, 8]")
    assert choice.reasons == ["deletable_statement"] and choice.detail == "line 6: except TypeError:"
    # one an input enters passes; one that only raises again is deletable even so
    parse = ("def f(words):\n    out = []\n    for w in words:\n        try:\n            out.append(int(w))\n"
             "        except ValueError:\n            out.append(-1)\n    return out\n")
    assert one(sb, parse, "['1', 'x']", "['2']", "['7', '8']").reasons == []
    again = "def f(xs):\n    try:\n        return [10 // x for x in xs]\n    except ZeroDivisionError:\n        raise\n"
    assert one(sb, again, "[1, 5, 0]", "[2]", "[7, 8]").reasons == ["deletable_statement"]


def test_a_check_that_refuses_bad_input_is_shown_by_the_input_it_refuses(sb: Sandbox) -> None:
    """The execution filter drops an input that raises, so a raising check was only ever
    run on inputs it let through, and looked deletable; a candidate it refuses shows it."""
    code = ("def f(n):\n    if n < 1:\n        raise ValueError('n must be positive')\n    steps = 0\n"
            "    while n != 1:\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n        steps += 1\n    return steps\n")
    assert one(sb, code, "6", "7", "12").reasons == ["deletable_statement"]  # nothing it refuses
    choice = one(sb, code, "6", "7", "12", "0")  # without the check, 0 loops forever
    assert choice.reasons == [] and [c.args for c in choice.inputs] == ["6", "7", "12"]
    # an error the variant leaves as it was shows nothing
    junk = "def f(xs):\n    xs = list(xs)\n    return max(xs) - min(xs)\n"
    assert one(sb, junk, "[1, 5]", "[2, 9]", "[7]", "[]").reasons == ["deletable_statement"]


def test_statements_that_undo_each_other_are_deletable_together(sb: Sandbox) -> None:
    sentinel = ("def f(word):\n    seen = set()\n    seen.add('#')\n    for ch in word:\n"
                "        seen.add(ch)\n    seen.remove('#')\n    return sorted(seen)\n")
    choice = one(sb, sentinel, "'maple'", "'stone'", "'kiwi'")
    assert choice.reasons == ["deletable_statement"]
    assert "seen.add('#') / seen.remove('#')" in choice.detail
    undone = ("def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    for x in xs:\n"
              "        total -= x\n    for x in xs:\n        total += x * x\n    return total\n")
    assert one(sb, undone, "[1, 5, 9]", "[2]", "[7, 8]").reasons == ["deletable_statement"]
    assert one(sb, NATURAL, "[1, 5, 9], 4", "[2], 3", "[7, 8], 1").reasons == []


def test_a_variant_that_would_grow_a_value_past_any_size_is_stopped(sb: Sandbox) -> None:
    """Taking `3 * n + 1` on every turn makes `n` grow threefold a turn, and the helper sums a
    range of `n` numbers, which no loop turn can stop: the variant is stopped at the size
    where it would start to cost, counted as a change, and the job ends in good time."""
    code = ("def steps(n):\n    return sum(range(0, n, 3))\n"
            "def f(xs):\n    out = []\n    for x in xs:\n        n = x\n        while n > 1:\n"
            "            out.append(steps(n))\n            n = n // 2 if n % 2 == 0 else 3 * n + 1\n"
            "    return out\n")
    from sandbox import Job
    from workers.pipeline.naturalness.dynamic import DRIVER, build_probe, probe_args
    probe = build_probe(code)
    run = sb.run(Job(id="grow", code=probe.code, entry_point=DRIVER,
                     args=probe_args(probe, "f", ["[6, 7]", "[9]", "[12, 3]"], 3)))
    assert run.ok and run.cpu_ms < 5000
    assert one(sb, code, "[6, 7]", "[9]", "[12, 3]").reasons == []


def test_expression_variants_run_where_the_expression_stood() -> None:
    """Each variant evaluates the operand once and first, keeps the scope of names bound in
    a comprehension, and is filed under the innermost arm holding it; a binding inside an
    expression (`:=`) or a `super()` call is never moved into the probe's lambda."""
    from workers.pipeline.naturalness.dynamic import instrument
    code = ("def f(xs, k):\n    out = []\n    for x in xs:\n        if x > k:\n"
            "            out.append([int(str(v)) + k for v in range(x)])\n"
            "        elif (y := x * 2) > k:\n            out.append(y)\n    return out\n")
    made = instrument(code)
    texts = {t: w for (_, t), w in zip(made.variants[made.statements:], made.within[made.statements:])}
    arms = {a.mark: (a.kind, a.line) for a in made.arms}
    assert set(texts) == {"str(v) -> v", "int(str(v)) -> str(v)", "int(str(v)) -> v", "int(str(v)) + k -> int(str(v))"}
    assert all(arms[w] == ("if", 4) for w in texts.values())
    space = {"__hit__": lambda k: None, "__tick__": lambda: None, "__off__": -1,
             "__probe_op__": lambda j, v, rest, kind=None: v if space["__off__"] == j else rest(v)}
    exec(compile(made.tree, "<t>", "exec"), space)  # noqa: S102 - our own test program
    assert space["f"]([3, 1], 2) == [[2, 3, 4]]
    space["__off__"] = made.statements + list(texts).index("int(str(v)) + k -> int(str(v))")
    assert space["f"]([3, 1], 2) == [[0, 1, 2]]
    # code that ran once, at load (a module's or a class's own lines), is never a variant
    loaded = "LIMIT = int(str(5))\nclass C:\n    SIZE = int(str(2))\ndef f(x):\n    return x + LIMIT + C.SIZE\n"
    assert instrument(loaded).variants == [(5, "x + LIMIT -> x")]
