"""generate_program: a constraint, a seed and an index in; a program that satisfies the
constraint by construction out.

Every random choice comes from one `random.Random` seeded by a string of (seed, index,
constraint, attempt) (string seeds hash with SHA-512, so no PYTHONHASHSEED dependence). The
static check and the naturalness gate's static rules are the generator's own acceptance
test: a draw whose measured structure misses the request, or that has a dead store, a trick
or a repeated test, is redrawn with the next attempt number, so the result is still a pure
function of the inputs.
"""

from __future__ import annotations

import ast
import functools
import random
import re
from dataclasses import dataclass, replace

from workers.pipeline.builtin.compact import build_compact
from workers.pipeline.builtin.context import CASE_METHODS, PADS, PEELS, Ctx, peel_layers, program_text
from workers.pipeline.builtin.defaults import default_then_set
from workers.pipeline.builtin.fit import statically_fit
from workers.pipeline.builtin.extras import glue, other_step
from workers.pipeline.builtin.flow import WORKABLE, Flow, Var
from workers.pipeline.builtin.forms_str import PADS
from workers.pipeline.builtin.idiom_scenes import SCENE_DEPTHS, SCENE_SHARE, build_scene
from workers.pipeline.builtin.idioms import build_idiom
from workers.pipeline.builtin.piece import Piece
from workers.pipeline.builtin.registry import form_for, subject_type
from workers.pipeline.builtin.selfcheck import Verdict, check_seed, self_check
from workers.pipeline.builtin import straight_builtins
from workers.pipeline.builtin.straight_shapes import combine, prep
from workers.pipeline.constraints.catalog import Catalog, Entry, load_catalog
from workers.pipeline.constraints.levels import validate_knobs, with_blueprint
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.naturalness.static import IDEMPOTENT

MAX_ATTEMPTS = 24
MAX_CHECKED = 12  # draws run through the self-check before the best one is kept
STRAIGHT_RESCUES = 6  # C1/C2: idiom draws tried when no generic draw passed the self-check
IDLE_PATIENCE = 2  # checked draws before one whose only finding is an idle normalizer is kept
DEEP_CALLS = 5  # calls nested in one line that make a draw be drawn again: 2 of 77,000 stdlib lines
DEEP_PATIENCE = 4  # the last attempts take such a draw rather than none (every draw of some cells is deep)
LONG_LINE = 100  # characters of a line that make a draw be drawn again: 243 of 257,000 stdlib lines
LONG_TRIES = 6  # the attempts that draw such a draw again (a cell whose every draw is long spends no more)
IDIOM_SHARE = 1.0  # draws that try the idiom library first (it declines entries and draws it cannot write)
ENTRY_NAMES = {
    "str": ("clean_text", "summarize", "encode_label", "scan_text", "format_name", "tokenize",
            "count_letters", "build_slug", "parse_line", "mask_text"),
    "list": ("score_items", "tally_scores", "collect_values", "summarize_readings",
             "filter_numbers", "rank_scores", "merge_counts", "process_batch"),
    "set": ("update_tags", "track_visits", "merge_ids", "check_members", "filter_ids",
            "collect_tags"),
    "dict": ("restock", "count_votes", "update_totals", "summarize_stock", "merge_tallies",
             "audit_inventory"),
    "tuple": ("measure", "describe_point", "compare_records", "summarize_sizes", "check_dims"),
    "float": ("adjust_price", "convert_rate", "round_amount", "apply_discount", "bucket_value"),
    "int": ("walk_range", "count_steps", "build_sequence", "sum_range"),
}
# str predicates: a first input on the side that inputs of its shape rarely take, so the
# outputs differ across inputs (type-directed inputs reuse the example's alphabet)
PREDICATE_INPUTS = {
    "isdigit": ("2024", "4711", "90"), "isdecimal": ("2024", "365"), "isnumeric": ("1999", "42"),
    "isupper": ("NORTH", "OK", "RIVER"), "istitle": ("Maple", "Stone", "Delta"),
    "isspace": ("   ", "\t "), "isalpha": ("maple42", "r2d2"), "isalnum": ("north-4", "a_b"),
    "isidentifier": ("2nd_item", "9lives"), "isprintable": ("tab\tsep", "a\nb"),
    "isascii": ("café", "naïve"), "islower": ("Maple", "sTone"),
}
# methods whose second use on their own result changes nothing: idempotent ones, and pads
# (`tail = rest.ljust(10)` then `tail.ljust(5)`: the text is already wider)
SETTLED = IDEMPOTENT | set(PADS)
# a helper is named for what it gives back (a `check` that returns a price reads wrong)
HELPER_NAMES_BY_RESULT = {
    "bool": ("check", "is_valid", "passes", "qualifies"),
    "int": ("score", "weigh", "measure_one", "count_in"),
    "float": ("score", "weigh", "rate_of", "adjusted"),
    "str": ("normalize", "tag", "convert", "clean", "render"),
}
HELPER_NAMES_OTHER = ("pick", "transform", "clip", "select")  # collections
HELPER_NAMES = tuple(dict.fromkeys(n for names in (*HELPER_NAMES_BY_RESULT.values(), HELPER_NAMES_OTHER)
                                   for n in names))
