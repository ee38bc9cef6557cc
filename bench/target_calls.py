"""Whether the builtin programs' own method does work on their data, per call.

For each text-changing target (a case change, the strip family, removeprefix /
removesuffix, the pads, replace) every call of it, given its receiver back, is run on the
program's call and type-directed inputs: a call that changes no output shows nothing of the
method. For each string predicate (`isdigit`, `startswith` ...) every call's answers are
recorded over those runs: a call with one answer tests nothing. `--slots` programs per
method and level (C1-C6), seed `--seed`, `--inputs` inputs each (the call first).

The baseline (d8a89dc, before the data was written for these targets) is in
docs/ARCHITECTURE.md, measured with this script's session-29 form.

    python -m bench.target_calls [--slots 4] [--seed 7] [--inputs 4]
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter

from workers.pipeline.builtin import generate_program
from workers.pipeline.builtin.context import CASE_METHODS, PADS, PEELS, stdlib_space
from workers.pipeline.builtin.selfcheck import target_answers
from workers.pipeline.naturalness.dynamic import is_predicate
from workers.pipeline.constraints import LEVELS, load_catalog
from workers.pipeline.input_synthesis import candidate_pool
from workers.pipeline.records import Constraint

FAMILIES = {  # the generator's own sets of targets whose data it writes for them
    "case changes": sorted(CASE_METHODS),
    "strips and affixes": sorted(PEELS - {"replace"}),
    "pads": sorted(PADS),
    "replace": ["replace"],
}


class GiveBack(ast.NodeTransformer):
    """The `k`-th call of `method` (in the walk's order), or every one (`k` None), replaced
    by its receiver."""

    def __init__(self, method: str, k: int | None = None) -> None:
        self.method, self.k, self.seen = method, k, 0

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == self.method:
            self.seen += 1
            if self.k is None or self.seen - 1 == self.k:
                return node.func.value
        return node


def outputs(tree: ast.Module, entry: str, inputs: list[str]) -> list[str]:
    space = stdlib_space()
    exec(compile(ast.fix_missing_locations(tree), "<bench>", "exec"), space)  # noqa: S102 - the generator's program
    out = []
    for args in inputs:
        try:
            out.append(repr(space[entry](*ast.literal_eval(f"({args},)"))))
        except Exception as exc:  # noqa: BLE001 - an error is an output here
            out.append(type(exc).__name__)
    return out


def _programs(method: str, slots: int, seed: int, inputs: int):  # noqa: ANN202 - yields (program, inputs)
    catalog = load_catalog()
    for level, knobs in LEVELS.items():
        for index in range(slots):
            prog = generate_program(Constraint("str", method, level, knobs), seed, index, catalog)
            yield prog, [c.args for c in candidate_pool(prog.args, inputs + 2, 99 + index)][:inputs]


def idle_calls(method: str, slots: int, seed: int, inputs: int) -> tuple[int, int]:
    """(calls that changed no output given their receiver back, calls)."""
    idle = total = 0
    for prog, args in _programs(method, slots, seed, inputs):
        tree = ast.parse(prog.code)
        base = outputs(tree, prog.entry_point, args)
        calls = sum(1 for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr == method)
        for k in range(calls):
            total += 1
            idle += outputs(GiveBack(method, k).visit(ast.parse(prog.code)), prog.entry_point, args) == base
    return idle, total


def constant_calls(method: str, slots: int, seed: int, inputs: int) -> tuple[int, int]:
    """(calls that gave one answer on every run, calls that ran)."""
    constant = total = 0
    for prog, args in _programs(method, slots, seed, inputs):
        answers = target_answers(prog.code, prog.entry_point, method, [ast.literal_eval(f"({a},)") for a in args])
        total += len(answers)
        constant += sum(1 for seen in answers.values() if len(seen) == 1)
    return constant, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slots", type=int, default=4, help="programs per method and level")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--inputs", type=int, default=4, help="inputs per program, its own call first")
    args = parser.parse_args(argv)
    if args.slots < 1 or args.inputs < 1:
        parser.error("--slots and --inputs must be at least 1")
    print(f"target calls of builtin programs: {args.slots} per method and level, seed {args.seed}, "
          f"{args.inputs} inputs each")
    print(f"{'family':22} {'calls':>6} {'changing nothing':>17}")
    for family, methods in FAMILIES.items():
        counts = Counter()
        for method in methods:
            idle, total = idle_calls(method, args.slots, args.seed, args.inputs)
            counts.update(idle=idle, total=total)
        print(f"{family:22} {counts['total']:6d} {counts['idle']:8d} ({counts['idle'] / max(1, counts['total']):5.1%})")
    predicates = sorted(e.method for e in load_catalog().entries if e.type == "str" and is_predicate(e.method))
    counts = Counter()
    for method in predicates:
        constant, total = constant_calls(method, args.slots, args.seed, args.inputs)
        counts.update(constant=constant, total=total)
    print(f"{'predicates':22} {counts['total']:6d} {counts['constant']:8d} ({counts['constant'] / max(1, counts['total']):5.1%})"
          "  (one answer on every run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
