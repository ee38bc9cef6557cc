"""A short-lived snapshot cache for aggregates.

A full-table GROUP BY over a million samples costs a few hundred milliseconds whatever the
indexes; dashboards poll it from many clients. Each distinct query is computed by one thread
at a time, and callers get the last snapshot while it is younger than `ttl_s`, so the database
does one aggregate per interval instead of one per request. Once a snapshot is older than that,
the first caller recomputes it while everybody else keeps getting the old one (stale while
revalidate): only one request per interval waits for the aggregate, never a queue of them.
Only the very first computation of a key makes concurrent callers wait. `ttl_s = 0` disables
caching.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any


class SnapshotCache:
    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic, max_entries: int = 256) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._max = max_entries
        self._values: dict[Hashable, tuple[float, Any]] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        hit = self._fresh(key)
        if hit is not None:
            return hit
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        stale = self._values.get(key) if self.ttl_s > 0 else None
        if stale is not None and not lock.acquire(blocking=False):
            return stale[1]  # somebody is refreshing it: the last snapshot will do meanwhile
        if stale is None:
            lock.acquire()  # single flight: the others wait for the first computation
        try:
            hit = self._fresh(key)
            if hit is not None:
                return hit
            value = compute()
            with self._guard:
                if len(self._values) >= self._max:
                    self._values.clear()
                self._values[key] = (self._clock(), value)
            return value
        finally:
            lock.release()

    def peek(self, key: Hashable) -> Any | None:
        """The snapshot if it is fresh, else None; never blocks, never computes."""
        return self._fresh(key)

    def _fresh(self, key: Hashable) -> Any | None:
        entry = self._values.get(key)
        if entry is not None and self.ttl_s > 0 and self._clock() - entry[0] < self.ttl_s:
            return entry[1]
        return None
