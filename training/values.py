"""Python values as they appear in answers: parsing literals, naming types, comparing.

Answers are compared by value, never by substring (METHOD.md section 8, item 5) and never by
executing them (item 1): a predicted value is accepted only if `ast.literal_eval` can read
it, and then compared to the gold value as Python's `==` would, with exact types all the way
down (`True` is not `1`, `1.0` is not `1`), sets and dicts by value: the rule CRUXEval and
LiveCodeBench's execution graders use, so `0.3` is not `0.30000000000000004`. A float
tolerance exists only as an explicit option (`FloatTolerance`, off by default). Parsing is
bounded so that a giant or deeply nested answer costs little and fails.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

MAX_LITERAL_CHARS = 20_000


@dataclass(frozen=True)
class FloatTolerance:
    """An explicit, opt-in float tolerance (`math.isclose`). Not the default: with it,
    `1234568.0` passes for `1234567.0` and `0.0` for `1e-10`, which `==` rejects."""

    rel: float = 1e-6
    abs: float = 1e-9

    def __post_init__(self) -> None:
        for name in ("rel", "abs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value < 0:
                raise ValueError(f"float tolerance {name} must be a finite number >= 0, got {value!r}")

    @classmethod
    def from_option(cls, option: object) -> "FloatTolerance | None":
        """A reward option as a tolerance: None/False (exact, the default), True (the
        defaults above), a number (relative tolerance), or {"rel": .., "abs": ..}."""
        if option is None or option is False:
            return None
        if option is True:
            return cls()
        if isinstance(option, cls):
            return option
        if isinstance(option, (int, float)):
            return cls(rel=float(option), abs=0.0)
        if isinstance(option, dict) and set(option) <= {"rel", "abs"}:
            return cls(**option)
        raise ValueError(f"float_tolerance must be None, a bool, a number or {{'rel', 'abs'}}, got {option!r}")


class NotALiteral(ValueError):
    """The text is not a (bounded) Python literal."""


# ints past Python's default 4,300-digit text limit (a hex literal parses at any length,
# but its repr raises): not a value any program's result or argument can be written as
MAX_INT_BITS = 14_000


def _bounded(value: object) -> object:
    todo = [value]
    while todo:
        v = todo.pop()
        kind = type(v)
        if kind is int and v.bit_length() > MAX_INT_BITS:
            raise NotALiteral(f"an int of {v.bit_length()} bits")
        if kind in (list, tuple, set, frozenset):
            todo.extend(v)
        elif kind is dict:
            todo.extend(v.keys())
            todo.extend(v.values())
    return value


def parse_literal(text: str, max_chars: int = MAX_LITERAL_CHARS) -> object:
    """Read `text` as a Python literal or raise NotALiteral (never evaluates code)."""
    if not isinstance(text, str):
        raise NotALiteral(f"expected text, got {type(text).__name__}")
    text = text.strip()
    if not text:
        raise NotALiteral("empty value")
    if len(text) > max_chars:
        raise NotALiteral(f"value longer than {max_chars} characters")
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise NotALiteral(f"not a Python literal: {exc.__class__.__name__}") from None
    return _bounded(value)


def literal_from_node(node: ast.AST) -> object:
    """A literal from an already parsed expression node, or NotALiteral."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise NotALiteral(f"not a Python literal: {exc.__class__.__name__}") from None
    return _bounded(value)


_TYPE_ALIASES = {
    "string": "str",
    "integer": "int",
    "boolean": "bool",
    "none": "NoneType",
    "nonetype": "NoneType",
    "null": "NoneType",
    "dictionary": "dict",
    "double": "float",
}
_CLASS_REPR = re.compile(r"^<class\s+'(?:builtins\.)?([A-Za-z_][\w.]*)'>$")
_GENERIC = re.compile(r"^(?:typing\.)?([A-Za-z_]\w*)\s*\[.*\]$", re.S)


def canonical_type(name: str) -> str:
    """Normalise a type name as a model may write it (`List[int]`, `<class 'str'>`,
    `Integer`) to `type(v).__name__` form; unknown names come back stripped."""
    text = name.strip().strip("`").strip()
    m = _CLASS_REPR.match(text)
    if m:
        text = m.group(1)
    m = _GENERIC.match(text)
    if m:
        text = m.group(1)
    if text.startswith("builtins."):
        text = text[len("builtins.") :]
    low = text.lower()
    if low in _TYPE_ALIASES:
        return _TYPE_ALIASES[low]
    if low in {"int", "float", "str", "list", "dict", "set", "tuple", "bool", "bytes",
               "complex", "frozenset", "bytearray", "range"}:
        return low
    return text


def type_name(value: object) -> str:
    return type(value).__name__


def values_equal(pred: object, gold: object, tolerance: FloatTolerance | None = None) -> bool:
    """Python's `==` with exact types all the way down (1 != 1.0 != True, list != tuple),
    dict and set order ignored; floats compared with `==` unless `tolerance` is given."""
    if type(pred) is not type(gold):
        return False
    if isinstance(gold, float):
        if tolerance is None:
            return pred == gold
        if math.isnan(gold) or math.isnan(pred):  # type: ignore[arg-type]
            return math.isnan(gold) and math.isnan(pred)  # type: ignore[arg-type]
        return math.isclose(pred, gold, rel_tol=tolerance.rel, abs_tol=tolerance.abs)  # type: ignore[arg-type]
    if isinstance(gold, complex):
        return values_equal(pred.real, gold.real, tolerance) and values_equal(  # type: ignore[attr-defined]
            pred.imag, gold.imag, tolerance)  # type: ignore[attr-defined]
    if isinstance(gold, (list, tuple)):
        return len(pred) == len(gold) and all(  # type: ignore[arg-type]
            values_equal(p, g, tolerance) for p, g in zip(pred, gold))  # type: ignore[call-overload]
    if isinstance(gold, dict):
        if pred.keys() != gold.keys() or _key_reprs(pred) != _key_reprs(gold):  # type: ignore[attr-defined, arg-type]
            return False
        return all(values_equal(pred[k], v, tolerance) for k, v in gold.items())  # type: ignore[index]
    if isinstance(gold, (set, frozenset)):
        return _sets_equal(pred, gold, tolerance)  # type: ignore[arg-type]
    return pred == gold


def _key_reprs(items: dict | set | frozenset) -> list[str]:
    """Sorted reprs: equal keys of different types (1, 1.0, True) collide in a dict or set,
    their reprs do not."""
    return sorted(map(repr, items))


def _sets_equal(pred: set, gold: set, tolerance: FloatTolerance | None) -> bool:
    if len(pred) != len(gold):
        return False
    if _key_reprs(pred) == _key_reprs(gold):
        return True
    if len(gold) > 500:  # an element-wise match is quadratic; big sets must match by repr
        return False
    remaining = list(pred)
    for g in gold:
        for i, p in enumerate(remaining):
            if values_equal(p, g, tolerance):
                del remaining[i]
                break
        else:
            return False
    return True
