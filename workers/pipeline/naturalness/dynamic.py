"""Dynamic naturalness checks: what the program does on its sample's inputs.

One sandbox job per program runs one instrumented copy of it: every branch arm and loop
body is marked, every loop body counts its turns, and every deletable statement or block is
guarded by `if __off__ != j:`. With `__off__ = -1` the copy is the program itself (its marks
say which arms each input reached); with `__off__ = j` it is the program with statement j
replaced by `pass`. The driver and the copy are one module, so a job compiles once. A deletion that stops a loop from
advancing ends that variant with an error instead of hanging the job. The job returns plain
data (output digests, marks); `judge` turns it into findings:
`deletable_statement` (a deletion changes no output on any input), `unjudged_statement` (the
job's CPU ran out before a deletion could be tried on a kept input: a program heavy enough
to spend it is not judged, and not kept), `constant_output` (the
same output for every input), `deepest_block_unrun` (the level's deepest block runs for
no input) and `no_viable_input` (every input errs, loops past the trace's step cap, makes a
result over the size cap or takes over the probe's CPU per run: the execution filter would
reject every sample, after traced runs that can each take the sandbox's whole timeout). Every
run starts from the program's module state as it was loaded (its globals copied back), so a
counter or a cache kept between calls cannot make a deletion look like a change, nor a
needed statement look deletable. Untaken branch arms (the if / elif / else bodies written in the code; an if
without else has one arm, its fall-through is not counted) are measured, not rejected.
"""

from __future__ import annotations

import ast
import functools
import inspect
from dataclasses import dataclass, field

from workers.pipeline.inputs import effect_swap, greedy_cover

DYNAMIC_REASONS = ("no_viable_input", "deletable_statement", "unjudged_statement", "constant_output",
                   "deepest_block_unrun")
MAX_TURNS = 5000  # loop turns per run, by default the sandbox's trace step cap
MAX_RESULT_CHARS = 1000  # the execution filter's default result cap (ExecPolicy)
# loop turns a deletion variant may run beyond twice the program's own on that input; past
# that it counts as a change (a deletion that makes a loop run away changes what the
# program does), which also keeps a runaway variant from spending the job's time
VARIANT_SLACK = 100
# CPU a probe spends on one run and on the whole job. Programs of the kind sought run an
# input in well under a millisecond untraced; one that takes 50 ms (a value that doubles
# every turn, say) would take seconds traced, and the cap keeps it from holding a sandbox
# worker for the probe's whole timeout
RUN_CPU_S = 0.05
JOB_CPU_S = 0.5
DRIVER = "__naturalness_probe__"
OFF = "__off__"  # the module global naming the statement a run leaves out (-1: none)


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
    within: list[int] = field(default_factory=list)  # per variant (see Instrumented.within)


def _located(node: ast.AST, line: int) -> ast.AST:
    """A node made here, and everything in it, placed at the start of `line` (what
    `ast.fix_missing_locations` would do, without walking the whole program)."""
    for sub in ast.walk(node):
        if "lineno" in sub._attributes:
            sub.lineno = sub.end_lineno = line
            sub.col_offset = sub.end_col_offset = 0
    return node


def _call(name: str, line: int, *args: int) -> ast.stmt:
    return _located(ast.Expr(ast.Call(ast.Name(name, ast.Load()), [ast.Constant(a) for a in args], [])),
                    line)


def _guard(stmt: ast.stmt, j: int) -> ast.If:
    """`if __off__ != j: <statement j>`: not a branch of the program, so not an arm."""
    test = _located(ast.Compare(ast.Name(OFF, ast.Load()), [ast.NotEq()], [ast.Constant(j)]), stmt.lineno)
    node = ast.copy_location(ast.If(test=test, body=[stmt], orelse=[]), stmt)
    node.probe_guard = True
    return node


def _is_guard(node: ast.AST) -> bool:
    return getattr(node, "probe_guard", False)


