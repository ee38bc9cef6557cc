"""Python values as they appear in answers: parsing literals, naming types, comparing.

Answers are compared by value, never by substring (METHOD.md section 8, item 5) and never by
executing them (item 1): a predicted value is accepted only if `ast.literal_eval` can read
it, and then compared to the gold value with exact types, a float tolerance and set order
ignored. Parsing is bounded so that a giant or deeply nested answer costs little and fails.
"""

from __future__ import annotations

import ast
import math
import re

MAX_LITERAL_CHARS = 20_000
FLOAT_REL_TOL = 1e-6
FLOAT_ABS_TOL = 1e-9


class NotALiteral(ValueError):
    """The text is not a (bounded) Python literal."""


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
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise NotALiteral(f"not a Python literal: {exc.__class__.__name__}") from None


def literal_from_node(node: ast.AST) -> object:
    """A literal from an already parsed expression node, or NotALiteral."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise NotALiteral(f"not a Python literal: {exc.__class__.__name__}") from None


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


def values_equal(pred: object, gold: object, rel_tol: float = FLOAT_REL_TOL,
                 abs_tol: float = FLOAT_ABS_TOL) -> bool:
    """Strict structural equality: same types all the way down (1 != 1.0 != True),
    floats within tolerance, dict/set order ignored."""
    if type(pred) is not type(gold):
        return False
    if isinstance(gold, float):
        if math.isnan(gold) or math.isnan(pred):  # type: ignore[arg-type]
            return math.isnan(gold) and math.isnan(pred)  # type: ignore[arg-type]
        return math.isclose(pred, gold, rel_tol=rel_tol, abs_tol=abs_tol)  # type: ignore[arg-type]
    if isinstance(gold, complex):
        return values_equal(pred.real, gold.real, rel_tol, abs_tol) and values_equal(  # type: ignore[attr-defined]
            pred.imag, gold.imag, rel_tol, abs_tol)  # type: ignore[attr-defined]
    if isinstance(gold, (list, tuple)):
        return len(pred) == len(gold) and all(  # type: ignore[arg-type]
            values_equal(p, g, rel_tol, abs_tol) for p, g in zip(pred, gold))  # type: ignore[call-overload]
    if isinstance(gold, dict):
        if pred.keys() != gold.keys() or _key_reprs(pred) != _key_reprs(gold):  # type: ignore[attr-defined, arg-type]
            return False
        return all(values_equal(pred[k], v, rel_tol, abs_tol) for k, v in gold.items())  # type: ignore[index]
    if isinstance(gold, (set, frozenset)):
        return _sets_equal(pred, gold, rel_tol, abs_tol)  # type: ignore[arg-type]
    return pred == gold


def _key_reprs(items: dict | set | frozenset) -> list[str]:
    """Sorted reprs: equal keys of different types (1, 1.0, True) collide in a dict or set,
    their reprs do not."""
    return sorted(map(repr, items))


def _sets_equal(pred: set, gold: set, rel_tol: float, abs_tol: float) -> bool:
    if len(pred) != len(gold):
        return False
    if _key_reprs(pred) == _key_reprs(gold):
        return True
    if len(gold) > 500:  # a tolerant match is quadratic; big float sets must match exactly
        return False
    remaining = list(pred)
    for g in gold:
        for i, p in enumerate(remaining):
            if values_equal(p, g, rel_tol, abs_tol):
                del remaining[i]
                break
        else:
            return False
    return True
