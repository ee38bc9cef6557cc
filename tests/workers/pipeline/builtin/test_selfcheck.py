"""The builtin generator's dynamic self-check, and what it buys on inputs it was not chosen on."""

from __future__ import annotations

import ast
import resource
import tracemalloc

from sandbox import Job, Sandbox
from workers.pipeline import seeds
from workers.pipeline.batch_spec import BatchSpec
from workers.pipeline.builtin import generate_program
from workers.pipeline.builtin.selfcheck import MAX_STEPS, _Runner, self_check
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.grid import batch_constraints
from workers.pipeline.input_synthesis import synthesize_inputs
from workers.pipeline.teachers import builtin as builtin_teacher

NATURAL = """def count_high(scores, limit):
    total = 0
    for pos, s in enumerate(scores):
        if s > limit:
            total += s * pos
        elif s % 2 == 0:
            total -= s
    return total
"""


def test_a_natural_program_is_clean() -> None:
    verdict = self_check(NATURAL, "count_high", "[3, 9, 1, 7, 12], 5", seed=1)
    assert verdict.clean, verdict.findings
    assert verdict.score == 0


def test_a_normalizing_call_the_data_never_needs_is_found() -> None:
    """`w.lower()` over words that are all lower case, `w.strip()` over words with no blank
    around them: the call changes no output, a reader (and a model) learns to skip it. Where
    the data needs it, or it is the entry's own method (other than a case change or a strip), it is a use; in an arm no input
    takes it is that arm's finding."""
    lowered = "def tags(words):\n    return sorted({w.strip().lower() for w in words})\n"
    verdict = self_check(lowered, "tags", "['maple', 'stone', 'river', 'maple']", seed=1)
    assert verdict.findings == ("idle_normalizer",) and verdict.score == 6  # strip and lower
    assert self_check(lowered, "tags", "['Maple', ' stone', 'River', 'maple']", seed=1).clean
    # (changed, session 29) a case change or a strip is asked even as the entry's own method:
    # `.lower()` of words that are all lower case is a use of the method that shows nothing of it
    for target in ("lower", "strip"):
        own = self_check(lowered, "tags", "['maple', 'stone', 'river', 'maple']", seed=1, target=target)
        assert own.findings == ("idle_normalizer", "idle_target") and own.score == 6
        assert self_check(lowered, "tags", "['Maple', ' stone', 'River', 'maple']", seed=1, target=target).clean
    untaken = "def shout(word):\n    if len(word) > 50:\n        return word.upper()\n    return word\n"
    findings = self_check(untaken, "shout", "'maple'", seed=2).findings
    assert "arm_untaken" in findings and "idle_normalizer" not in findings
    # a value that is not a name is computed once (`__norm__`), and still judged
    nested = "def first(words):\n    return sorted(words)[0].lower()\n"
    assert self_check(nested, "first", "['pear', 'fig', 'kiwi']", seed=3).findings == ("idle_normalizer",)
    assert self_check(nested, "first", "['Pear', 'Fig', 'kiwi']", seed=3).clean


def test_an_abs_of_numbers_never_below_zero_is_found() -> None:
    """`abs` over data with no negative number gives its argument back: idle, as a
    normalizer is; over data that has one, or as the entry's own method, it is a use."""
    walk = ("def digit_total(readings):\n    total = 0\n    for r in readings:\n        left = abs(r)\n"
            "        while left:\n            left, d = divmod(left, 10)\n            total += d\n    return total\n")
    assert self_check(walk, "digit_total", "[12, 7, 30]", seed=1).findings == ("idle_normalizer",)
    assert self_check(walk, "digit_total", "[12, -7, 30]", seed=1).clean
    assert self_check(walk, "digit_total", "[12, 7, 30]", seed=1, target="abs").clean


def test_a_statement_without_effect_is_found() -> None:
    code = NATURAL.replace("    return total", "    unused = sorted(scores)\n    scores = unused\n    return total")
    verdict = self_check(code, "count_high", "[3, 9, 1, 7, 12], 5", seed=1)
    assert "deletable_statement" in verdict.findings
    assert verdict.score > 0


def test_constant_output_and_untaken_arm_are_found() -> None:
    code = """def flag(scores):
    if len(scores) > 100:
        return 1
    return 0
"""
    verdict = self_check(code, "flag", "[1, 2, 3, 4, 5]", seed=2)
    assert {"constant_output", "arm_untaken"} <= set(verdict.findings)


def test_a_deletion_that_lets_a_value_grow_is_stopped_not_run_out() -> None:
    # deleting the re-slice doubles `word` at every turn of a loop that never ends
    code = """def grow(word):
    n = 0
    while n < len(word):
        word = word * 2
        word = word[:6]
        n += 1
    return word
"""
    verdict = self_check(code, "grow", "'abcdef'", seed=3)
    assert "raises" not in verdict.findings  # the program itself runs fine
    assert "deletable_statement" not in verdict.findings  # each deletion changes the output


def test_a_helper_that_multiplies_a_list_every_turn_is_stopped_before_it_holds_gigabytes() -> None:
    # a generic C6 draw for list.*= (seen in the 10,000-program run): each call multiplies the
    # list 12-fold and a turn may call it twice; checking sizes every 4th turn let it reach
    # 250 million items (2 GB) on [16, 68, 13, 4, 19, 45] before the check ran
    code = """def tag(scores):
    scores *= 2
    scores *= 2
    scores *= 3
    return scores
def summarize_readings(readings):
    parts = list(readings)
    for score in sorted(readings):
        for ch in str(score):
            parts = tag(parts)
            if ch not in '02468':
                parts = tag(parts)
            elif int(ch) > 4:
                parts.append(len(ch))
            else:
                parts.append(len(ch))
    return parts
"""
    runner = _Runner(code, "summarize_readings")
    tracemalloc.start()
    try:
        outcome, _ = runner.run(([16, 68, 13, 4, 19, 45],))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert outcome == "error:_Stop"
    assert peak < 64 << 20, peak  # at most one turn's growth past the cap (was 1.7 GB)


