"""Code fingerprints for contamination checks: normalized-AST hashes and token n-grams.

Normalizing renames every name the author chose (functions, parameters, locals) to
placeholders in order of first use, and drops docstrings, annotations, comments and
layout; builtins, imported modules, attribute names and literals are kept. So a benchmark
function copied with renamed variables has the same hash, and its token stream the same
n-grams. Each top-level function is also fingerprinted on its own, so a benchmark function
pasted in as a helper of a bigger program is still caught.

The renaming is `training.normalize`'s, the same one the pipeline's dedup hash uses, so
"the same program up to naming" means one thing everywhere. Unlike the dedup hash, the
fingerprint drops import statements (a benchmark and a program that import differently
still match).
"""

from __future__ import annotations

import ast
import hashlib
import io
import tokenize
from dataclasses import dataclass

from training.normalize import BUILTINS, canonical, drop_docstring, imported_names

MIN_FUNCTION_NODES = 12  # below this a function is too generic to call a match


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
    keep = BUILTINS | imported_names(tree)
    drop_docstring(tree)
    hashes = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                sum(1 for _ in ast.walk(node)) >= MIN_FUNCTION_NODES:
            single = canonical(ast.Module(body=[node], type_ignores=[]), keep, drop_imports=True)
            hashes.add(_digest(ast.dump(single, annotate_fields=False)))
    whole = canonical(ast.parse(code), keep, drop_imports=True)
    drop_docstring(whole)  # a string that followed the dropped imports is a docstring too
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
