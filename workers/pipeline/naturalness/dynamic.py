"""Dynamic naturalness checks: what the program does on its sample's inputs.

One sandbox job per program runs one instrumented copy of it: every branch arm and loop
body is marked, every loop body counts its turns, and every deletable statement or block is
guarded by `if __off__ != j:`. With `__off__ = -1` the copy is the program itself (its marks
say which arms each input reached); with `__off__ = j` it is the program with statement j
replaced by `pass`. Two more kinds of variant share the copy: two statements of one block
left out together (each alone changes an output, together none: they undo each other), and
an expression that gives one of its operands back (`int(str(n))` as `n`, `x + offset` as
`x`; see `_given_back`). The driver and the copy are one module, so a job compiles once. A
deletion that stops a loop from advancing ends that variant with an error instead of hanging
the job. The job returns plain data (output digests, marks); `judge` turns it into findings:
`deletable_statement` (a deletion, of one statement or of a pair, changes no output on any
input), `idle_expression` (an operand given back changes none), `unjudged_statement` (the
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
Answer sites (a call of the target predicate, a conditional expression's test) mark which
answer they gave, so the kept inputs can be chosen to show both (`_Answers`).
"""

from __future__ import annotations

import ast
import functools
import inspect
from dataclasses import dataclass, field

from workers.pipeline.inputs import effect_swap, greedy_cover

DYNAMIC_REASONS = ("no_viable_input", "deletable_statement", "idle_expression", "unjudged_statement",
                   "constant_output", "deepest_block_unrun")
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
OP = "__probe_op__"  # gives an expression's operand back in its variant
ARM = "__probe_arm__"  # takes one arm of a conditional expression in its variants
ANSWER = "__probe_answer__"  # marks the answer a call of the target predicate gave
TEST = "__probe_test__"  # marks which arm a conditional expression's test chose


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
    variants: list[tuple[int, str]] = field(default_factory=list)  # (line, statement or expression text)
    within: list[int] = field(default_factory=list)  # per variant (see Instrumented.within)
    statements: int = 0  # variants below this index leave a statement out; the rest idle an expression
    pairs: tuple[int, ...] = ()  # (see Instrumented.pairs)


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


def _guard(stmt: ast.stmt, j: int, pairs: tuple[int, ...] = ()) -> ast.If:
    """`if __off__ != j: <statement j>` (`if __off__ not in (j, p, q)`: also left out in the
    variants p, q that leave out a pair of statements holding it): not a branch of the
    program, so not an arm."""
    off = ast.Name(OFF, ast.Load())
    test = ast.Compare(off, [ast.NotIn()], [ast.Tuple([ast.Constant(v) for v in (j, *pairs)], ast.Load())]) \
        if pairs else ast.Compare(off, [ast.NotEq()], [ast.Constant(j)])
    node = ast.copy_location(ast.If(test=_located(test, stmt.lineno), body=[stmt], orelse=[]), stmt)
    node.probe_guard, node.probe_index = True, j
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
                self._open[-1].append(node.probe_index)
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


# Expressions that give back what one of their operands is, whatever the data: a conversion
# to the type the value already has, or a round trip (`int(str(n))`, `chr(ord(c))`,
# `''.join(list(s))`, `f'{s}'`, `'{}'.format(s)`, `'%s' % s` of a text, `n // 1` of an
# int), arithmetic by a name, or a chain of steps, that leaves the value as it was (`x +
# offset` with `offset = 0`, `x * 2 // 2`), a call of the program's own function that gives
# its argument back, and a conditional expression or an if statement whose two arms give
# the same outputs (unless its test is the target's own use). A default for a falsy value
# (`name or 'guest'`) is not asked: three kept inputs that cover a program's arms often have
# no room for the one that needs it. Each is a variant in which the expression gives that
# operand back; one
# that changes no output on the kept inputs is `idle_expression`, as a statement whose
# deletion changes none is deletable. Normalizers that depend on the data (`w.strip()` on words
# without blanks, `abs(n)` of numbers never below zero, `sorted(xs)`, `set(xs)` of items that
# never repeat, a clamp `max(0, v)` that never bites) are asked only by the builtin
# generator's self-check (`normalizers=True`): a teacher's guard the inputs never need is
# measured as an untaken arm is, not rejected. Copies (`list(xs)`, `d.copy()`) are never
# asked: a copy guards the caller's value, which no output shows.
# a conversion -> the type an operand it gives back must have (else the variant is a change)
SAME_TYPE_CALLS = {"int": "int", "float": "float", "str": "str", "bool": "bool", "tuple": "tuple",
                   "frozenset": "frozenset", "round": "int", "chr": "str"}
