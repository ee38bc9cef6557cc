"""Code fingerprints for contamination checks: normalized-AST hashes and token n-grams.

Normalizing renames every name the author chose (functions, parameters, locals) to
placeholders in order of first use, and drops docstrings, annotations, comments and
layout; builtins, imported modules, attribute names and literals are kept. So a benchmark
function copied with renamed variables has the same hash, and its token stream the same
n-grams. Each top-level function is also fingerprinted on its own, so a benchmark function
pasted in as a helper of a bigger program is still caught.

(The pipeline's dedup hash lives in `workers`, which this layer may not import; this is
the export's own, applied to both sides of every comparison.)
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import tokenize
from dataclasses import dataclass

_BUILTINS = frozenset(dir(builtins))
MIN_FUNCTION_NODES = 12  # below this a function is too generic to call a match


class _Renamer(ast.NodeTransformer):
    def __init__(self, keep: frozenset[str]) -> None:
        self.keep = keep
        self.names: dict[str, str] = {}

    def rename(self, name: str) -> str:
        if name in self.keep:
            return name
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self.rename(node.name)
        _drop_docstring(node)
        node.returns = None
        node.decorator_list = []
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self.rename(node.name)
        _drop_docstring(node)
        self.generic_visit(node)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self.rename(node.arg)
        node.annotation = None
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.rename(node.id)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        if node.value is None:
            return ast.Pass()
        return ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)


def _drop_docstring(node: ast.AST) -> None:
    body = getattr(node, "body", None)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        del body[0]
        if not body:
            body.append(ast.Pass())


def _imported(tree: ast.AST) -> frozenset[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _canonical(tree: ast.Module, keep: frozenset[str]) -> ast.Module:
    tree = _Renamer(keep).visit(tree)
    tree.body = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
    return ast.fix_missing_locations(tree)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Fingerprint:
    hashes: frozenset[str]  # whole program and each big-enough top-level function
    tokens: tuple[str, ...]  # normalized token stream of the whole program

    def ngrams(self, n: int) -> set[int]:
        toks = self.tokens
        return {hash_ngram(toks[i:i + n]) for i in range(len(toks) - n + 1)}


def hash_ngram(tokens: tuple[str, ...]) -> int:
    return int.from_bytes(hashlib.blake2b("\x1f".join(tokens).encode(), digest_size=8).digest(), "big")


def fingerprint(code: str) -> Fingerprint:
    """Raises SyntaxError (or ValueError) for code that does not parse."""
    tree = ast.parse(code)
    keep = _BUILTINS | _imported(tree)
    _drop_docstring(tree)
    hashes = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                sum(1 for _ in ast.walk(node)) >= MIN_FUNCTION_NODES:
            single = _canonical(ast.Module(body=[node], type_ignores=[]), keep)
            hashes.add(_digest(ast.dump(single, annotate_fields=False)))
    whole = _canonical(ast.parse(code), keep)
    _drop_docstring(whole)
    hashes.add(_digest(ast.dump(whole, annotate_fields=False)))
    return Fingerprint(frozenset(hashes), _tokens(ast.unparse(whole)))


_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}


def _tokens(source: str) -> tuple[str, ...]:
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in _SKIP:
            continue
        out.append(tok.string if tok.type not in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
                   else tokenize.tok_name[tok.type])
    return tuple(out)
