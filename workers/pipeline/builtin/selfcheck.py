"""The generator's dynamic self-check: run a draw on inputs like the ones it will get.

A draw is run, in this process, on its own call plus type-directed inputs drawn with a seed
of its own (never the pipeline's input seed, so the naturalness gate and the bench still
judge it on inputs it was not chosen on), marked as the naturalness gate's probe marks it
(branch arms, loop bodies), with each statement deleted in turn (one compiled copy: every
statement guarded by a skip index). A draw clean so far is also run with the gate's other
variants (`dynamic.instrument`): two statements of a block left out together, and each
expression that may give an operand back doing so (`int(str(n))`, `x + offset`, a
conditional expression's arms), and each normalizing call of a text or number (`w.lower()`,
`s.strip()`, `abs(n)`, `sorted(xs)`) giving its value back unchanged, which the gate does
not ask; one of those found idle on the chosen inputs that another input shows changing
something is cleared, as the gate's input swap clears it. Its findings (deletable
statements, idle expressions, a normalizing call that changes no output (`idle_target`
where it is the target's own call: a case change, strip, pad or replace,
`dynamic.TARGET_NORMALIZERS`), constant output
or, in straight code, an output all inputs but one share, an untaken branch arm, a deepest
block that never runs, an input that raises, a run longer than `MAX_STEPS` traced lines,
and, read off the code, a value a loop adds on every turn without reading what the loop
changes: `invariant.invariant_values`)
score the draw; the generator keeps the first clean draw, else the lowest score. The
programs are the generator's own templates; a loop-turn cap and a size guard on the locals
(at every loop turn, and at every line while counting steps) stop a deletion variant that
would let a value grow without bound, and `dynamic.may_give_back` a value given back that would.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from workers.pipeline.builtin.invariant import invariant_values
from workers.pipeline.inputs import InputCandidate, UnsupportedArguments, distinct_inputs, greedy_cover
from workers.pipeline.input_synthesis import synthesize_inputs
from workers.pipeline.naturalness.dynamic import (MAX_EXPRESSIONS, MAX_PAIRS, answer_mark, idle_expressions, instrument,
                                                  is_predicate, may_give_back, one_way)

CANDIDATES = 6  # type-directed inputs besides the call (the gate takes 8)
KEEP = 3  # inputs kept coverage-first, as the pipeline keeps them
NEARLY = 5  # inputs run before "all but one give the same output" counts against a draw
MAX_STEPS = 100  # traced lines per execution: the pipeline snapshots locals at each
MAX_TURNS = 400  # loop turns per run (a variant may stop a counter)
MAX_SIZE = 4000  # items of a local at a loop turn
MAX_BITS = 64  # bits of an int local at a loop turn (an int may repeat a string later)
SIZE_EVERY = 1  # loop turns between size checks: every turn (a helper that grows a list 12-fold
# a call, called twice a turn, overshot 12**8-fold in 4 turns: 2 GB, and a generator process
# was killed for memory in the 10,000-program run)
OWN_CALL_RAISES = 40  # a draw whose own call raises: worse than any other finding (untaken arms score 4 each)


@dataclass(frozen=True)
class Verdict:
    findings: tuple[str, ...]
    score: int  # 0: clean; lower is better

    @property
    def clean(self) -> bool:
        return not self.findings


def check_seed(seed: int, index: int) -> int:
    """The self-check's input seed: apart from the pipeline's `seed * 1_000_003 + slot`."""
    return -1 - (seed * 1_000_003 + index)


def _steps(function, args: tuple) -> int:  # noqa: ANN001
    """Lines of the draw executed by `function(*args)`, as the tracer would record them."""
    count = [0]

    def tracer(frame, event, arg):  # noqa: ANN001, ANN202
        if frame.f_code.co_filename != "<draw>":
            return None
        if event == "line":
            count[0] += 1
            if count[0] > MAX_STEPS * 4 or not _sizes_ok(frame):
                raise _Stop
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        function(*_fresh(args))
    except MemoryError:
        return MAX_STEPS * 8  # scored as a long run
    except Exception:  # noqa: BLE001 - an error is scored by the probe, not here
        pass
    finally:
        sys.settrace(previous)
    return count[0]


_LOOP = re.compile(r"^\s*(for|while)\b", re.M)


def _fresh(value):  # noqa: ANN001, ANN202 - a literal's containers copied (deepcopy without its memo)
    kind = type(value)
    if kind is list:
        return [_fresh(v) for v in value]
    if kind is tuple:
        return tuple(_fresh(v) for v in value)
    if kind is dict:
        return {k: _fresh(v) for k, v in value.items()}
    if kind is set:
        return set(value)  # items of a set literal are immutable
    return value


class _Stop(Exception):
    """A run past its loop-turn cap or growing a value past `MAX_SIZE`."""


_SIZED = (str, bytes, list, tuple, set, dict)


def _sizes_ok(frame) -> bool:  # noqa: ANN001 - runs at every loop turn: ints, the most common, first
    for value in frame.f_locals.values():
        if type(value) is int:
            if value.bit_length() > MAX_BITS:
                return False
        elif isinstance(value, _SIZED) and len(value) > MAX_SIZE:
            return False
    return True


@functools.lru_cache(maxsize=1024)
def _values(args: str) -> tuple:
    """The values of an argument text. Cached (a slot's draws share their type-directed
    inputs), so shared: every run takes a `_fresh` copy."""
    return ast.literal_eval(f"({args},)")


class _Runner:
    """The draw instrumented as the gate's probe instruments it (`dynamic.instrument`: arms
    marked, loop turns ticked, statement k guarded by `if __off__ != k`, an expression that
    may give an operand back doing so while `__off__` names it), run in process. Two copies
    are made: each statement left out (`full=False`), and, for a draw clean so far, pairs of
    statements and expressions too (the variants from `singles` on are the new ones)."""

    def __init__(self, code: str, entry: str, target: str = "", full: bool = False) -> None:
        # (not whether an if statement's arms give the same outputs: the flow chooses every
        # test to split the sample's inputs, and asking it cost 13% of generation time)
        # (the answer sites only where the inputs are chosen: the full copy runs variants)
        made = instrument(code, max_variants=10_000, target=target, max_expressions=MAX_EXPRESSIONS if full else 0,
                          normalizers=True, max_pairs=MAX_PAIRS if full else 0, if_arms=False, answers=not full)
        tree, self.arms, self.variants, self.within = made.tree, made.arms, made.variants, made.within
        self.statements, self.pairs, self.normalizing = made.statements, made.pairs, set(made.normalizing)
        self.own = set(made.own)
        self.singles = made.singles
        self.answers = made.answers
        self.seen: set[int] = set()
        self.turns = 0
        self.space: dict = {"__hit__": self.seen.add, "__tick__": self._tick, "__off__": -1,
                            "__probe_op__": self._op, "__probe_arm__": self._arm, "__probe_answer__": self._answer,
                            "__probe_test__": self._test, "__name__": "selfcheck"}
        exec(compile(tree, "<selfcheck>", "exec"), self.space)  # noqa: S102 - our own draw
        self.entry = self.space[entry]

    def _op(self, j: int, value, rest, kind=None):  # noqa: ANN001, ANN202 - an expression variant (dynamic.OP)
        if self.space["__off__"] != j:
            return rest(value)
        if not may_give_back(value, kind):
            raise _Stop
        return value

    def _arm(self, j: int, test, body, orelse):  # noqa: ANN001, ANN202 - a conditional expression (dynamic.ARM)
        off = self.space["__off__"]
        if off != j and off != j + 1:
            return body() if test else orelse()
        value = body() if off == j else orelse()
        if not may_give_back(value):
            raise _Stop
        return value

    def _answer(self, k: int, value):  # noqa: ANN001, ANN202 - a call of the target predicate (dynamic.ANSWER)
        if value is True or value is False:
            self.seen.add(answer_mark(k, value))
        return value

    def _test(self, k: int, test) -> bool:  # noqa: ANN001 - a conditional expression's test (dynamic.TEST)
        answer = bool(test)
        self.seen.add(answer_mark(k, answer))
        return answer

    def _tick(self) -> None:
        self.turns += 1
        if self.turns > MAX_TURNS or (self.turns % SIZE_EVERY == 0 and not _sizes_ok(sys._getframe(1))):
            raise _Stop

    def run(self, args: tuple, skip: int = -1) -> tuple[str, frozenset[int]]:
        self.seen.clear()
        self.turns = 0
        self.space["__off__"] = skip
        try:
            value = self.entry(*_fresh(args))
            return "ok:" + hashlib.sha1(repr(value).encode()).hexdigest()[:12], frozenset(self.seen)
        except Exception as exc:  # noqa: BLE001 - every failure is an outcome here
            return "error:" + type(exc).__name__, frozenset(self.seen)


def runs_on(code: str, entry: str, args: str) -> bool:
    """Whether the program returns a value on the call `args` (run in process, under the
    self-check's loop-turn and size caps)."""
    try:
        return _Runner(code, entry).run(_values(args))[0].startswith("ok:")
    except Exception:  # noqa: BLE001 - a program that does not even load does not run
        return False


def _answered(code: str, entry: str, target: str, values: list[tuple]) -> tuple[tuple[tuple[str, int], ...], set[int]]:
    """The draw's answer sites (`dynamic._Answers`) and the marks its runs on `values` made."""
    runner = _Runner(code, entry, target)
    return runner.answers, set().union(*(runner.run(v)[1] for v in values))


def target_answers(code: str, entry: str, target: str, values: list[tuple]) -> dict[int, set[bool]]:
    """The answers each call of the predicate `target` (its answer site, in the walk's
    order) gave over the runs on `values`; calls that never ran are absent."""
    sites, marks = _answered(code, entry, target, values)
    found = {k: {a for a in (False, True) if answer_mark(k, a) in marks}
             for k, (kind, _) in enumerate(sites) if kind == "target"}
    return {k: seen for k, seen in found.items() if seen}


def one_way_answers(code: str, entry: str, target: str, values: list[tuple]) -> tuple[int, int]:
    """(calls of the predicate `target`, conditional expressions' tests) that ran on `values`
    and gave one answer every time: a test that tells no input, and no item, apart."""
    sites, marks = _answered(code, entry, target, values)
    return one_way(sites, marks, "target"), one_way(sites, marks, "test")


def idle_own_calls(code: str, entry: str, inputs: list[str], target: str) -> list[str]:
    """The target's own calls (a case change, strip, pad or replace:
    `dynamic.TARGET_NORMALIZERS`) that change no output on `inputs` (each `expr ->
    operand`): what `idle_target` finds, on inputs given."""
    runner = _Runner(code, entry, target, full=True)
    values = [_values(a) for a in inputs]
    runs = [runner.run(v) for v in values]
    ok = [c for c, r in enumerate(runs) if r[0].startswith("ok:")]
    idle = _unchanged(runner, sorted(runner.own), ok, values, [r[1] for r in runs], [runs[c][0] for c in ok])
    return [runner.variants[k][1] for k in idle] if ok else []


def _unchanged(runner: _Runner, variants: Iterable[int], chosen: list[int], values: list[tuple],
               hits: list[frozenset[int]], original: list[str]) -> list[int]:
    """The variants that change no output on the chosen inputs (an input that never entered
    a variant's arm runs as it did without it)."""
    return [k for k in variants
            if all((runner.within[k] >= 0 and runner.within[k] not in hits[c]) or runner.run(values[c], k)[0] == o
                   for c, o in zip(chosen, original))]


def self_check(code: str, entry: str, args: str, seed: int, target: str = "") -> Verdict:
    """The draw's findings and score; `target`: the entry's method, whose own normalizing
    calls are not asked to change the output."""
    try:
        cands = [InputCandidate(args, "teacher")] + synthesize_inputs(args, CANDIDATES, seed=seed)
    except UnsupportedArguments:
        return Verdict(("arguments",), 100)
    inputs = [c.args for c in distinct_inputs(cands, CANDIDATES + 1)]
    runner = _Runner(code, entry, target)
    values = [_values(a) for a in inputs]
    runs = [runner.run(v) for v in values]
    outs, hits = [r[0] for r in runs], [r[1] for r in runs]
    chosen = greedy_cover(hits, outs, KEEP)
    original = [outs[c] for c in chosen]
    findings: list[str] = []
    score = 0
    repeated = invariant_values(code)  # the same value added on every turn of a loop
    if repeated:
        findings.append("loop_invariant_value")
        score += 4 * len(repeated)
    if all(o.startswith("ok:") for o in original):
        # (an input that never entered statement k's arm runs as it did without it)
        deletable = _unchanged(runner, range(runner.statements), chosen, values, hits, original)
        if deletable:
            findings.append("deletable_statement")
            score += 3 * len(deletable)
    if len(original) >= 2 and len(set(original)) == 1 and original[0].startswith("ok:"):
        findings.append("constant_output")
        score += 6
    elif not runner.arms and len(outs) >= NEARLY and max(map(outs.count, outs)) >= len(outs) - 1:
        # straight code whose output one input in seven tells apart: the pipeline's own
        # inputs (drawn with another seed) often hold none, and its kept three then share
        # one output (code with branches gets varied inputs from the coverage-first choice)
        findings.append("nearly_constant")
        score += 2
    ran = answered = set().union(*(hits[c] for c in chosen))
    arms = runner.arms
    real = [a for a in arms if a.kind != "implicit"]
    deepest = max((a.depth for a in real), default=0)
    if deepest and not any(a.mark in ran for a in real if a.depth == deepest):
        findings.append("deepest_block_unrun")
        score += 6
    untaken = sum(1 for a in arms if a.kind in ("if", "else") and a.mark not in ran)
    if untaken:
        findings.append("arm_untaken")
        score += 4 * untaken
    # a conditional expression whose test no chosen input turns: an arm in expression form.
    # Asked in code with branches only (session 30): in straight code (C1/C2) the choice is
    # how an idempotent method or a predicate nests, and redrawing those narrowed a cell's
    # shapes (850 distinct of 1,000 str.upper C1 programs, against 923)
    one_sided = one_way(runner.answers, answered, "test") if arms else 0
    if one_sided:
        findings.append("expression_arm_untaken")
        score += 4 * one_sided
    if any(o.startswith("error:") for o in outs):
        findings.append("raises")
        # on the teacher's own call (the first input) the program has no sample at all
        score += OWN_CALL_RAISES if outs[0].startswith("error:") else 5
    if "raises" in findings:  # unguarded runs only for draws the guarded runs passed
        return Verdict(tuple(findings), score)
    if not findings:  # (only a draw clean so far: the others are redrawn whatever it finds)
        full = _Runner(code, entry, target, full=True)
        found = _unchanged(full, range(full.singles, len(full.within)), chosen, values, hits, original)
        # as the gate does (`inputs.effect_swap`), another input that shows the change clears it
        ran = [c for c, o in enumerate(outs) if o.startswith("ok:") and c not in chosen]
        found = _unchanged(full, found, ran, values, hits, [outs[c] for c in ran]) if ran else found
        pairs = [k for k in found if k < full.statements]  # two statements that undo each other
        if pairs:
            findings.append("deletable_statement")
            score += 3 * len(pairs)
        idle = idle_expressions(found, full.statements, full.pairs)
        normalizing = [k for k in idle if k in full.normalizing and k not in full.own]
        own = [k for k in idle if k in full.own]
        if len(idle) > len(normalizing) + len(own):  # `int(str(n))`, `x * 2 // 2`: the gate turns it away
            findings.append("idle_expression")
            score += 3 * (len(idle) - len(normalizing) - len(own))
        if normalizing:  # `w.lower()` on words that are all lower case: a call a reader learns to skip
            findings.append("idle_normalizer")
            score += 3 * len(normalizing)
        if own:  # the same, of the method the program is about: it shows nothing of what it does
            findings.append("idle_target")
            score += 3 * len(own)
        if is_predicate(target):
            fixed = one_way(runner.answers, answered, "target")
            if fixed:  # a test of the program's own predicate that every input answers alike
                findings.append("constant_target")
                score += 3 * fixed
    if not _LOOP.search(code):
        return Verdict(tuple(findings), score)  # straight code and comprehensions: a short run
    space: dict = {"__name__": "draw"}
    exec(compile(code, "<draw>", "exec"), space)  # noqa: S102 - the generator's own program
    widest = max(range(len(inputs)), key=lambda i: len(inputs[i]))
    longest = max(_steps(space[entry], values[c]) for c in {*chosen, widest})
    if longest > MAX_STEPS:  # the pipeline may keep any of the inputs: a long run is a miss
        findings.append("long_trace")
        score += 50 + longest // MAX_STEPS
    return Verdict(tuple(findings), score)