NORMALIZING_CALLS = frozenset({"abs", "sorted", "set"})
NORMALIZING_METHODS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "capitalize", "title",
                                 "swapcase", "replace", "removeprefix", "removesuffix", "zfill", "ljust", "rjust",
                                 "center", "expandtabs"})
# the target methods whose own calls the self-check asks too: a case change of text that
# has no letter of the other case, a strip of characters the text never has, a pad to a
# width the text already has, a replace of what it never holds is a use of the method a
# reader learns to skip (the generator writes their data to give them work)
TARGET_NORMALIZERS = frozenset({"lower", "upper", "casefold", "swapcase", "title", "capitalize",
                                "strip", "lstrip", "rstrip", "removeprefix", "removesuffix",
                                "ljust", "rjust", "center", "zfill", "replace"})
MAX_EXPRESSIONS = 40  # expression variants per program (after the statement variants)
MAX_PAIRS = 30  # variants leaving out two statements side by side
MAX_HANDLERS = 10  # variants in which an except clause lets its exception go on
# (moved into a lambda, they would change what they do; so would `super()`)
_UNSAFE = (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda)
# the builtin self-check's own templates hold no binding or yield in a lambda: an expression
# around a key function (`min(ws, key=lambda w: w.lower()).lower()`) is asked there
_UNSAFE_IN_OWN_DRAWS = (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
              ast.Pow: "**", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.LShift: "<<",
              ast.RShift: ">>", ast.MatMult: "@"}


def _simple(node: ast.expr) -> bool:
    """A name or a constant (perhaps negated): the operand arithmetic may do nothing with."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, (ast.Name, ast.Constant))


def _constant(node: ast.expr) -> bool:
    """A literal number or one folded from literals (`-1`, `10 ** 9`)."""
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand)
    if isinstance(node, ast.BinOp):
        return _constant(node.left) and _constant(node.right)
    return isinstance(node, ast.Constant)


def _given_back(node: ast.expr, target: str, normalizers: bool,
                helpers: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Which operands `node` may give back unchanged (none: not a candidate): `arg0` /
    `arg1` (a call's argument), `inner` (the argument of the call a conversion converts: a
    round trip), `fvalue` (the one value an f-string formats), `receiver` (a method's),
    `left` / `right` / `first` (the value an arithmetic chain starts from), `body` /
    `orelse` (a conditional expression's arms, idle only together: one arm no input needs
    is an arm untaken, measured as branch arms are). `target`: the entry's own function,
    method or operator (`+`, `//=`), whose uses are the point of the program. `helpers`:
    the program's own functions, whose call may give its first argument back (`_norm(n)`,
    `clamp(n, 0, 1000)` whose bounds never bite)."""
    if isinstance(node, ast.Call):
        func = node.func
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return ()
        if isinstance(func, ast.Name) and func.id != target:
            name, count = func.id, len(node.args)
            if count == 1 and name in SAME_TYPE_CALLS:  # and a round trip: `int(str(n))` -> `n`
                return ("arg0", "inner") if _converting_call(node.args[0]) else ("arg0",)
            if name == "round" and count == 2 and _constant(node.args[1]) and ast.literal_eval(node.args[1]) == 0:
                return ("arg0",)  # `round(n, 0)` of an int
            if count and name in helpers:
                return ("arg0",)
            if count == 1 and normalizers and name in NORMALIZING_CALLS:
                return ("arg0",)
            if normalizers and name in ("min", "max") and count == 2:  # a clamp by a constant
                a, b = node.args
                if _constant(a) != _constant(b):
                    return ("arg1",) if _constant(a) else ("arg0",)
        elif _joins_letters(node) and func.attr != target:  # `''.join(s)` of a text; `''.join(list(s))`
            return ("arg0", "inner") if _converting_call(node.args[0]) else ("arg0",)
        elif _formats_alone(node):  # `'{}'.format(s)` of a text
            return ("arg0",)
        elif normalizers and isinstance(func, ast.Attribute) and func.attr in NORMALIZING_METHODS \
                and (func.attr != target or target in TARGET_NORMALIZERS):
            return ("receiver",)
        return ()
    if isinstance(node, ast.JoinedStr) and len(node.values) == 1 and isinstance(node.values[0], ast.FormattedValue) \
            and node.values[0].conversion == -1 and node.values[0].format_spec is None:
        return ("fvalue",)  # `f'{s}'`
    if isinstance(node, ast.BinOp):
        if _OPERATORS.get(type(node.op)) == target.removesuffix("=") or _constant(node):
            return ()
        if _percent_alone(node):
            return ("right",)  # `'%s' % s` of a text
        if isinstance(node.op, ast.FloorDiv) and isinstance(node.right, ast.Constant) \
                and type(node.right.value) is int and node.right.value == 1:
            return ("left",)  # `n // 1` of an int (a float it floors)
        # by a name (`x + offset`, `total * scale`), or a chain that starts from a value
        # (`x * 2 // 2`, `n + k - k`). One step by a literal (`n % 3`, `at + 1`) on small
        # inputs often changes nothing by chance, and the literal identities (`x + 0`) are the
        # static rules'
        kinds = ("left",) if isinstance(node.right, ast.Name) else ()
        if _simple(node.right) and isinstance(node.left, ast.BinOp) and _simple(node.left.right):
            kinds += ("first",)
        return kinds
    if isinstance(node, ast.IfExp) and not (target and _calls(node.test, target)):
        return ("body", "orelse")  # (a choice by the target's own test is how the target is used)
    return ()


