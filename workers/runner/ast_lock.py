"""One lock around `ast.parse` for the whole process, installed by the stage runner.

CPython (3.11 here) keeps the syntax-tree constructor's recursion depth per interpreter, not
per thread. When a thread building a tree is switched out mid-build (a finalizer run by the
garbage collector is enough) and another thread parses meanwhile, the first fails with
"SystemError: AST constructor recursion depth mismatch" (python/cpython#106905). Chunks run
as threads (`execsynth synth` keeps several in flight) and nearly every stage parses code or
reads literals (`ast.literal_eval` parses through the same module-level `parse`), so the
parses are serialized here. The lock is held only while a tree is built, never across I/O.
"""

from __future__ import annotations

import ast
import threading

_lock = threading.RLock()  # re-entrant: a finalizer run mid-parse may parse again
_parse = ast.parse


def _serialized_parse(*args, **kwargs):
    with _lock:
        return _parse(*args, **kwargs)


def install() -> None:
    """Route every `ast.parse` (and so `ast.literal_eval`) in this process through the lock."""
    ast.parse = _serialized_parse
