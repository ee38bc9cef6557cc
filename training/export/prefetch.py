"""Reading ahead in a thread: the database works on the next batch while Python works on
the current one.

A query's server time is spent waiting in the driver, which releases the GIL, so a thread
that fetches batch i+1 while the caller converts, sends or writes batch i turns two
serial costs into overlapping ones. At most `depth` batches wait (memory stays bounded);
an error in the thread is raised in the caller, and the thread is stopped and joined when
the caller stops early, so it never outlives the caller's use of the connection.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

_DONE = object()


def read_ahead(source: Iterable[T], depth: int = 2, name: str = "export-prefetch") -> Iterator[T]:
    """`source`'s items, in order, produced by a thread up to `depth` items ahead."""
    ready: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    items = iter(source)

    def run() -> None:
        try:
            for item in items:
                if stop.is_set():
                    return
                ready.put((item, None))
            ready.put((_DONE, None))
        except BaseException as exc:  # handed to the caller, raised there
            ready.put((_DONE, exc))
        finally:
            close = getattr(items, "close", None)
            if close is not None:  # a generator's cleanup runs in the thread that ran it
                close()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    try:
        while True:
            item, exc = ready.get()
            if exc is not None:
                raise exc
            if item is _DONE:
                return
            yield item
    finally:
        stop.set()
        while thread.is_alive():  # unblock a put() so the thread sees `stop`
            try:
                ready.get(timeout=0.05)
            except queue.Empty:
                pass
        thread.join()