def _formats_alone(node: ast.Call) -> bool:
    """`'{}'.format(x)`: `str(x)` spelled as a template."""
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(func.value, ast.Constant) \
        and func.value.value == "{}" and len(node.args) == 1 and not node.keywords


def _percent_alone(node: ast.BinOp) -> bool:
    """`'%s' % x`: `str(x)` spelled as a template."""
    return isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and node.left.value == "%s"


def _typed(node: ast.expr) -> str | None:
    """The type an operand `node` gives back must have (else its variant is a change): a
    conversion's, a template's (`f'{s}'`, `'{}'.format(s)`, `'%s' % s`, `''.join(s)`: str),
    `n // 1` and `round(n, 0)`'s (int); None for the rest."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in SAME_TYPE_CALLS:
            return SAME_TYPE_CALLS[node.func.id]
        return "str" if _joins_letters(node) or _formats_alone(node) else None
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.BinOp) and _percent_alone(node):
        return "str"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        return "int"
    return None


def _calls(node: ast.expr, name: str) -> bool:
    """Whether `node` calls a function or method named `name`."""
    return any(isinstance(n, ast.Call) and (isinstance(n.func, ast.Name) and n.func.id == name
                                            or isinstance(n.func, ast.Attribute) and n.func.attr == name)
               for n in ast.walk(node))


def _holds_target(node: ast.AST, target: str) -> bool:
    """Whether `node` may use the target: a call of it by name, or (an operator, a
    comparison, an index or a slice) any node of that kind; no target: never."""
    if not target:
        return False
    if target.isidentifier():
        return _calls(node, target)
    op = target.removesuffix("=") if target not in ("==", "!=", "<=", ">=") else target
    kinds = {ast.Subscript} if target.startswith(("[", "d[")) else \
        {ast.Compare} if op in ("<", "<=", ">", ">=", "==", "!=", "in", "not in") else {ast.BinOp, ast.AugAssign}
    return any(isinstance(n, tuple(kinds)) and (not isinstance(n, (ast.BinOp, ast.AugAssign))
                                                or _OPERATORS.get(type(n.op)) == op)
               for n in ast.walk(node))


# the calls a round trip goes through (`int(str(n))`, `chr(ord(c))`, `''.join(list(s))`);
# `str(len(w))` is no round trip, and asking it wrapped the call twice, which hid the
# operand of a round trip around it (`int(str(len(w)))`)
_CONVERSIONS = frozenset({"str", "int", "float", "bool", "ord", "chr", "list", "tuple", "set", "frozenset", "round"})


def _converting_call(node: ast.expr) -> bool:
    return _one_arg_call(node) and isinstance(node.func, ast.Name) and node.func.id in _CONVERSIONS


def _one_arg_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
        and not isinstance(node.args[0], ast.Starred)


def _joins_letters(node: ast.Call) -> bool:
    """`''.join(x)`: a text again where `x` is one."""
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Constant) \
        and func.value.value == "" and len(node.args) == 1


def _first_evaluated(node: ast.expr) -> tuple[ast.AST, str, int | None]:
    """Where the value an arithmetic chain starts from sits (its parent, field, index):
    down the left operands, and into the value a variant wrapper of an operand
    (`__probe_op__(j, value, rest)`) evaluates first."""
    parent, field, index = (node, "args", 1) if _is_wrapper(node) else (node, "left", None)
    while True:
        child = getattr(parent, field) if index is None else getattr(parent, field)[index]
        if isinstance(child, ast.BinOp):
            parent, field, index = child, "left", None
        elif _is_wrapper(child) and getattr(child, "probe_kind", "") in ("left", "first"):
            parent, field, index = child, "args", 1
        else:
            return parent, field, index


def _is_wrapper(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == OP


class _OnEachCall(ast.NodeTransformer):
    """Visits only the code that runs on each call: module and class bodies ran once, at
    load, and a function's defaults and decorators with them."""

    def visit_Module(self, node: ast.Module) -> ast.AST:
        node.body = [self.visit(stmt) if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)) else stmt
                     for stmt in node.body]
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.body = [self.visit(stmt) if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)) else stmt
                     for stmt in node.body]
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = [self.visit(stmt) for stmt in node.body]
        return node


