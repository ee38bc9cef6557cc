"""How a catalog entry is written in Python source.

The grid names operators, subscript forms and builtin functions alongside methods
("+", "[i:j]", "len()", "split"). One classification, shared by the static check and the
builtin generator, says which AST shape an entry stands for, so neither guesses from text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

BINOPS: dict[str, type[ast.operator]] = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv,
    "%": ast.Mod, "**": ast.Pow, "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor,
    "<<": ast.LShift, ">>": ast.RShift,
}
COMPARES: dict[str, type[ast.cmpop]] = {
    "==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
    "in": ast.In, "not in": ast.NotIn, "is": ast.Is, "is not": ast.IsNot,
}
SLICES: dict[str, tuple[bool, bool]] = {  # spelling -> (has lower, has upper)
    "[:]": (False, False), "[i:j]": (True, True), "[i:]": (True, False), "[:j]": (False, True),
}
# spellings used by the reference method lists -> the canonical spelling used here
ALIASES: dict[str, str] = {
    "[index]": "[i]", "[index1:index2]": "[i:j]", "[index:]": "[i:]", "[:index2]": "[:j]",
    "dict[key]": "d[k]", "dict[key] = value": "d[k] = v",
}

KINDS = ("binop", "compare", "augassign", "index", "slice", "store", "call", "method")


class UnknownSyntax(ValueError):
    """A method spelling that names no Python form (e.g. "[i:j" or "x y")."""


@dataclass(frozen=True)
class Syntax:
    """kind: one of KINDS; name: the operator spelling, the dotted function name for
    "call", or the attribute for "method"."""

    kind: str
    name: str

    @property
    def is_statement(self) -> bool:
        """Statement forms cannot nest inside themselves; repetition stands in for nesting."""
        return self.kind in ("augassign", "store")


def canonical_method(type_name: str, spelling: str) -> str:
    """Normalize one spelling: trim, apply aliases, and write builtin calls as `name()`
    except for the builtin-function "types" (enumerate, zip, ...), named bare."""
    text = " ".join(spelling.split())
    text = ALIASES.get(text, text)
    if text.endswith("()"):
        bare = text[:-2]
        return bare if bare == type_name else text
    if text == type_name:
        return text
    if text in ("len", "round", "divmod", "bool", "int", "reversed", "abs", "sorted", "min",
                "max", "sum", "hash", "str", "list", "tuple", "set", "frozenset", "dict"):
        return text + "()"
    return text


def classify(type_name: str, method: str, module: bool = False) -> Syntax:
    """Map a canonical spelling to its AST form; raises UnknownSyntax for nonsense.
    For a module entry ("math", "gcd") the form is the call `math.gcd(...)`."""
    if module:
        if not all(part.isidentifier() for part in method.split(".")):
            raise UnknownSyntax(f"{type_name}: {method!r} is not a callable name")
        return Syntax("call", f"{type_name}.{method}")
    if method in BINOPS:
        return Syntax("binop", method)
    if method in COMPARES:
        return Syntax("compare", method)
    if method.endswith("=") and method[:-1] in BINOPS and method not in COMPARES:
        return Syntax("augassign", method[:-1])
    if method in SLICES:
        return Syntax("slice", method)
    if method in ("[i]", "d[k]"):
        return Syntax("index", method)
    if method == "d[k] = v":
        return Syntax("store", method)
    dotted = method[:-2] if method.endswith("()") else method
    if all(part.isidentifier() for part in dotted.split(".")):
        if method.endswith("()") or dotted == type_name or "." in dotted:
            return Syntax("call", dotted)
        return Syntax("method", dotted)
    raise UnknownSyntax(f"{type_name}: cannot tell which Python form {method!r} is")
