"""Question kinds: how each kind's answer line is graded and what its gold text is.

A registry (STYLE.md item 11): adding a kind is one class and one line in `KINDS`. Each
kind grades one answer on its own, so a missing or wrong line costs only its question.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from training.answers import parse_assertion
from training.errors import GroundTruthError
from training.question_record import COVERAGE, IO, NEXT_LINE, OI, VARIABLE, Question
from training.values import FloatTolerance, NotALiteral, canonical_type, parse_literal, values_equal

NIL = "Nil"


@dataclass(frozen=True)
class Signature:
    """How the entry point binds arguments: names that take a positional argument, names
    that take a keyword, and whether it has *args / **kwargs."""

    positional: tuple[str, ...]
    keywords: tuple[str, ...]
    varargs: bool = False
    varkw: bool = False

    def bind(self, args: tuple, kwargs: dict) -> dict | None:
        """Argument values by parameter name (surplus in "*" / "**"), or None when Python
        would refuse the call (too many positionals, unknown or repeated keyword)."""
        if len(args) > len(self.positional) and not self.varargs:
            return None
        bound: dict = dict(zip(self.positional, args))
        bound["*"] = tuple(args[len(self.positional):])
        extra: dict = {}
        for name, value in kwargs.items():
            if name in bound:
                return None
            if name in self.keywords:
                bound[name] = value
            elif self.varkw:
                extra[name] = value
            else:
                return None
        bound["**"] = extra
        return bound


@lru_cache(maxsize=1024)
def signature_of(code: str, entry_point: str) -> Signature | None:
    """The signature of the module-level `def entry_point` in `code`, or None."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry_point:
            a = node.args
            return Signature(tuple(x.arg for x in a.posonlyargs + a.args),
                             tuple(x.arg for x in a.args + a.kwonlyargs),
                             a.vararg is not None, a.kwarg is not None)
    return None


@dataclass(frozen=True)
class GradeContext:
    """What grading needs besides the question: the entry point; for O->I a callable that
    runs the stored function on a literal argument list and returns the typed result (None
    when the run did not return normally; it raises on infrastructure failure); the entry
    point's signature, so that `f(x=1)` is the call `f(1)`; and the float tolerance (None:
    exact, the default)."""

    entry_point: str
    run_call: Callable[[str], dict | None] | None = None
    signature: Signature | None = None
    tolerance: FloatTolerance | None = None


class QuestionKind(Protocol):
    name: str

    def grade(self, answer: str | None, question: Question, ctx: GradeContext) -> bool: ...


@lru_cache(maxsize=8192)
def cached_literal(text: str) -> object:
    """Gold values are parsed once per process: a trainer grades each sample many times."""
    return parse_literal(text)


def gold_typed_value(typed: dict) -> object:
    if not isinstance(typed, dict) or typed.get("truncated"):
        raise GroundTruthError("gold value missing or truncated")
    try:
        return cached_literal(str(typed["repr"]))
    except (KeyError, NotALiteral) as exc:
        raise GroundTruthError(f"gold value is not a literal: {exc}") from None


def observed_value(typed: dict | None) -> object:
    """The value of a typed result the sandbox observed, or NotALiteral. The reported type
    must be the literal's own type: an object whose `__repr__` prints `3` is not 3."""
    if not isinstance(typed, dict) or typed.get("truncated"):
        raise NotALiteral("no complete value")
    value = parse_literal(str(typed.get("repr", "")))
    if type(value).__name__ != canonical_type(str(typed.get("type", ""))):
        raise NotALiteral(f"repr of a {typed.get('type')!r} reads as a {type(value).__name__}")
    return value


@lru_cache(maxsize=8192)
def literal_args(args_text: str) -> tuple[tuple, tuple] | None:
    """The stored argument list as literals ((args), ((name, value), ...)), or None."""
    try:
        call = ast.parse(f"_({args_text})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        args = tuple(ast.literal_eval(a) for a in call.args)  # type: ignore[attr-defined]
        kwargs = tuple((k.arg, ast.literal_eval(k.value)) for k in call.keywords)  # type: ignore[attr-defined]
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k[0] is None for k in kwargs):  # type: ignore[attr-defined]
        return None
    return args, kwargs


def same_call(args: tuple, kwargs: dict, gold_args: tuple, gold_kwargs: dict,
              signature: Signature | None) -> bool:
    """Whether two literal argument lists make the same call: equal as written, or bound
    to the same parameters (`f(x=1)` is `f(1)` for `def f(x)`). Values compare exactly."""
    if values_equal(args, gold_args) and values_equal(kwargs, gold_kwargs):
        return True
    if signature is None:
        return False
    mine, gold = signature.bind(args, kwargs), signature.bind(gold_args, gold_kwargs)
    return mine is not None and gold is not None and values_equal(mine, gold)