class _Instrument(ast.NodeTransformer):
    def __init__(self) -> None:
        self.arms: list[Arm] = []
        self.depth = 0
        self.within: dict[int, int] = {}  # guarded statement j -> the innermost arm holding it
        self._open: list[list[int]] = []  # the guards met in each arm being visited

    def _arm(self, body: list[ast.stmt], kind: str, line: int) -> list[ast.stmt]:
        k = len(self.arms)
        self.arms.append(Arm(k, self.depth, kind, line))
        return [_call("__hit__", line, k)] + body

    def _arm_body(self, body: list[ast.stmt], kind: str, line: int) -> list[ast.stmt]:
        """`body` visited and marked as an arm; the guards directly in it are filed under it."""
        self._open.append([])
        visited = self._visit_body(body)
        guards = self._open.pop()
        marked = self._arm(visited, kind, line)
        for j in guards:
            self.within[j] = len(self.arms) - 1
        return marked

    def _visit_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        saved, self.depth, opened = self.depth, 0, self._open
        self._open = []  # a function's own top level runs whenever it is called
        node.body = self._visit_body(node.body)
        self.depth, self._open = saved, opened
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if _is_guard(node):
            if self._open:
                self._open[-1].append(node.test.comparators[0].value)
            node.body = self._visit_body(node.body)
            return node
        self.depth += 1
        node.body = self._arm_body(node.body, "if", node.lineno)
        self.depth -= 1
        inner = node.orelse[0] if len(node.orelse) == 1 else None
        if inner is not None and _is_guard(inner):
            inner = inner.body[0]
        if isinstance(inner, ast.If):  # an elif (perhaps guarded): its arms sit at this depth
            node.orelse = self._visit_body(node.orelse)
        else:
            self.depth += 1
            kind = "else" if node.orelse else "implicit"
            node.orelse = self._arm_body(node.orelse or [_located(ast.Pass(), node.lineno)], kind, node.lineno)
            self.depth -= 1
        return node

    def _loop(self, node: ast.For | ast.While) -> ast.AST:
        self.depth += 1
        node.body = [_call("__tick__", node.lineno)] + self._arm_body(node.body, "loop", node.lineno)
        self.depth -= 1
        node.orelse = self._visit_body(node.orelse)
        return node

    visit_For = _loop
    visit_While = _loop


def _statements(tree: ast.Module) -> list[tuple[list[ast.stmt], int]]:
    """(the block holding it, index) for every statement inside a function but its
    `return`s (and `global`/`nonlocal`, which are declarations), outermost first."""
    found: list[tuple[list[ast.stmt], int]] = []

    def visit(block: list[ast.stmt]) -> None:
        for i, stmt in enumerate(block):
            if not isinstance(stmt, (ast.Return, ast.FunctionDef, ast.Pass, ast.Global, ast.Nonlocal)):
                found.append((block, i))
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and not isinstance(stmt, ast.FunctionDef):
                    visit(inner)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            visit(node.body)
    return found


