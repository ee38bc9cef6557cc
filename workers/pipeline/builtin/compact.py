"""The compact layout, for custom knobs asking for control flow without any other call:
loops over fixed slices and counters, since `len`, `append` and `split` are calls. The
standard levels never come here (C3-C6 allow other methods)."""

from __future__ import annotations

import random

from workers.pipeline.builtin.assemble import FunctionBuilder
from workers.pipeline.builtin.context import Ctx, program_text
from workers.pipeline.builtin.registry import form_for, subject_type
from workers.pipeline.constraints.catalog import Entry
from workers.pipeline.records import Knobs

ENTRY_NAMES = ("solve", "process", "compute", "run", "evaluate", "transform", "check")
HELPER_NAMES = ("helper", "prepare", "step", "inner", "adjust", "combine")


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


def build_compact(entry: Entry, knobs: Knobs, rng: random.Random):  # noqa: ANN201
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
    code = program_text(lines, g.imports, entry.method)
    from workers.pipeline.builtin.program import GeneratedProgram
    return GeneratedProgram(code, entry_name, ", ".join(p.literal for p in g.params), family="compact")