class _Expressions(_OnEachCall):
    """Each candidate expression, for each operand it may give back, becomes a variant j:
    `__probe_op__(j, <operand>, lambda __vj: <expression with __vj for the operand>)` (the
    operand evaluated once, first, as the expression evaluates it; the rest only when
    `__off__ != j`); a conditional expression's test becomes `__off__ == j or (__off__ !=
    `__probe_arm__(j, <test>, lambda: <body>, lambda: <orelse>)` takes the body in variant j
    and the other arm in j + 1. Innermost first; nothing is copied."""

    def __init__(self, code: str, first: int, target: str, limit: int, normalizers: bool,
                 if_arms: bool = True) -> None:
        self.lines = [line.encode() for line in code.splitlines()]
        self.next, self.target, self.limit, self.normalizers = first, target, limit, normalizers
        self.if_arms = if_arms  # ask whether an if statement's arms give the same outputs
        self.variants: list[tuple[int, str]] = []
        self.pairs: list[int] = []  # j of each conditional expression's or if statement's (j, j + 1)
        self.normalizing: list[int] = []  # variants of normalizers (asked only with `normalizers`)
        self.own: list[int] = []  # those of the target's own calls (TARGET_NORMALIZERS)
        self.unsafe = 0  # nodes seen holding a binding, a yield or a lambda (an ancestor holds one too)
        self.unsafe_kinds = _UNSAFE_IN_OWN_DRAWS if normalizers else _UNSAFE
        # the module's functions that do not use the target (set by visit_Module): a C6
        # helper holding the target's use is the target's, and is never idled either
        self.helpers: frozenset[str] = frozenset()

    def text(self, node: ast.expr) -> str:
        """`node`'s source (its positions are the parsed code's: taken before any change)."""
        if node.lineno == node.end_lineno:
            return self.lines[node.lineno - 1][node.col_offset:node.end_col_offset].decode(errors="replace")
        return ast.unparse(node)

    def visit_Module(self, node: ast.Module) -> ast.AST:
        self.helpers = frozenset(stmt.name for stmt in node.body if isinstance(stmt, ast.FunctionDef)
                                 and not _holds_target(stmt, self.target))
        return super().visit_Module(node)

    def visit_If(self, node: ast.If) -> ast.AST:
        if _is_guard(node):  # the statement guard's own test is the probe's
            node.body = [self.visit(stmt) for stmt in node.body]
            return node
        before = self.unsafe
        test_text = self.text(node.test)
        node = self.generic_visit(node)
        if not self.if_arms or self.unsafe > before or len(self.variants) + 2 > self.limit \
                or (self.target and _calls(node.test, self.target)):
            return node
        # an if statement whose arms give the same outputs whichever the test says (`w[0]`
        # in one, `w[:1]` in the other): the test forced true (variant j), then false
        # (j + 1); idle only when both are, as a conditional expression is
        j = self._variant(node.lineno, f"if {test_text}: -> its arm")
        self._variant(node.lineno, f"if {test_text}: -> the other arm")
        self.pairs.append(j)
        # `__off__ == j or (__off__ != j + 1 and <test>)` (the test's own nodes keep their places)
        line = node.lineno
        on = _located(ast.Compare(ast.Name(OFF, ast.Load()), [ast.Eq()], [ast.Constant(j)]), line)
        off = _located(ast.Compare(ast.Name(OFF, ast.Load()), [ast.NotEq()], [ast.Constant(j + 1)]), line)
        forced = ast.copy_location(ast.BoolOp(ast.Or(), [on, ast.copy_location(ast.BoolOp(ast.And(), [off, node.test]),
                                                                                node.test)]), node.test)
        forced.probe_variants = (j, j + 1)
        node.test = forced
        return node

    def _variant(self, line: int, text: str) -> int:
        j = self.next
        self.next += 1
        self.variants.append((line, text[:80]))
        return j

    def generic_visit(self, node: ast.AST) -> ast.AST:
        kinds = _given_back(node, self.target, self.normalizers, self.helpers) if isinstance(node, ast.expr) else ()
        if len(kinds) > self.limit - len(self.variants):
            kinds = ()
        texts = [f"{self.text(node)} -> {self.text(_operand(node, k))}" for k in kinds]
        before = self.unsafe
        node = super().generic_visit(node)
        if self.unsafe > before or isinstance(node, self.unsafe_kinds) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"):
            self.unsafe += 1
            return node
        line = getattr(node, "lineno", 1)
        converts = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
        typed = _typed(node) if kinds else None
        if isinstance(node, ast.IfExp) and kinds:  # `__probe_arm__(j, <test>, lambda: <body>, lambda: <orelse>)`
            j = self._variant(line, texts[0])
            self._variant(line, texts[1])
            self.pairs.append(j)
            arms = [ast.Lambda(ast.arguments([], [], None, [], [], None, []), arm) for arm in (node.body, node.orelse)]
            for arm in arms:
                arm.probe_rest = True
            node = _located(ast.Call(ast.Name(ARM, ast.Load()), [ast.Constant(j), node.test, *arms], []), line)
            node.probe_variants = (j, j + 1)
            return node
        for kind, text in zip(kinds, texts):
            j = self._variant(line, text)
            v = f"__v{j}"
            if kind == "first":
                parent, field, index = _first_evaluated(node)
            elif kind == "fvalue":
                parent, field, index = node.values[0], "value", None
            elif kind == "inner":  # (after `arg0`: the call is that variant's operand)
                call = node.args[1] if _is_wrapper(node) else node.args[0]
                parent, field, index = (call, "args", 1) if _is_wrapper(call) else (call, "args", 0)
            else:
                parent, field, index = {"arg0": (node, "args", 0), "arg1": (node, "args", 1),
                                        "receiver": (getattr(node, "func", None), "value", None),
                                        "left": (node, "left", None), "right": (node, "right", None)}[kind]
            if index is None:
                operand = getattr(parent, field)
                setattr(parent, field, ast.Name(v, ast.Load()))
            else:
                operand = getattr(parent, field)[index]
                getattr(parent, field)[index] = ast.Name(v, ast.Load())
            rest = ast.Lambda(ast.arguments([], [ast.arg(v)], None, [], [], None, []), node)
            rest.probe_rest = True  # called at once, where the expression stood
            args = [ast.Constant(j), operand, rest]
            if typed and kind in ("arg0", "inner", "fvalue", "left", "right"):
                args.append(ast.Constant(typed))
            elif isinstance(node, ast.Call) and converts not in self.helpers:
                self.normalizing.append(j)
                if isinstance(node.func, ast.Attribute) and node.func.attr == self.target:
                    self.own.append(j)
            node = _located(ast.Call(ast.Name(OP, ast.Load()), args, []), line)
            node.probe_kind, node.probe_variants = kind, (j,)
        return node