def test_a_generator_process_runs_under_a_memory_cap() -> None:
    pool = builtin_teacher._pool(1)
    try:
        soft, _ = pool.submit(resource.getrlimit, resource.RLIMIT_AS).result(timeout=120)
    finally:
        builtin_teacher.close_pools()
    assert soft != resource.RLIM_INFINITY and soft <= builtin_teacher.GENERATOR_MEMORY


def test_a_long_run_is_a_miss() -> None:
    code = """def walk(items):
    total = 0
    for a in items:
        for b in items:
            total += a * b
            total -= b
    return total
"""
    verdict = self_check(code, "walk", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", seed=4)
    assert verdict.findings == ("long_trace",)
    assert MAX_STEPS < 10 * 10 * 3


def test_builtin_outputs_vary_over_the_pipelines_own_inputs(sb: Sandbox) -> None:
    """On the inputs the pipeline draws (not the self-check's), for two seeds of a 132-program
    C1-C6 batch: almost every program gives more than one output over 4 inputs."""
    catalog = load_catalog()
    for seed in (3, 21):
        spec = BatchSpec(programs=132, levels=tuple(LEVELS), seed=seed)
        programs = [generate_program(c, seed, i, catalog) for i, c in enumerate(batch_constraints(catalog, spec))]
        jobs = []
        for i, p in enumerate(programs):
            inputs = [p.args] + [c.args for c in synthesize_inputs(
                p.args, 3, seed=seeds.input_synthesis_seed(seed, i), bounds=spec.bounds)]
            jobs += [Job(id=f"{i}:{k}", code=p.code, entry_point=p.entry_point, args=a)
                     for k, a in enumerate(inputs)]
        outputs: dict[str, set[str]] = {}
        for r in sb.run_many(jobs):
            assert r.ok, (r.id, r.exception)
            outputs.setdefault(r.id.split(":")[0], set()).add(r.result["repr"])
        constant = [k for k, outs in outputs.items() if len(outs) == 1]
        assert len(outputs) == 132
        assert len(constant) <= 132 * 0.08, [programs[int(k)].code for k in constant[:3]]


def test_synthesized_inputs_follow_the_reference_lengths() -> None:
    for cand in synthesize_inputs("[1, 2], 'ab', {3, 4}", 20, seed=9):
        items, text, tags = ast.literal_eval(f"({cand.args},)")
        assert 5 <= len(items) <= 10 and 5 <= len(text) <= 12 and 1 <= len(tags) <= 10


def test_an_output_all_inputs_but_one_share_counts_against_a_draw() -> None:
    """A draw whose output only one input in seven tells apart scores worse than one whose
    output follows the input, so the generator prefers the second."""
    nearly = """def same(items):
    return items == [1, 2, 99] or len(items) > 30
"""
    verdict = self_check(nearly, "same", "[1, 2, 99]", seed=5)
    assert verdict.findings == ("nearly_constant",) and verdict.score == 2
    varied = """def total(items):
    return sum(items) % 7
"""
    assert self_check(varied, "total", "[1, 2, 99]", seed=5).clean


def test_a_test_of_the_targets_own_predicate_that_never_tells_apart_is_found() -> None:
    """`w.isdigit()` over words none of which is a number answers False every time: the
    program's own predicate tells no item apart, and shows nothing of what it tests
    (43% of predicate targets' calls did so on the generator's data before session 29)."""
    picked = "def numbers(words):\n    return [w[::-1] for w in words if not w.isdigit()]\n"
    plain = self_check(picked, "numbers", "['apple', 'river', 'stone']", seed=4, target="isdigit")
    assert plain.findings == ("constant_target",) and plain.score == 3
    mixed = self_check(picked, "numbers", "['apple', '2024', 'stone', '90']", seed=4, target="isdigit")
    assert mixed.clean, mixed.findings
    # another method's test is judged by its arms as before, not by its answers
    assert self_check(picked, "numbers", "['apple', 'river', 'stone']", seed=4, target="").clean


def test_a_conditional_expression_whose_test_never_turns_is_found() -> None:
    """`w.count('0') if w.isdigit() else w[::-1]` over words none of which is a number
    takes one arm every time: an arm in expression form that no input shows (session 30),
    scored as an untaken arm of an if statement is. In straight code it is how a predicate
    or an idempotent method nests, and is not asked."""
    picked = ("def numbers(words):\n    out = []\n    for w in words:\n"
              "        out.append(w.count('0') if w.isdigit() else w[::-1])\n    return out\n")
    plain = self_check(picked, "numbers", "['apple', 'river', 'stone']", seed=4)
    assert plain.findings == ("expression_arm_untaken",) and plain.score == 4
    assert self_check(picked, "numbers", "['apple', '2024', 'stone', '90']", seed=4).clean
    straight = "def numbers(words):\n    return [w.count('0') if w.isdigit() else w[::-1] for w in words]\n"
    assert self_check(straight, "numbers", "['apple', 'river', 'stone']", seed=4).clean