_RUNTIME = '''
import ast as __probe_ast__
import copy as __probe_copy__
import time as __probe_time__

__off__ = -1
__probe_seen__ = set()
__probe_turns__ = [0, 0, 0.0]  # loop turns of this run, its cap, its CPU deadline
__probe_slack__ = @SLACK@
__probe_clock__ = __probe_time__.process_time


def __hit__(k):
    __probe_seen__.add(k)


class __probe_stop__(BaseException):
    # a run the probe ends (not an Exception: the program's own handlers let it through)
    pass


def __tick__(_t=__probe_turns__, _clock=__probe_clock__):
    _t[0] += 1
    if _t[0] > _t[1]:
        raise __probe_stop__("turns")
    if _clock() > _t[2]:
        raise __probe_stop__("cpu")


def __probe_fresh__(value):
    # a copy of a literal argument, so a run that mutates its arguments leaves the next
    # run's intact (scalars are immutable)
    kind = type(value)
    if kind is list:
        return [__probe_fresh__(v) for v in value]
    if kind is dict:
        return {k: __probe_fresh__(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    if kind is tuple:
        return tuple(__probe_fresh__(v) for v in value)
    return value


def __probe_copied__(value):
    try:
        return __probe_copy__.deepcopy(value)
    except Exception:  # a module, a generator: kept as it is
        return value


def __naturalness_probe__(entry, inputs, limit, within, max_turns, max_chars, run_cpu, job_cpu):
    values = [__probe_ast__.literal_eval("(" + args + ",)") for args in inputs]
    space = globals()
    func = space[entry]
    job_end = __probe_clock__() + job_cpu
    loaded = {}  # name -> (value as loaded, whether a run could change it in place)
    for k, v in list(space.items()):
        if k not in __probe_runtime__:
            kept = __probe_copied__(v)
            loaded[k] = (kept, kept is not v)

    size = len(space)

    def reload():  # the program's module state as loaded, for every run
        if len(space) != size:  # (a run bound a new global)
            for k in [k for k in space if k not in __probe_runtime__ and k not in loaded]:
                del space[k]
        for k, (v, mutable) in loaded.items():
            if mutable:
                space[k] = __probe_copy__.deepcopy(v)
            elif space.get(k) is not v:
                space[k] = v

    def run(i, cap):
        __probe_seen__.clear()
        now = __probe_clock__()
        if now > job_end:
            return "error:budget", [], 0
        reload()
        __probe_turns__[:] = [0, cap, min(now + run_cpu, job_end)]
        try:
            value = func(*__probe_fresh__(values[i]))
            text = repr(value)
            out = ("ok:%d:%x" if len(text) <= max_chars else "big:%d:%x") % (
                len(text), hash(text) & 0xFFFFFFFFFFFF)
        except __probe_stop__ as stop:
            out = "error:" + stop.args[0]
        except BaseException as exc:
            out = "error:" + type(exc).__name__
        return out, sorted(__probe_seen__), __probe_turns__[0]

    runs = [run(i, max_turns) for i in range(len(values))]
    probe_out, hits, turns = [r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs]
    # inputs the execution filter would keep: no error, more loop turns than a trace holds
    # steps, or a result over the size cap (when none is, all stay candidates)
    viable = [i for i, out in enumerate(probe_out) if out.startswith("ok:")] or list(range(len(values)))
    picked = greedy_cover([hits[i] for i in viable], [probe_out[i] for i in viable], limit)
    chosen = [viable[k] for k in picked]
    original = [probe_out[c] for c in chosen]
    deletable, unjudged = [], []
    if all(o.startswith("ok:") for o in original):
        reached = [set(hits[c]) for c in range(len(values))]

        def variant_out(j, c):
            # a variant may loop at most twice as long as the program did (plus some
            # slack): one that runs past that changes what the program does, and ends there;
            # an input that never entered the statement's arm runs as it did (None)
            global __off__
            if within[j] >= 0 and within[j] not in reached[c]:
                return None
            __off__ = j
            out = run(c, min(max_turns, 2 * turns[c] + __probe_slack__))[0]
            __off__ = -1
            return out

        def differs(j, c):  # (a run the job's CPU budget stopped tells nothing)
            out = variant_out(j, c)
            return out is not None and out != probe_out[c] and out != "error:budget"

        for j in range(len(within)):
            for c in chosen:
                out = variant_out(j, c)
                if out == "error:budget":  # never tried: neither shown needed nor deletable
                    unjudged.append(j)
                if out not in (None, probe_out[c]):
                    break
            else:
                deletable.append(j)
        if deletable:  # other inputs may show what a statement does
            ran_ok = [i for i in viable if probe_out[i].startswith("ok:")]
            chosen, deletable = effect_swap(chosen, ran_ok, deletable, len(within), differs, hits, probe_out)
            original = [probe_out[c] for c in chosen]
    return [original, hits, chosen, probe_out, deletable, unjudged]
'''


@functools.cache
def _runtime() -> str:
    return _RUNTIME.replace("@SLACK@", str(VARIANT_SLACK))


@functools.cache
def _cover_source() -> str:
    return inspect.getsource(greedy_cover) + "\n\n" + inspect.getsource(effect_swap)


@dataclass(frozen=True)
class Instrumented:
    tree: ast.Module
    arms: list[Arm]
    variants: list[tuple[int, str]]  # (line, statement text) of each guarded statement
    # per variant, the mark of the innermost arm holding the statement (-1: a function's top
    # level): an input whose run never marked that arm never ran the statement, so leaving
    # it out cannot change that input's output, and the variant need not run on it
    within: list[int]