@dataclass(frozen=True)
class GeneratedProgram:
    code: str  # imports and functions; no print call
    entry_point: str
    args: str  # the exact text between the parentheses of the entry call
    attempts: int = 1
    matches: bool = True  # the static check accepted it (False only if every attempt missed)
    family: str = "generic"  # which builder wrote it: scene | idiom | compact | generic

    @property
    def call(self) -> str:
        return f"print({self.entry_point}({self.args}))"


@functools.lru_cache(maxsize=1)
def _default_catalog() -> Catalog:
    return load_catalog()


def _banned(entry: Entry) -> set[str]:
    """Call names the glue/other steps must avoid so they do not count as the target."""
    name = entry.syntax.name.split(".")[-1]
    return {name, entry.method.removesuffix("()")}


def _probe(form, allow_calls: bool) -> Piece:  # noqa: ANN001
    """What the form returns (result type, statement or not), from a throwaway context."""
    return form(Ctx(random.Random(0), allow_calls), "x", 1)


def _helper(g: Ctx, form, subject: str, rng: random.Random,  # noqa: ANN001
            nest: int, banned: frozenset[str] | set[str] = frozenset(),
            ) -> tuple[list[str], str, list[str], tuple[list[str], str]]:
    """A helper doing the sub-task the target names: its own parameters only. Some report
    the size of what they build (the caller then takes a number), a str helper may do it
    word by word or letter by letter in one comprehension (`_per_item`). No parameter has a
    default: the parsing rules reject them (`default_args`), so the generator never writes
    one; a literal argument may be passed by name instead. Word by word, the words may be
    taken case set aside (`.lower().split()`) unless `lower` is the target (`banned`)."""
    hg = Ctx(rng, g.allow_calls, used=g.used, imports=g.imports, max_params=2)
    r = hg.param("float" if subject == "flist" else subject)
    each = subject == "str" and rng.random() < 0.5  # the sub-task word by word (or letter by letter)
    roll = rng.random()
    if roll < 0.45 or (roll < 0.65 and "lower" in banned):
        words = f"{r}.split()"
    elif roll < 0.65:
        words = f"{r}.lower().split()"
    else:
        words = r  # letter by letter
    item = r
    if each:
        free = [n for n in (("word", "part", "token", "piece") if words != r else ("ch", "letter", "c"))
                if n not in g.used]
        item = rng.choice(free) if free else hg.fresh("elem:word" if words != r else "elem:char")
        g.used.add(item)
    hg.avoid = {item}
    piece = form(hg, item, nest)
    if each and (piece.pre or piece.stmt):  # statements do not fit a comprehension: the whole text
        each = False
        piece = Piece(re.sub(rf"\b{item}\b", r, piece.expr), piece.rtype,
                      [re.sub(rf"\b{item}\b", r, line) for line in piece.pre], piece.stmt)
    body = [f"    {line}" for line in piece.pre]
    rtype = piece.rtype
    if each:
        line, rtype = _per_item(rng, piece.expr, rtype, item, words)
        body += [f"    return {line}"]
    elif piece.stmt:
        body += [f"    {piece.expr}", f"    return {r}"]
    elif rtype not in ("int", "float", "bool") and rng.random() < 0.4:
        # an empty input has nothing to measure: some helpers say so first
        guard = rng.random() < 0.3
        body += [f"    return len({piece.expr}) if {r} else 0" if guard else f"    return len({piece.expr})"]
        rtype = "int"
    elif rtype == "float" and rng.random() < 0.3:
        body += [f"    return round({piece.expr}, 2)"]  # a price or rate, to the cent
    else:
        body += [f"    return {piece.expr}"]
    fitting = [n for n in HELPER_NAMES_BY_RESULT.get(rtype, HELPER_NAMES_OTHER) if n not in g.used]
    name = rng.choice(fitting or [n for n in HELPER_NAMES if n not in g.used])
    g.used.add(name)
    head = f"def {name}({', '.join(q.name for q in hg.params)}):"
    sig = ([q.name for q in hg.params], rtype)
    return [head, *body], name, [q.type for q in hg.params], sig


