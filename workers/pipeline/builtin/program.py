"""generate_program: a constraint, a seed and an index in; a program that satisfies the
constraint by construction out.

Every random choice comes from one `random.Random` seeded by a string of (seed, index,
constraint, attempt) (string seeds hash with SHA-512, so no PYTHONHASHSEED dependence). The
static check is the generator's own acceptance test: a draw whose measured structure misses
the request (rare: glue that happens to nest an operator target) is redrawn with the next
attempt number, so the result is still a pure function of the inputs.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from workers.pipeline.builtin.assemble import FunctionBuilder
from workers.pipeline.builtin.context import Ctx
from workers.pipeline.builtin.registry import form_for, subject_type
from workers.pipeline.constraints.catalog import Catalog, Entry, load_catalog
from workers.pipeline.constraints.levels import validate_knobs, with_blueprint
from workers.pipeline.records import Constraint, Knobs
from workers.pipeline.static_check import measure_structure

MAX_ATTEMPTS = 24
ENTRY_NAMES = ("solve", "process", "compute", "run", "evaluate", "transform", "check", "f",
               "main_func", "analyze", "build", "apply_ops")
HELPER_NAMES = ("helper", "prepare", "step", "inner", "adjust", "normalize", "mix", "combine")


@dataclass(frozen=True)
class GeneratedProgram:
    code: str  # imports and functions; no print call
    entry_point: str
    args: str  # the exact text between the parentheses of the entry call
    attempts: int = 1
    matches: bool = True  # the static check accepted it (False only if every attempt missed)

    @property
    def call(self) -> str:
        return f"print({self.entry_point}({self.args}))"


@functools.lru_cache(maxsize=1)
def _default_catalog() -> Catalog:
    return load_catalog()


def _type_of(g: Ctx, name: str) -> str | None:
    return next((t for t, names in g.pool.items() if name in names), None)


def _banned(entry: Entry) -> set[str]:
    """Call names the glue/other steps must avoid so they do not count as the target."""
    name = entry.syntax.name.split(".")[-1]
    return {name, entry.method.removesuffix("()")}


def _body(b: FunctionBuilder, knobs: Knobs, with_chain: bool, main: bool) -> None:
    g = b.g
    steps = ["glue"] * g.int_(1 if main else 0, 3) + ["use"] * g.int_(0, 3 if main else 1)
    if main:
        steps.append("main")
    g.rng.shuffle(steps)
    if main:
        steps.remove("main")
        steps.insert(min(len(steps), g.int_(0, 1)), "main")
    for step in steps:
        if step == "glue":
            b.glue_step()
        elif step == "main":
            b.use(b.nest_level())
        else:
            b.use(g.choice((1, 2)) if knobs.nested_calls else 1)
    if with_chain:
        b.chain(knobs.blueprint)


def _render(name: str, params: list[str], b: FunctionBuilder) -> list[str]:
    return [f"def {name}({', '.join(params)}):", *b.lines, f"    return {b.returns()}"]


def build_program(entry: Entry, knobs: Knobs, rng: random.Random) -> GeneratedProgram:
    form, subject = form_for(entry), subject_type(entry)
    banned = _banned(entry)
    g = Ctx(rng, knobs.other_methods)
    entry_name = rng.choice(ENTRY_NAMES)
    g.used.add(entry_name)
    lines: list[str] = []
    if knobs.call_chain:
        helper_name = rng.choice(HELPER_NAMES)
        g.used.add(helper_name)
        hg = Ctx(rng, knobs.other_methods, used=g.used, imports=g.imports, max_params=2)
        hb = FunctionBuilder(hg, form, subject, hg.param(subject), banned, knobs.nested_calls)
        chain_in_helper = rng.random() < 0.5
        _body(hb, knobs, chain_in_helper, main=True)
        if knobs.other_methods and rng.random() < 0.5:
            hb.other()
        ret = hb.results[-1]
        hb.results = [ret]
        lines += _render(helper_name, [p.name for p in hg.params], hb)
        eb = FunctionBuilder(g, form, subject, g.param(subject), banned, knobs.nested_calls)
        _body(eb, knobs, False, main=False)
        call_args = [g.choice(g.pool[p.type]) if g.pool.get(p.type) and rng.random() < 0.8
                     else g.lit(p.type) for p in hg.params]
        res = g.fresh()
        eb.line(f"{res} = {helper_name}({', '.join(call_args)})")
        eb.results.append(res)
        ret_type = _type_of(hg, ret)
        if ret_type is not None:
            g.remember(res, ret_type)
            if ret_type == subject:
                eb.receivers.append(res)
        eb.keep.append(res)
        if knobs.other_methods:
            eb.other()
        if not chain_in_helper:
            eb.chain(knobs.blueprint)
        elif rng.random() < 0.5:
            eb.use(1)
    else:
        eb = FunctionBuilder(g, form, subject, g.param(subject), banned, knobs.nested_calls)
        _body(eb, knobs, False, main=True)
        if knobs.other_methods:
            eb.other()
        eb.chain(knobs.blueprint)
    lines += _render(entry_name, [p.name for p in g.params], eb)
    imports = [f"import {m}" for m in sorted(g.imports)]
    code = "\n".join(imports + ([""] if imports else []) + lines) + "\n"
    return GeneratedProgram(code, entry_name, ", ".join(p.literal for p in g.params))


def generate_program(constraint: Constraint, seed: int, index: int,
                     catalog: Catalog | None = None, variant: int = 0) -> GeneratedProgram:
    """The program for slot `index` of a batch seeded `seed` (`variant` > 0: the n-th
    alternative, for requests asking several completions). Raises UnsupportedConstraint
    for config entries the generator has no form for."""
    entry = (catalog or _default_catalog()).get(constraint.type, constraint.method)
    knobs = validate_knobs(with_blueprint(constraint.knobs, random.Random(f"bp:{seed}:{index}")))
    target = Constraint(constraint.type, constraint.method, constraint.level, knobs)
    program = None
    for attempt in range(MAX_ATTEMPTS):
        tag = f"{index}" if variant == 0 else f"{index}.{variant}"
        rng = random.Random(f"builtin:{seed}:{tag}:{entry.type}:{entry.method}:"
                            f"{constraint.level}:{knobs}:{attempt}")
        program = build_program(entry, knobs, rng)
        if measure_structure(program.code, program.entry_point, target).matches:
            return GeneratedProgram(program.code, program.entry_point, program.args, attempt + 1)
    assert program is not None
    return GeneratedProgram(program.code, program.entry_point, program.args, MAX_ATTEMPTS, False)