class InputOutput:
    """`assert f(<args>) == ????`: the predicted literal is compared with the stored
    result; the model's text is never executed."""

    name = IO

    def grade(self, answer: str | None, question: Question, ctx: GradeContext) -> bool:
        if not answer:
            return False
        parsed = parse_assertion(answer, ctx.entry_point)
        if parsed is None or not parsed.value_ok:
            return False
        stored = literal_args(str(question.payload.get("args", "")))
        if stored is not None:
            if parsed.args is None or parsed.kwargs is None:
                return False
            if not same_call(parsed.args, parsed.kwargs, stored[0], dict(stored[1]), ctx.signature):
                return False
        return values_equal(parsed.value, gold_typed_value(question.payload["result"]), ctx.tolerance)


class OutputInput:
    """`assert f(????) == <result>`: only the literal argument list is taken from the
    answer and run against the stored function; any input giving the result is correct."""

    name = OI

    def grade(self, answer: str | None, question: Question, ctx: GradeContext) -> bool:
        if not answer:
            return False
        parsed = parse_assertion(answer, ctx.entry_point)
        if parsed is None or parsed.args is None:
            return False
        if ctx.run_call is None:
            raise GroundTruthError("output->input grading needs a sandbox runner")
        expected = gold_typed_value(question.payload["result"])
        try:
            return values_equal(observed_value(ctx.run_call(parsed.args_text())), expected, ctx.tolerance)
        except NotALiteral:
            return False


_LINE_PREFIX = re.compile(r"^(?:line\s*)?([0-9]{1,6})\s*[|:]\s+", re.I)


def code_key(text: str) -> str:
    """Source text compared whitespace-insensitively: runs of blanks collapse, blanks next
    to punctuation vanish, string literals and identifiers keep their spelling."""
    out: list[str] = []
    quote: str | None = None
    pending_space = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = None
            i += 1
            continue
        if ch == "#":
            break
        if ch.isspace():
            pending_space = True
            i += 1
            continue
        if pending_space and out and _word(out[-1]) and _word(ch):
            out.append(" ")
        pending_space = False
        if ch in "\"'":
            quote = ch
        out.append(ch)
        i += 1
    key = "".join(out)
    return key[:-1] if key.endswith(":") else key


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class NextLine:
    """Which line runs right after line N has executed for the k-th time: that line's
    source, or -1 when line N never runs or execution leaves the function there."""

    name = NEXT_LINE

    def grade(self, answer: str | None, question: Question, ctx: GradeContext) -> bool:
        if answer is None:
            return False
        text = answer.strip().strip("`").strip()
        target = int(question.payload["next_line"])
        if target == -1:
            return text == "-1"
        m = _LINE_PREFIX.match(text)
        if m:
            if int(m.group(1)) != target:
                return False
            text = text[m.end():]
        return code_key(text) == code_key(str(question.payload["source"]))


class VariableValue:
    """Value and type of a variable after line N has executed for the k-th time
    (`value; type`), or `Nil` when line N never runs."""

    name = VARIABLE

    def grade(self, answer: str | None, question: Question, ctx: GradeContext) -> bool:
        if answer is None:
            return False
        text = answer.strip().strip("`").strip()
        if not question.payload.get("executed"):
            return text.lower() == NIL.lower()
        value_text, sep, type_text = text.rpartition(";")
        if not sep:
            return False
        if canonical_type(type_text) != question.payload["type"]:
            return False
        try:
            value = parse_literal(value_text)
        except NotALiteral:
            return False
        return values_equal(value, cached_literal(str(question.payload["repr"])), ctx.tolerance)


_YES = {"yes", "true", "y"}
_NO = {"no", "false", "n"}


class Coverage:
    """Does line N run for this input: yes / no."""

    name = COVERAGE

    def grade(self, answer: str | None, question: Question, ctx: GradeContext) -> bool:
        if answer is None:
            return False
        word = answer.strip().strip("`.").strip().lower()
        expected = bool(question.payload["executed"])
        return word in (_YES if expected else _NO)


KINDS: dict[str, QuestionKind] = {
    kind.name: kind
    for kind in (InputOutput(), OutputInput(), NextLine(), VariableValue(), Coverage())
}


def grade_question(answer: str | None, question: Question, ctx: GradeContext) -> bool:
    try:
        kind = KINDS[question.kind]
    except KeyError:
        raise GroundTruthError(f"unknown question kind {question.kind!r}") from None
    return kind.grade(answer, question, ctx)


def variable_gold(executed: bool, repr_text: str | None, type_name: str | None) -> str:
    return f"{repr_text}; {type_name}" if executed else NIL


def next_line_gold(next_line: int, source: str | None) -> str:
    return "-1" if next_line == -1 else str(source).strip()


def coverage_gold(executed: bool) -> str:
    return "yes" if executed else "no"