def _per_item(rng: random.Random, expr: str, rtype: str, item: str, words: str) -> tuple[str, str]:
    """A helper's result built from the target's use on each item of `words`: the parts
    joined, whether any (all) holds, their total, else the total of their sizes (a list of
    them, which callers took the `len` of, threw the values away)."""
    each = f"{expr} for {item} in {words}"
    if rtype == "str":
        return f"{rng.choice((' ', '', '-', ', '))!r}.join({each})", "str"
    if rtype == "bool":
        return f"{rng.choice(('any', 'all'))}({each})", "bool"
    if rtype in ("int", "float"):
        return f"sum({each})", rtype
    return f"sum(len({expr}) for {item} in {words})", "int"


_COMBINE = {
    "int": ("{a} + {b}", "{a} - {b}", "{a} * {b}"), "float": ("{a} + {b}", "{a} - {b}"),
    "str": ("{a} + {sep} + {b}", "{a} + {b}"), "bool": ("{a} and {b}", "{a} or {b}", "{a} != {b}"),
    "list": ("{a} + {b}",), "tuple": ("{a} + {b}",), "set": ("{a} | {b}", "{a} & {b}", "{a} - {b}"),
    "dict": ("{a} | {b}",), "list_str": ("{a} + {b}",), "pairs": ("{a} + {b}",),
}


def _use(g: Ctx, form, value: str, nest: int, lines: list[str]) -> tuple[str, str, bool]:  # noqa: ANN001
    """One target use on `value`: (the value it leaves, its type, was it a statement)."""
    g.avoid = {value}
    piece = form(g, value, nest)
    g.avoid = set()
    lines += piece.pre
    if piece.stmt:
        lines.append(piece.expr)
        return value, "", True
    name = g.fresh()
    lines.append(f"{name} = {piece.expr}")
    g.remember(name, piece.rtype)
    return name, piece.rtype, False


_COPY = {"list": "{r}[:]", "set": "{{*{r}}}", "dict": "{{**{r}}}"}  # copies without a call


def _has_call(text: str) -> bool:
    return re.search(r"[A-Za-z_]\w*\(", text) is not None


