"""Dynamic naturalness checks: what the program does on its sample's inputs.

One sandbox job per program runs, on every input, a probe copy (every branch arm and loop
body marked) and one variant per deletable statement or block (the statement replaced by
`pass`). Every loop body of a variant counts its turns, so a deletion that stops a loop from
advancing ends that variant with an error instead of hanging the job. The job returns plain
data (reprs, marks); `judge` turns it into findings:
`deletable_statement` (a deletion changes no output on any input), `constant_output` (the
same output for every input) and `deepest_block_unrun` (the level's deepest block runs for
no input). Untaken branch arms (the if / elif / else bodies written in the code; an if
without else has one arm, its fall-through is not counted) are measured, not rejected.
"""

from __future__ import annotations

import ast
import copy
import inspect
from dataclasses import dataclass, field

from workers.pipeline.inputs import greedy_cover

DYNAMIC_REASONS = ("deletable_statement", "constant_output", "deepest_block_unrun")
MAX_TURNS = 20000
DRIVER = "__naturalness_probe__"


@dataclass(frozen=True)
class Arm:
    mark: int
    depth: int  # control-flow depth of the block (1 = directly under a function)
    kind: str  # "if" (an if/elif arm), "else", "implicit" (the else an if lacks), "loop"
    line: int


@dataclass
class Probe:
    code: str  # the driver module
    arms: list[Arm] = field(default_factory=list)
    variants: list[tuple[int, str]] = field(default_factory=list)  # (line, statement text)


def _mark(k: int) -> ast.stmt:
    return ast.parse(f"__hit__({k})").body[0]


def _tick() -> ast.stmt:
    return ast.parse("__tick__()").body[0]


class _Instrument(ast.NodeTransformer):
    def __init__(self) -> None:
        self.arms: list[Arm] = []
        self.depth = 0

    def _arm(self, body: list[ast.stmt], kind: str, line: int) -> list[ast.stmt]:
        k = len(self.arms)
        self.arms.append(Arm(k, self.depth, kind, line))
        return [_mark(k)] + body

    def _visit_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        saved, self.depth = self.depth, 0
        node.body = self._visit_body(node.body)
        self.depth = saved
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        self.depth += 1
        node.body = self._arm(self._visit_body(node.body), "if", node.lineno)
        self.depth -= 1
        is_elif = len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)
        if is_elif:
            node.orelse = self._visit_body(node.orelse)
        else:
            self.depth += 1
            kind = "else" if node.orelse else "implicit"
            node.orelse = self._arm(self._visit_body(node.orelse) or [ast.Pass()], kind,
                                    node.lineno)
            self.depth -= 1
        return node

    def _loop(self, node: ast.For | ast.While) -> ast.AST:
        self.depth += 1
        node.body = [_tick()] + self._arm(self._visit_body(node.body), "loop", node.lineno)
        self.depth -= 1
        node.orelse = self._visit_body(node.orelse)
        return node

    visit_For = _loop
    visit_While = _loop


def _statements(tree: ast.Module) -> list[tuple[list[ast.stmt], int]]:
    """(the block holding it, index) for every statement inside a function but its
    `return`s, outermost first."""
    found: list[tuple[list[ast.stmt], int]] = []

    def visit(block: list[ast.stmt]) -> None:
        for i, stmt in enumerate(block):
            if not isinstance(stmt, (ast.Return, ast.FunctionDef, ast.Pass)):
                found.append((block, i))
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and not isinstance(stmt, ast.FunctionDef):
                    visit(inner)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            visit(node.body)
    return found


def _ticked(tree: ast.Module) -> ast.Module:
    class Ticks(ast.NodeTransformer):
        def _loop(self, node):  # noqa: ANN001, ANN202
            self.generic_visit(node)
            node.body = [_tick()] + node.body
            return node
        visit_For = _loop
        visit_While = _loop
    return ast.fix_missing_locations(Ticks().visit(tree))


