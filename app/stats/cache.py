"""A short-lived snapshot cache for aggregates.

A full-table GROUP BY over a million samples costs a few hundred milliseconds whatever the
indexes; dashboards poll it from many clients. Each distinct query is computed by one thread
at a time, so the database does one aggregate per interval instead of one per request.

`ttl_s` is a promise: no snapshot older than that is ever served (the responses say so in
`max_age_s`). A snapshot younger than half of it is served as it is; in the second half,
callers still get it while a background thread, started by the first of them to notice,
recomputes it (stale while revalidate: no request waits for a refresh); past `ttl_s` (after an
idle spell) the next caller waits for a fresh one, as the very first computation of a key
does. `ttl_s = 0` disables caching.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

log = logging.getLogger(__name__)


class SnapshotCache:
    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic, max_entries: int = 256) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._max = max_entries
        self._values: dict[Hashable, tuple[float, Any]] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The snapshot for `key`. `compute` must stand on its own (open its own session): a
        refresh runs it on a thread of its own, after the caller that noticed has returned."""
        hit = self._fresh(key)
        if hit is not None:
            return hit
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        stale = self._values.get(key) if self.ttl_s > 0 else None
        if stale is not None and self._clock() - stale[0] < self.ttl_s:
            if lock.acquire(blocking=False):  # the first to notice starts the refresh; nobody waits for it
                threading.Thread(target=self._refresh, args=(key, compute, lock), name="snapshot-refresh",
                                 daemon=True).start()
            return stale[1]
        with lock:  # single flight: the others wait for the first computation
            hit = self._fresh(key)
            if hit is not None:
                return hit
            value = compute()
            self._store(key, value)
            return value

    def _refresh(self, key: Hashable, compute: Callable[[], Any], lock: threading.Lock) -> None:
        try:
            self._store(key, compute())
        except Exception as exc:  # the old snapshot stays; the next caller to notice tries again
            log.warning("snapshot %r not refreshed: %s", key, exc)
        finally:
            lock.release()

    def _store(self, key: Hashable, value: Any) -> None:
        with self._guard:
            if len(self._values) >= self._max:
                self._values.clear()
            self._values[key] = (self._clock(), value)

    def peek(self, key: Hashable) -> Any | None:
        """The snapshot if it needs no refresh yet, else None; never blocks, never computes."""
        return self._fresh(key)

    def _fresh(self, key: Hashable) -> Any | None:
        entry = self._values.get(key)
        if entry is not None and self.ttl_s > 0 and self._clock() - entry[0] < self.ttl_s / 2:
            return entry[1]
        return None
