"""Keep the last N finished scheduled runs of each (kind, format); older folders are deleted
and their rows marked `pruned` (still listed, so the history of windows stays complete).
A run kept in an S3 bucket has its objects deleted instead."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from sqlalchemy.orm import Session

from app.core.errors import ServiceUnavailable
from app.exports import repository as repo
from app.exports.store import S3Store, is_remote

log = logging.getLogger(__name__)


def prune(session: Session, kind: str, fmt: str, keep: int, exports_dir: Path, store: S3Store) -> list[int]:
    """Delete all but the newest `keep` done runs; returns the pruned row ids. Only folders
    directly under `<exports_dir>/<kind>/` are deleted, never a path from elsewhere; `store`
    deletes the objects of runs kept in a bucket."""
    root = (Path(exports_dir) / kind).resolve()
    pruned = []
    for row in repo.kept_runs(session, kind, fmt)[keep:]:
        if is_remote(row.out_dir):
            try:
                store.remove(row.out_dir)
            except ServiceUnavailable as exc:  # the next run's prune tries again
                log.warning("export %s: could not delete %s: %s; row kept", row.id, row.out_dir, exc.detail)
                continue
            pruned.append(row.id)
            continue
        folder = Path(row.out_dir).resolve() if row.out_dir else None
        if folder is None or folder.parent != root:
            log.warning("export %s: folder %s is outside %s; left in place, row kept", row.id, row.out_dir, root)
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if folder.exists():
            log.warning("export %s: could not delete %s; row kept", row.id, folder)
            continue
        pruned.append(row.id)
    repo.mark_pruned(session, pruned)
    return pruned