def _straight(g: Ctx, form, subject: str, param: str, knobs: Knobs, banned: set[str],
              stmt_form: bool, helper: tuple[str, list[str]] | None,
              entry: Entry | None = None) -> list[str]:  # noqa: ANN001
    """Depth 0: at most a line or two readying the input (straight_shapes.prep, or glue),
    the nested use, sometimes the same use on a second input, and a return: the result,
    a tuple of named results, a comparison, or a shaped result. The iterator builtins get
    bodies of their own (straight_builtins)."""
    if entry is not None and entry.type == entry.method and knobs.nested_calls and helper is None:
        body = straight_builtins.build(g, entry.method, param, knobs.other_methods)
        if body is not None:
            return body
    lines: list[str] = []
    value, vtype = param, subject
    other_done = False
    pivot = None
    if stmt_form and knobs.other_methods:
        work = g.fresh()
        lines.append(f"{work} = {subject}({param})")
        value, other_done = work, True
    else:
        for step in range(g.choice((0, 1, 1, 1, 2))):
            shaped = prep(g, subject, value, knobs.other_methods) \
                if step == 0 and pivot is None and g.rng.random() < 0.7 else None
            if shaped is not None:
                line, name, unpacked = shaped
                lines.append(line)
                pivot = pivot or unpacked
                if unpacked:
                    g.remember(unpacked, "str" if subject == "str" else "int")
            else:
                derived = glue(g, subject, value, banned)  # call-free unless the level allows calls
                if derived is None:
                    break
                name = g.fresh()
                lines.append(f"{name} = {derived}")
            g.remember(name, subject)
            value = name
            other_done = other_done or _has_call(lines[-1])
        if stmt_form and value == param and subject in _COPY:  # never change the caller's data
            work = g.fresh()
            copy = "[*{r}]" if subject == "list" and g.rng.random() < 0.4 else _COPY[subject]
            lines.append(f"{work} = " + copy.format(r=param))
            value = work
    if knobs.other_methods and not other_done and g.rng.random() < 0.5:
        step = other_step(g, subject, value, banned)
        if step is not None and step[1] == subject:
            name = g.fresh()
            lines.append(f"{name} = {step[0]}")
            value, other_done = name, True
    nest = g.choice((2, 2, 3)) if knobs.nested_calls else 1
    ending = None  # a return expression that replaces the usual one
    if helper is not None:
        name = g.fresh()
        hname, types = helper
        g.avoid = {value}
        extra = [g.other(t) for t in types[1:]]
        g.avoid = set()
        lines.append(f"{name} = {hname}({', '.join([value] + extra)})")
        value, vtype = name, ("?" if not stmt_form else subject)
    else:
        first, vtype, was_stmt = _use(g, form, value, nest, lines)
        value = first
        if was_stmt:
            vtype = subject
            other = g.param(subject) if len(g.params) < g.max_params and g.rng.random() < 0.4 \
                and subject in _COMBINE else None
            if other is not None:  # the same change to a second input, then both together
                _use(g, form, other, 1, lines)
                ending = combine(g, subject, value, other) if g.rng.random() < 0.5 else None
                if ending is None:
                    value = g.choice(_COMBINE[subject]).format(a=value, b=other, sep="' '")
                    name = g.fresh()
                    lines.append(f"{name} = {value}")
                    value = name
        elif vtype in _COMBINE and g.rng.random() < 0.4:
            other = g.param(subject) if len(g.params) < g.max_params else None
            if other is not None:
                second, stype, _ = _use(g, form, other, 1, lines)
                if stype == vtype:
                    a, b = (second, first) if g.rng.random() < 0.5 else (first, second)
                    ending = combine(g, vtype, a, b) if g.rng.random() < 0.5 else None
                    if ending is None:
                        template = g.choice(_COMBINE[vtype])
                        name = g.fresh()
                        lines.append(f"{name} = " + template.format(
                            a=a, b=b, sep=repr(g.choice(("-", " ", ":", "/")))))
                        value = name
                else:
                    value = second
        elif vtype == subject and g.rng.random() < 0.4 and (entry is None or entry.method not in SETTLED):
            again, atype, _ = _use(g, form, value, 1, lines)
            value, vtype = again, atype or subject
    if ending is not None and (other_done or not knobs.other_methods):
        return _finish(lines, ending, pivot)
    if knobs.other_methods and not other_done:
        step = other_step(g, vtype, value, banned)
        if step is not None:
            name = g.fresh()
            lines.append(f"{name} = {step[0]}")
            value = name
    elif g.rng.random() < 0.5:  # then shape the result: drop an end, reverse, extend
        shaped = glue(g, vtype, value, banned) if vtype in ("str", "list", "tuple", "set", "int") else None
        if shaped is not None and "(" not in shaped:
            return _finish(lines, shaped, pivot)
    return _finish(lines, value, pivot)


def _finish(lines: list[str], result: str, pivot: str | None) -> list[str]:
    """The body with its return: a pivot no line read is returned beside the result, and a
    value bound only to be returned is returned directly."""
    if pivot is not None and not any(re.search(rf"\b{pivot}\b", line) for line in lines[1:] + [result]):
        result = f"{pivot}, {result}"
    last = lines[-1] if lines else ""
    if result.isidentifier() and last.startswith(f"{result} = ") \
            and not any(re.search(rf"\b{result}\b", line) for line in lines[:-1]):
        lines, result = lines[:-1], last[len(result) + 3:]
    return [f"    {line}" for line in lines] + [f"    return {result}"]


def _calls_other(lines: list[str], banned: set[str]) -> bool:
    """Whether the body calls anything but the target (a cheap look at the text)."""
    names = set(re.findall(r"([A-Za-z_]\w*)\(", "\n".join(lines)))
    return bool(names - banned - set(HELPER_NAMES))