def _operand(node: ast.expr, kind: str) -> ast.expr:
    """The operand `kind` names in the untouched `node` (for the variant's text)."""
    if kind == "first":
        while isinstance(node, ast.BinOp):
            node = node.left
        return node
    if kind == "inner":
        return node.args[0].args[0]
    if kind == "fvalue":
        return node.values[0].value
    return {"arg0": lambda: node.args[0], "arg1": lambda: node.args[1], "receiver": lambda: node.func.value,
            "left": lambda: node.left, "right": lambda: node.right,
            "body": lambda: node.body, "orelse": lambda: node.orelse}[kind]()


def _within_arms(tree: ast.Module) -> dict[int, int]:
    """Expression variant j -> the mark of the innermost arm holding it, read from the marked
    tree (an arm's body starts with `__hit__(k)`; -1: a function's own top level)."""
    found: dict[int, int] = {}

    def is_hit(stmt: ast.AST) -> int | None:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "__hit__":
            return stmt.value.args[0].value
        return None

    def walk(node: ast.AST, arm: int) -> None:
        if isinstance(node, (ast.FunctionDef, ast.Lambda)) and not getattr(node, "probe_rest", False):
            arm = -1  # called from anywhere
        for j in getattr(node, "probe_variants", ()):
            found.setdefault(j, arm)
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                current = arm
                for item in value:
                    mark = is_hit(item)
                    if mark is not None:
                        current = mark
                    if isinstance(item, ast.AST):
                        walk(item, current)
            elif isinstance(value, ast.AST):
                walk(value, arm)

    walk(tree, -1)
    return found