def instrument(code: str, max_variants: int = 40) -> Instrumented:
    """`code` instrumented (marks, turn counters, a guard on each of the first
    `max_variants` deletable statements, outermost first). It runs with `__hit__(k)`,
    `__tick__()` and `__off__` defined in its globals (the probe job's runtime, or the
    builtin generator's self-check in process)."""
    tree = ast.parse(code)
    lines = code.splitlines()
    variants: list[tuple[int, str]] = []
    for j, (block, i) in enumerate(_statements(tree)[:max_variants]):
        stmt = block[i]
        variants.append((stmt.lineno, lines[stmt.lineno - 1].strip()[:80]))
        block[i] = _guard(stmt, j)
    marks = _Instrument()
    tree = marks.visit(tree)  # every node it adds is placed as it is made
    return Instrumented(tree, marks.arms, variants, [marks.within.get(j, -1) for j in range(len(variants))])


def build_probe(code: str, max_variants: int = 40) -> Probe:
    """The driver module for `code`: the runtime and the instrumented copy, one module."""
    made = instrument(code, max_variants)
    driver = (_runtime() + "\n" + _cover_source() + "\n\n__probe_runtime__ = set(globals()) | {'__probe_runtime__'}\n\n"
              + ast.unparse(made.tree) + "\n")
    return Probe(driver, made.arms, made.variants, made.within)


def probe_args(probe: Probe, entry_point: str, inputs: list[str], limit: int,
               max_turns: int = MAX_TURNS, max_chars: int = MAX_RESULT_CHARS,
               run_cpu_s: float = RUN_CPU_S, job_cpu_s: float = JOB_CPU_S) -> str:
    """The argument text of the driver call: the driver runs the program on every input,
    keeps `limit` of them coverage-first (`greedy_cover`) among those the execution filter
    would keep (no error, at most `max_turns` loop turns - a traced run records a step per
    turn at least, so set it to the trace's step cap -, a result repr of at most `max_chars`),
    and runs the variants on those, stopping a variant at the first input whose output it
    changes (and not running it on an input that never entered the statement's arm). A run is stopped at a loop turn past `run_cpu_s` of CPU (an input that slow is
    not viable; a variant that slow changed what the program does), and the job runs
    nothing more once it spent `job_cpu_s` (the inputs left are not viable, and no variant
    runs unless all kept inputs ran)."""
    return (f"{entry_point!r}, {inputs!r}, {limit}, {probe.within!r}, {max_turns}, "
            f"{max_chars}, {run_cpu_s!r}, {job_cpu_s!r}")


@dataclass(frozen=True)
class DynamicFacts:
    outputs: list[str]  # per input, the original program
    deletable: list[tuple[int, str]]  # statements whose deletion changed no output
    constant_output: bool
    deepest_unrun: bool
    arms_untaken: int
    arms: int
    no_viable: bool = False  # no input ran to a result the execution filter would keep
    unjudged: list[tuple[int, str]] = field(default_factory=list)  # deletions the job's CPU left untried

    def reasons(self) -> list[str]:
        out = ["no_viable_input"] if self.no_viable else []
        if self.deletable:
            out.append("deletable_statement")
        if self.unjudged:
            out.append("unjudged_statement")
        if self.constant_output:
            out.append("constant_output")
        if self.deepest_unrun:
            out.append("deepest_block_unrun")
        return out


def judge(probe: Probe, result: list) -> DynamicFacts:
    """Findings from the driver's result `[outputs on the kept inputs, marks per input, kept
    input indices, outputs per input, indices of the variants that changed no output, indices
    of those the job's CPU left untried]`."""
    original, all_hits, chosen, every_output, deletable, unjudged = result
    hits = [all_hits[c] for c in chosen]
    constant = len(original) >= 2 and len(set(original)) == 1 and original[0].startswith("ok:")
    ran = set().union(*map(set, hits)) if hits else set()
    real = [a for a in probe.arms if a.kind != "implicit"]
    deepest = max((a.depth for a in real), default=0)
    deep_marks = [a.mark for a in real if a.depth == deepest and deepest]
    deepest_unrun = bool(deep_marks) and not any(m in ran for m in deep_marks)
    branch = [a for a in probe.arms if a.kind in ("if", "else")]  # arms written in the code
    untaken = sum(1 for a in branch if a.mark not in ran)
    no_viable = bool(every_output) and not any(o.startswith("ok:") for o in every_output)
    return DynamicFacts(list(original), [probe.variants[j] for j in deletable], constant,
                        deepest_unrun, untaken, len(branch), no_viable, [probe.variants[j] for j in unjudged])