def build_program(entry: Entry, knobs: Knobs, rng: random.Random) -> GeneratedProgram:
    form, subject = form_for(entry), subject_type(entry)
    names = ENTRY_NAMES.get(subject, ENTRY_NAMES["list"])
    if knobs.control_flow_depth in SCENE_DEPTHS:
        # a skeleton of its own (idiom_scenes), drawn from a copy of the stream: a draw no
        # scene writes is the draw it was before scenes
        fork = random.Random()
        fork.setstate(rng.getstate())
        scene = build_scene(entry, knobs, fork, names) if fork.random() < SCENE_SHARE else None
        if scene is not None:
            return GeneratedProgram(*scene, family="scene")
    if rng.random() < IDIOM_SHARE:
        idiom = build_idiom(entry, knobs, rng, names)
        if idiom is not None:
            return GeneratedProgram(*idiom, family="idiom")
    if knobs.control_flow_depth and not knobs.other_methods:
        return build_compact(entry, knobs, rng)  # loops without any call: the compact layout
    banned = _banned(entry)
    probe = _probe(form, knobs.other_methods)
    stmt_form = probe.stmt
    loops = any(k in ("for", "while") for k in knobs.blueprint)
    ptype = "flist" if subject == "float" and loops else subject
    g = Ctx(rng, knobs.other_methods, straight=not knobs.control_flow_depth,
            cased=subject == "str" and entry.method in CASE_METHODS)
    if subject == "str" and entry.method in PEELS:  # texts that wear what the chain peels off
        g.layers, g.peel = peel_layers(rng, entry.method), entry.method
    if subject == "str" and entry.method in PADS:  # texts shorter than the widths they are padded to
        g.short = "digits" if entry.method == "zfill" else "word"
    if subject == "str" and entry.method in PREDICATE_INPUTS:
        g.hint = repr(rng.choice(PREDICATE_INPUTS[entry.method]))
    entry_name = rng.choice(ENTRY_NAMES.get(subject, ENTRY_NAMES["list"]))
    g.used.add(entry_name)
    nest = g.choice((2, 2, 3)) if knobs.nested_calls else 1
    helper_lines: list[str] = []
    helper = None
    helper_sig = None
    if knobs.call_chain:
        helper_lines, hname, htypes, helper_sig = _helper(g, form, ptype, rng, nest, banned)
        helper = (hname, htypes)
    param = g.param(ptype)
    if not knobs.control_flow_depth:
        body = _straight(g, form, subject, param, knobs, banned, stmt_form, helper, entry)
    else:
        flow = Flow(g, form, "float" if ptype == "flist" else subject,
                    Var(param, ptype, "value", [ast.literal_eval(g.params[-1].literal)]),
                    stmt_form and subject in WORKABLE, probe.rtype)
        flow.helper = helper
        flow.helper_sig = helper_sig
        flow.banned = banned
        flow.nested = knobs.nested_calls
        flow.start_acc(needs_copy=bool(probe.pre) or entry.method in ("pop", "popitem", "setdefault"))
        flow.block(knobs.blueprint)
        if flow.helper_after:
            flow.call_helper()
        if flow.target_after is not None:
            flow.write_piece(flow.target_after)
        body = flow.lines + [f"    return {flow.finish()}"]
        if not _calls_other(helper_lines + body, banned):
            body[-1] = f"    return {flow.finish(with_call=True)}"
    lines = helper_lines + [f"def {entry_name}({', '.join(q.name for q in g.params)}):", *body]
    code = program_text(lines, g.imports, entry.method)
    return GeneratedProgram(code, entry_name, ", ".join(q.literal for q in g.params))


def _call_depth(node: ast.AST) -> int:
    """Calls nested in `node`, a call's receiver chain counted as nesting (`a.f().g(h(x))`: 3)."""
    return max((_call_depth(c) for c in ast.iter_child_nodes(node)), default=0) + isinstance(node, ast.Call)


def deepest_calls(code: str) -> int:
    """The most calls nested in one line of `code`: a simple statement, a test or a loop's
    iterable (a compound statement's body is its own lines)."""
    heads = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.If, ast.While)):
            heads.append(node.test)
        elif isinstance(node, ast.For):
            heads.append(node.iter)
        elif isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.Try, ast.With)):
            heads.append(node)
    return max(map(_call_depth, heads), default=0)


