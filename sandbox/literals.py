"""Turn a typed value back into a Python object without ever evaluating code.

`ast.literal_eval` reads almost every canonical repr. The few built-in values whose repr is
not a literal (`nan`, `inf`, `frozenset({...})`, `bytearray(b'...')`) are read by a small
whitelist walker over the same AST; anything else (calls, names, attribute access) is
refused with ValueError, as is a value that was truncated.
"""

from __future__ import annotations

import ast
import math

MAX_LITERAL_CHARS = 1_000_000
_NAMES = {"nan": math.nan, "inf": math.inf}
_CALLS = {"set": set, "frozenset": frozenset, "bytearray": bytearray}


def literal_from_typed(typed: dict) -> object:
    """The Python value a typed dict describes, or ValueError when it is not a literal."""
    if not isinstance(typed, dict) or not isinstance(typed.get("repr"), str):
        raise ValueError("expected a typed value dict with a 'repr' string")
    if typed.get("truncated"):
        raise ValueError("the value was truncated; its repr is not the whole value")
    return literal_from_text(typed["repr"])


def literal_from_text(text: str) -> object:
    if len(text) > MAX_LITERAL_CHARS:
        raise ValueError(f"repr longer than {MAX_LITERAL_CHARS} characters")
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    try:
        tree = ast.parse(text.strip(), mode="eval")
        return _convert(tree.body)
    except (SyntaxError, MemoryError, RecursionError, TypeError) as exc:
        raise ValueError(f"not a literal: {type(exc).__name__}") from None


def _convert(node: ast.AST) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_convert(item) for item in node.elts]
        return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise ValueError("not a literal: ** in dict")
        return {_convert(k): _convert(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _convert(node.operand)
        if type(operand) not in (int, float, complex):
            raise ValueError("not a literal: sign on a non-number")
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = _convert(node.left), _convert(node.right)
        if type(left) not in (int, float) or type(right) is not complex:
            raise ValueError("not a literal: arithmetic")
        return left + right if isinstance(node.op, ast.Add) else left - right
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _CALLS and not node.keywords and len(node.args) <= 1):
        make = _CALLS[node.func.id]
        if not node.args:
            return make()
        inner = _convert(node.args[0])
        if make is bytearray and type(inner) is not bytes:
            raise ValueError("not a literal: bytearray of a non-bytes value")
        if make is not bytearray and type(inner) not in (set, list, tuple):
            raise ValueError("not a literal: set of a non-collection")
        return make(inner)
    raise ValueError(f"not a literal: {type(node).__name__}")
