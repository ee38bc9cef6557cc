"""A short-lived snapshot cache for aggregates.

A full-table GROUP BY over a million samples costs a few hundred milliseconds whatever the
indexes; dashboards poll it from many clients. Each distinct query is computed by one thread
at a time, and callers get the last snapshot while it is younger than `ttl_s`, so the database
does one aggregate per interval instead of one per request. `ttl_s = 0` disables caching.
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
        with lock:  # single flight: the others wait for this computation
            hit = self._fresh(key)
            if hit is not None:
                return hit
            value = compute()
            with self._guard:
                if len(self._values) >= self._max:
                    self._values.clear()
                self._values[key] = (self._clock(), value)
            return value

    def _fresh(self, key: Hashable) -> Any | None:
        entry = self._values.get(key)
        if entry is not None and self.ttl_s > 0 and self._clock() - entry[0] < self.ttl_s:
            return entry[1]
        return None