_RUNTIME = '''
import ast as _ast
import hashlib as _hashlib
from copy import deepcopy as _copy


def __run__(compiled, entry, args):
    seen = set()
    turns = [0]
    def __hit__(k):
        seen.add(k)
    def __tick__():
        turns[0] += 1
        if turns[0] > MAX_TURNS:
            raise RuntimeError("turns")
    space = {"__hit__": __hit__, "__tick__": __tick__, "__name__": "probe"}
    try:
        if compiled is None:
            raise SyntaxError("variant")
        exec(compiled, space)
        value = space[entry](*_copy(args))
        return "ok:" + _hashlib.sha1(repr(value).encode()).hexdigest()[:12], sorted(seen)
    except BaseException as exc:
        return "error:" + type(exc).__name__, sorted(seen)


def __naturalness_probe__(sources, entry, inputs, limit):
    values = [_ast.literal_eval("(" + args + ",)") for args in inputs]
    compiled = []
    for src in sources:
        try:
            compiled.append(compile(src, "<probe>", "exec"))
        except SyntaxError:
            compiled.append(None)
    runs = [__run__(compiled[0], entry, v) for v in values]
    probe_out, hits = [r[0] for r in runs], [r[1] for r in runs]
    chosen = greedy_cover(hits, probe_out, limit)
    outputs = [[probe_out[c] for c in chosen]]
    for comp in compiled[1:]:
        outputs.append([__run__(comp, entry, values[c])[0] for c in chosen])
    return [outputs, hits, chosen, probe_out]
'''


def build_probe(code: str, max_variants: int = 40) -> Probe:
    """The driver module for `code`: source 0 is the marked probe, then one deletion
    variant per statement (at most `max_variants`, outermost first)."""
    tree = ast.parse(code)
    instrument = _Instrument()
    probe_tree = ast.fix_missing_locations(instrument.visit(copy.deepcopy(tree)))
    sources = [ast.unparse(probe_tree)]
    variants: list[tuple[int, str]] = []
    for block, i in _statements(tree)[:max_variants]:
        stmt = block[i]
        block[i] = ast.Pass()
        sources.append(ast.unparse(_ticked(copy.deepcopy(tree))))
        block[i] = stmt
        variants.append((stmt.lineno, ast.unparse(stmt).splitlines()[0][:80]))
    driver = (_RUNTIME.replace("MAX_TURNS", str(MAX_TURNS)) + "\n" + inspect.getsource(greedy_cover)
              + f"\nSOURCES = {sources!r}\n")
    return Probe(driver, instrument.arms, variants)


def probe_args(probe: Probe, entry_point: str, inputs: list[str], limit: int) -> str:
    """The argument text of the driver call: the driver runs the probe on every input,
    keeps `limit` of them coverage-first (`greedy_cover`), and runs the variants on those."""
    return f"SOURCES, {entry_point!r}, {inputs!r}, {limit}"


@dataclass(frozen=True)
class DynamicFacts:
    outputs: list[str]  # per input, the original program
    deletable: list[tuple[int, str]]  # statements whose deletion changed no output
    constant_output: bool
    deepest_unrun: bool
    arms_untaken: int
    arms: int

    def reasons(self) -> list[str]:
        out = []
        if self.deletable:
            out.append("deletable_statement")
        if self.constant_output:
            out.append("constant_output")
        if self.deepest_unrun:
            out.append("deepest_block_unrun")
        return out


def judge(probe: Probe, result: list) -> DynamicFacts:
    """Findings from the driver's result `[outputs per source on the kept inputs, marks per
    input, kept input indices, probe outputs per input]`, on the kept inputs."""
    outputs, all_hits, chosen, _ = result
    hits = [all_hits[c] for c in chosen]
    original = outputs[0]
    deletable = [probe.variants[v - 1] for v in range(1, len(outputs))
                 if outputs[v] == original and all(o.startswith("ok:") for o in original)]
    constant = len(original) >= 2 and len(set(original)) == 1 and original[0].startswith("ok:")
    ran = set().union(*map(set, hits)) if hits else set()
    real = [a for a in probe.arms if a.kind != "implicit"]
    deepest = max((a.depth for a in real), default=0)
    deep_marks = [a.mark for a in real if a.depth == deepest and deepest]
    deepest_unrun = bool(deep_marks) and not any(m in ran for m in deep_marks)
    branch = [a for a in probe.arms if a.kind in ("if", "else")]  # arms written in the code
    untaken = sum(1 for a in branch if a.mark not in ran)
    branches = len(branch)
    return DynamicFacts([o for o in original], deletable, constant, deepest_unrun, untaken, branches)
