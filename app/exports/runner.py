"""Running one `exports` row: the worker task and the CLI both call `execute`.

A row is worked on only while pending/running, so a done or failed row is never redone
(redelivered messages are no-ops). The folder `<exports_dir>/<kind>/<id>-<format>` belongs to
its row alone, so a retry may clear what a crashed attempt left there. Errors that retrying
cannot fix (a bad spec, a missing benchmark file, a folder that is not an export) fail the
row at once; anything else propagates so the caller can retry it with backoff.

With an S3 store the row's place is `s3://...` and the files are written to a staging folder
`<exports_dir>/.staging/<kind>/<id>-<format>` first, then uploaded, then the staging folder is
removed; a retry first deletes what a crashed attempt uploaded. A store that refuses the
bucket or the credentials fails the row with that reason; an unreachable one is retried.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy.orm import Session

from app.core.errors import NotFound
from app.exports import repository as repo
from app.exports.store import S3Store, StoreRefused, is_remote
from app.db.models import Export
from training.export import BenchmarkFileError, ExportSpec, ExportSpecError, OutputDirError, run_export
from training.export.items import ItemError
from training.export.service import MANIFEST, Progress
from training.export.writers import file_digest

SessionScope = Callable[[], AbstractContextManager[Session]]
PERMANENT = (ExportSpecError, BenchmarkFileError, OutputDirError, ItemError, StoreRefused)


def now() -> datetime:
    return datetime.now(timezone.utc)


def owned_dir(exports_dir: Path, row: Export) -> Path:
    return Path(exports_dir) / row.kind / f"{row.id}-{row.format}"


def staging_dir(exports_dir: Path, row: Export) -> Path:
    return Path(exports_dir) / ".staging" / row.kind / f"{row.id}-{row.format}"


def describe(exc: BaseException, attempt: int | None = None) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if attempt is None else f"attempt {attempt}: {text}"


def execute(scope: SessionScope, export_id: int, exports_dir: Path, *, overwrite: bool = False,
            progress: Progress | None = None, store: S3Store | None = None) -> str:
    """Run the export of one row; returns the row's status afterwards ("done", "failed", or
    the final status it already had). Transient errors are raised, not recorded here.
    `store`: upload the files to this bucket (rows the CLI made with a folder of their own
    stay in that folder)."""
    with scope() as session:
        row = repo.get(session, export_id)
        if row is None:
            raise NotFound(f"no export {export_id}")
        if row.status not in repo.IN_FLIGHT:
            return row.status
        ours = not row.out_dir or is_remote(row.out_dir)  # not a folder the CLI chose
        remote = store.location(row.kind, row.id, row.format) if store and ours else None
        owned = staging_dir(exports_dir, row) if remote else owned_dir(exports_dir, row)
        out = owned if ours else Path(row.out_dir)
        repo.start_attempt(session, export_id, remote or str(out))
        spec_data, attempt = dict(row.spec), row.attempts + 1
    is_owned = out.resolve() == owned.resolve()
    try:
        spec = ExportSpec.from_dict(spec_data)
        if is_owned and out.exists():
            shutil.rmtree(out)  # a crashed attempt's partial files; nobody else writes here
        if remote:
            store.remove(remote)  # and what it uploaded
        with scope() as session:
            result = run_export(session, spec, out, overwrite=overwrite, progress=progress)
        digest, size = file_digest(out / MANIFEST)
        files = sorted([*result.files, {"path": MANIFEST, "split": None, "rows": None, "sha256": digest, "bytes": size}],
                       key=lambda f: f["path"])
        if remote:
            store.upload(out, remote, files)
    except PERMANENT as exc:
        record_failure(scope, export_id, describe(exc, attempt), final=True)
        return "failed"
    finally:
        if remote:
            shutil.rmtree(out, ignore_errors=True)
    with scope() as session:
        kept = repo.finish(session, export_id, now(), files=files, manifest=result.manifest,
                           sample_count=result.sample_count)
    if not kept:  # recorded lost while we ran: its window is someone else's now
        if remote:
            store.remove(remote)
        elif is_owned:
            shutil.rmtree(out, ignore_errors=True)
        return "discarded"
    return "done"


def record_failure(scope: SessionScope, export_id: int, error: str, final: bool) -> None:
    with scope() as session:
        repo.record_error(session, export_id, error, now(), final)