def is_predicate(method: str) -> bool:
    """A method that answers yes or no (`isdigit`, `issubset`, `is_integer`, `startswith`)."""
    return method.startswith("is") or method in ("startswith", "endswith")


def answer_mark(site: int, answer: bool) -> int:
    """The mark an answer site records for `answer` (see `_Answers`): negative, so never an
    arm's."""
    return -1 - 2 * site - int(answer)


def _wrapped(name: str, site: int, node: ast.expr) -> ast.Call:
    """`name(site, node)`, placed where `node` is (its own nodes keep their places)."""
    call = ast.Call(ast.Name(name, ast.Load()), [ast.Constant(site), node], [])
    for made in (call, call.func, call.args[0]):
        ast.copy_location(made, node)
    return call


class _Answers(_OnEachCall):
    """Coverage goals beside the arms (session 30): each call of the predicate `target` becomes
    `__probe_answer__(k, <call>)` and each conditional expression's test `__probe_test__(k,
    <test>)`, so a run marks which answer site k gave (`answer_mark`). A test that every kept
    input answers alike says nothing of what the program does with the other answer, and a
    question about the target's call is then the same question on every input: the input
    choice (`inputs.greedy_cover`) reaches for both answers once the arms are covered."""

    def __init__(self, target: str) -> None:
        self.target = target if is_predicate(target) else ""
        self.sites: list[tuple[str, int]] = []  # per site k: ("target" | "test", line)

    def _site(self, kind: str, name: str, node: ast.expr) -> ast.Call:
        self.sites.append((kind, node.lineno))
        return _wrapped(name, len(self.sites) - 1, node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        node.test = self._site("test", TEST, node.test)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == ARM and len(node.args) == 4:  # an asked conditional expression
            node.args[1] = self._site("test", TEST, node.args[1])
        elif self.target and isinstance(func, ast.Attribute) and func.attr == self.target:
            return self._site("target", ANSWER, node)
        return node


def one_way(sites: tuple[tuple[str, int], ...] | list[tuple[str, int]], marks: set[int], kind: str) -> int:
    """The answer sites of `kind` that ran and gave one answer only, by the union `marks` of
    the runs' marks."""
    return sum(1 for k, (what, _) in enumerate(sites)
               if what == kind and (answer_mark(k, True) in marks) != (answer_mark(k, False) in marks))


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


def __probe_answer__(k, value):
    # a call of the target predicate: its answer marked (answer_mark)
    if value is True or value is False:
        __probe_seen__.add(-1 - 2 * k - value)
    return value


def __probe_test__(k, test):
    # a conditional expression's test, its truth taken once: which arm it chose marked
    if test:
        __probe_seen__.add(-2 - 2 * k)
        return True
    __probe_seen__.add(-1 - 2 * k)
    return False


def __probe_op__(j, value, rest, kind=None):
    # an expression variant: its operand's value in variant j, else the expression's (a
    # conversion gives its operand back only where it has the type converted to)
    if __off__ != j:
        return rest(value)
    if not may_give_back(value, kind):
        raise __probe_stop__("grow")
    return value


def __probe_arm__(j, test, body, orelse):
    # a conditional expression: one arm whatever the test in variants j and j + 1
    if __off__ != j and __off__ != j + 1:
        return body() if test else orelse()
    value = body() if __off__ == j else orelse()
    if not may_give_back(value):
        raise __probe_stop__("grow")
    return value


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
        # a check that turns bad input away (`if n < 1: raise ValueError(...)`) shows on
        # the inputs the execution filter drops: one whose error the variant changes shows it
        refused = [i for i, out in enumerate(probe_out)
                   if out.startswith("error:") and out[6:] not in ("turns", "cpu", "budget", "grow")]
        if deletable and refused:  # (a variant that runs away there changed it too, as on kept inputs)
            deletable = [j for j in deletable if not any(differs(j, c) for c in refused)]
    return [original, hits, chosen, probe_out, deletable, unjudged]
'''


@functools.cache
def _runtime() -> str:
    return _RUNTIME.replace("@SLACK@", str(VARIANT_SLACK))


@functools.cache
def _cover_source() -> str:
    return "\n\n".join(inspect.getsource(f) for f in (greedy_cover, effect_swap, outgrows, may_give_back)) + \
        f"\n\nMAX_GIVEN_BACK = {MAX_GIVEN_BACK}\n"


MAX_GIVEN_BACK = 1 << 24  # a number given back in a variant, at most (its size, for a text or a collection: 10,000)


def may_give_back(value: object, kind: str | None = None) -> bool:
    """Whether a variant may give `value` back: not too large to run on (`outgrows`) and, for
    a conversion (`kind`: the type it converts to), of that type already. Else the variant
    is stopped, which counts as a change (the probe's runtime and the builtin self-check)."""
    return not outgrows(value) and (kind is None or type(value).__name__ == kind)


def outgrows(value: object) -> bool:
    """Whether a value a variant gives back (an operand, or an arm whatever the test) is too
    large to run on: `n` for `n // 1000`, or a loop's `3 * n + 1` taken on every turn, feeds
    the next builtin call (`range`, `sum`, `*`, `**`) a size it runs on for minutes, where no
    loop turn can stop it. The variant is then stopped, which counts as a change: a program
    whose own numbers are that large is never found idle, and never held up."""
    kind = type(value)
    if kind is int or kind is float:
        return not -MAX_GIVEN_BACK <= value <= MAX_GIVEN_BACK
    if kind in (str, bytes, list, tuple, set, frozenset, dict):
        return len(value) > 10_000
    return False


@dataclass(frozen=True)
class Instrumented:
    tree: ast.Module
    arms: list[Arm]
    variants: list[tuple[int, str]]  # (line, text) of each guarded statement, then each idled expression
    # per variant, the mark of the innermost arm holding the statement or expression (-1: a
    # function's top level): an input whose run never marked that arm never ran it, so the
    # variant cannot change that input's output, and need not run on it
    within: list[int]
    statements: int = 0  # the first `statements` variants are statements
    pairs: tuple[int, ...] = ()  # j of each conditional expression's or if statement's two variants (j, j + 1)
    normalizing: tuple[int, ...] = ()  # variants of normalizing calls (`instrument(normalizers=True)`)
    own: tuple[int, ...] = ()  # of those, the target's own calls (TARGET_NORMALIZERS)
    singles: int = 0  # variants that leave out one statement (then pairs of them, up to `statements`)
    # per answer site k (`_Answers`): ("target", line) for a call of the target predicate,
    # ("test", line) for a conditional expression's test; its runs mark `answer_mark(k, ...)`
    answers: tuple[tuple[str, int], ...] = ()


def idle_expressions(found: list[int], statements: int, pairs: tuple[int, ...]) -> list[int]:
    """Of the variants `found` to change no output, the expressions that are idle (variants
    from `statements` on): a conditional expression (its variants j, j + 1 for j in `pairs`)
    only when both of its arms are."""
    found_set = set(found)
    single = {j for p in pairs if not {p, p + 1} <= found_set for j in (p, p + 1)}
    return [j for j in found if j >= statements and j not in single]


def _handlers(tree: ast.Module) -> list[ast.ExceptHandler]:
    """The except clauses of the module's functions (and its classes' methods), in order."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and node.handlers:
            found.extend(node.handlers)
    if not found:  # (most programs: no second walk)
        return []
    inside = {id(h) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for h in ast.walk(f) if isinstance(h, ast.ExceptHandler)}
    return sorted((h for h in found if id(h) in inside), key=lambda h: (h.lineno, h.col_offset))


def _reraise(j: int, line: int) -> ast.If:
    """`if __off__ == j: raise`, first in an except clause: in variant j the clause lets its
    exception go on (a guard, not an arm: filed under the arm that holds the clause)."""
    test = ast.Compare(ast.Name(OFF, ast.Load()), [ast.Eq()], [ast.Constant(j)])
    node = _located(ast.If(test=test, body=[ast.Raise(exc=None, cause=None)], orelse=[]), line)
    node.probe_guard, node.probe_index = True, j
    return node


def instrument(code: str, max_variants: int = 40, target: str = "", max_expressions: int = MAX_EXPRESSIONS,
               normalizers: bool = False, max_pairs: int = MAX_PAIRS, max_handlers: int = MAX_HANDLERS,
               if_arms: bool = True, answers: bool = True) -> Instrumented:
    """`code` instrumented: marks, turn counters, a guard on each of the first
    `max_variants` deletable statements (outermost first: the variants leaving each out),
    then up to `max_pairs` variants leaving out two of them in one block (nearest first),
    then up to `max_handlers` variants in which an except clause lets its exception go on, then
    up to `max_expressions` expressions that may give an operand back (`if_arms`: if
    statements too, whose arms may give the same outputs), each able to
    (innermost first; `target`: the entry's method, never asked; `normalizers`: the
    data-dependent ones too); with `answers`, the answer sites (`_Answers`). It runs with
    `__hit__(k)`, `__tick__()`, `__off__` and the answer sites' functions defined in its
    globals (the probe job's runtime, or the builtin generator's self-check in process)."""
    tree = ast.parse(code)
    lines = code.splitlines()
    found = _statements(tree)[:max_variants]
    text = [lines[block[i].lineno - 1].strip() for block, i in found]
    variants = [(block[i].lineno, t[:80]) for (block, i), t in zip(found, text)]
    # two statements of one block left out together (`total += 7` ... `total -= 7`; a
    # sentinel added then removed; a loop adding what the next one takes away): each alone
    # changes the output. Side by side first, then further apart, up to `max_pairs`
    placed = {(id(block), i): j for j, (block, i) in enumerate(found)}
    in_pairs: dict[int, list[int]] = {}
    paired: list[int] = []  # per pair variant, its first statement
    widest = max((len(block) for block, _ in found), default=0)
    for gap in range(1, widest):
        for j, (block, i) in enumerate(found):
            k = placed.get((id(block), i + gap))
            if k is None or len(paired) >= max_pairs:
                continue
            p = len(found) + len(paired)
            paired.append(j)
            in_pairs.setdefault(j, []).append(p)
            in_pairs.setdefault(k, []).append(p)
            variants.append((block[i].lineno, f"{text[j]} / {text[k]}"[:80]))
    for j, (block, i) in enumerate(found):
        block[i] = _guard(block[i], j, tuple(in_pairs.get(j, ())))
    # an except clause no input needs (`except TypeError` around int arithmetic, `except
    # Exception: raise`): in its variant the clause lets the exception go on, as if it were
    # not written; one that changes no output is deletable like a statement
    handlers = _handlers(tree)[:max_handlers] if "try" in code else []  # (two walks of the tree spared)
    for h in handlers:
        j = len(variants)
        variants.append((h.lineno, lines[h.lineno - 1].strip()[:80]))
        h.body.insert(0, _reraise(j, h.lineno))
    statements = len(variants)
    exprs = _Expressions(code, statements, target, max_expressions, normalizers, if_arms)
    if max_expressions:
        tree = exprs.visit(tree)
    variants += exprs.variants
    sites = _Answers(target if answers else "")
    # (a walk of every node is a tenth of the self-check's time: skipped where no
    # conditional expression, `a if c else b`, and no call of the predicate is written)
    if answers and (" else " in code or (sites.target and f".{sites.target}(" in code)):
        tree = sites.visit(tree)
    marks = _Instrument()
    tree = marks.visit(tree)  # every node it adds is placed as it is made
    arms = _within_arms(tree) if exprs.variants else {}
    within = [marks.within.get(j, -1) for j in range(len(found))] + [marks.within.get(j, -1) for j in paired]
    within += [marks.within.get(j, -1) for j in range(len(within), statements)]  # the except clauses
    within += [arms.get(j, -1) for j in range(statements, len(variants))]
    return Instrumented(tree, marks.arms, variants, within, statements, tuple(exprs.pairs), tuple(exprs.normalizing),
                        tuple(exprs.own), len(found), tuple(sites.sites))


def build_probe(code: str, max_variants: int = 40, target: str = "", answers: bool = True) -> Probe:
    """The driver module for `code`: the runtime and the instrumented copy, one module
    (`target`: the entry's method, whose calls are never idled; `answers`: with the answer
    sites as coverage goals)."""
    made = instrument(code, max_variants, target, answers=answers)
    driver = (_runtime() + "\n" + _cover_source() + "\n\n__probe_runtime__ = set(globals()) | {'__probe_runtime__'}\n\n"
              + ast.unparse(made.tree) + "\n")
    return Probe(driver, made.arms, made.variants, made.within, made.statements, made.pairs)


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
    unjudged: list[tuple[int, str]] = field(default_factory=list)  # variants the job's CPU left untried
    idle: list[tuple[int, str]] = field(default_factory=list)  # expressions whose operand changed no output

    def reasons(self) -> list[str]:
        out = ["no_viable_input"] if self.no_viable else []
        if self.deletable:
            out.append("deletable_statement")
        if self.idle:
            out.append("idle_expression")
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
    idle = idle_expressions(deletable, probe.statements, probe.pairs)
    return DynamicFacts(list(original), [probe.variants[j] for j in deletable if j < probe.statements], constant,
                        deepest_unrun, untaken, len(branch), no_viable, [probe.variants[j] for j in unjudged],
                        [probe.variants[j] for j in idle])