def longest_line(code: str) -> int:
    return max(map(len, code.splitlines()), default=0)


def _judged(found: GeneratedProgram, entry: Entry, seed: int, index: int, variant: int) -> Verdict:
    """The self-check of a draft for slot `index` (every draft of a slot on the same inputs);
    the target's own calls are not asked to change the output, except those of a case
    change, strip, pad or replace (`dynamic.TARGET_NORMALIZERS`: `lower` on lower-case words
    shows nothing of `lower`, and their data is written to give them work)."""
    return self_check(found.code, found.entry_point, found.args, check_seed(seed, index * 64 + variant),
                      target=entry.method.removesuffix("()"))


def _straight_rescue(entry: Entry, knobs: Knobs, target: Constraint, seed: int, index: int, variant: int,
                     best: tuple[int, GeneratedProgram]) -> tuple[int, GeneratedProgram]:
    """Straight code (C1/C2) whose generic draws all failed the self-check: some entries'
    generic forms are constant on nearly every input (`a == b == c` over three tuples,
    `a > b > c` over sets, a mapping cleared twice). The idiom library's straight forms,
    taken on a share of depth-0 draws only (a cell's programs keep varied surfaces), are
    tried here on every draw; the first clean one is kept, else the best so far."""
    names = ENTRY_NAMES.get(subject_type(entry), ENTRY_NAMES["list"])
    for attempt in range(STRAIGHT_RESCUES):
        rng = random.Random(f"builtin-rescue:{seed}:{index}.{variant}:{entry.type}:{entry.method}:"
                            f"{target.level}:{attempt}")
        made = build_idiom(entry, knobs, rng, names, depth0_share=False)
        if made is None or not statically_fit(made[0], made[1], target):
            continue
        found = GeneratedProgram(*made, MAX_ATTEMPTS + attempt + 1, family="idiom")
        verdict = _judged(found, entry, seed, index, variant)
        if verdict.clean:
            return (0, found)
        if verdict.score < best[0]:
            best = (verdict.score, found)
    return best


def generate_program(constraint: Constraint, seed: int, index: int,
                     catalog: Catalog | None = None, variant: int = 0) -> GeneratedProgram:
    """The program for slot `index` of a batch seeded `seed` (`variant` > 0: the n-th
    alternative, for requests asking several completions). Raises UnsupportedConstraint
    for config entries the generator has no form for."""
    entry = (catalog or _default_catalog()).get(constraint.type, constraint.method)
    knobs = validate_knobs(with_blueprint(constraint.knobs, random.Random(f"bp:{seed}:{index}")))
    target = Constraint(constraint.type, constraint.method, constraint.level, knobs)
    program = None
    best: tuple[int, GeneratedProgram] | None = None
    checked = 0
    for attempt in range(MAX_ATTEMPTS):
        tag = f"{index}" if variant == 0 else f"{index}.{variant}"
        rng = random.Random(f"builtin:{seed}:{tag}:{entry.type}:{entry.method}:"
                            f"{constraint.level}:{knobs}:{attempt}")
        program = build_program(entry, knobs, rng)
        if knobs.control_flow_depth:  # a result fed once, in the arms of tests: a default they override
            program = replace(program, code=default_then_set(program.code, program.entry_point))
        if not statically_fit(program.code, program.entry_point, target):
            continue
        if attempt < MAX_ATTEMPTS - DEEP_PATIENCE and deepest_calls(program.code) >= DEEP_CALLS:
            continue  # a line no one would write: drawn again while other draws are left
        if attempt < LONG_TRIES and longest_line(program.code) > LONG_LINE:
            continue  # a line few would write: drawn again, a few times (some cells write only long ones)
        found = replace(program, attempts=attempt + 1)
        verdict = _judged(found, entry, seed, index, variant)
        if verdict.clean or (checked >= IDLE_PATIENCE and verdict.findings == ("idle_normalizer",)):
            return found
        if best is None or verdict.score < best[0]:
            best = (verdict.score, found)
        checked += 1
        if checked == MAX_CHECKED:
            break
    if best is not None and not knobs.control_flow_depth:
        best = _straight_rescue(entry, knobs, target, seed, index, variant, best)
    if best is not None:
        return best[1]
    assert program is not None
    return replace(program, attempts=MAX_ATTEMPTS, matches=False)
