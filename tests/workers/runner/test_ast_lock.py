"""Stages parse code from several threads at once; CPython 3.11's tree constructor cannot
(python/cpython#106905), so the stage runner serializes `ast.parse`."""

from __future__ import annotations

import ast
import threading

import workers.runner  # noqa: F401  (installs the lock)
from workers.runner import ast_lock

SOURCE = "\n".join(f"def f{i}(a, b):\n    return [x * {i} for x in range(a) if x % b]" for i in range(300))


class _Interloper:
    """Garbage whose finalizer, run by the collector in the middle of a parse, has another
    thread parse right then, and leaves more such garbage for the next collection."""

    def __init__(self, left: int, parsed: list, threads: list) -> None:
        self.left, self.parsed, self.threads, self.me = left, parsed, threads, self

    def __del__(self) -> None:
        if self.left <= 0:
            return
        other = threading.Thread(target=lambda: self.parsed.append(ast.literal_eval("[1, (2, 3)]")))
        self.threads.append(other)
        other.start()
        other.join(0.05)  # without the lock, the other parse completes right here
        _Interloper(self.left - 1, self.parsed, self.threads)


def test_a_parse_interrupted_by_another_threads_parse_still_succeeds():
    assert ast.parse is ast_lock._serialized_parse
    parsed: list = []
    threads: list[threading.Thread] = []
    _Interloper(6, parsed, threads)  # unreachable at once: collected during the parse below
    tree = ast.parse(SOURCE)
    assert len(tree.body) == 300
    for thread in threads:
        thread.join(5)
    assert threads and parsed == [[1, (2, 3)]] * len(threads)
