"""Keep the last N finished scheduled runs of each (kind, format); older folders are deleted
and their rows marked `pruned` (still listed, so the history of windows stays complete)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from sqlalchemy.orm import Session

from app.exports import repository as repo

log = logging.getLogger(__name__)


def prune(session: Session, kind: str, fmt: str, keep: int, exports_dir: Path) -> list[int]:
    """Delete all but the newest `keep` done runs; returns the pruned row ids. Only folders
    directly under `<exports_dir>/<kind>/` are deleted, never a path from elsewhere."""
    root = (Path(exports_dir) / kind).resolve()
    pruned = []
    for row in repo.kept_runs(session, kind, fmt)[keep:]:
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
