"""Creating, listing and reading export runs, and resolving a file download. The route
commits; this module only flushes.

A new manual export is a `pending` row plus a `run_export` task queued for after the
commit; the worker writes the files (see `app.exports.runner`). The spec is validated here,
with the export layer's own `ExportSpec.from_dict`, so a bad request is a 422 and never a
failed row.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.errors import DomainError, NotFound
from app.core.task_names import RUN_EXPORT
from app.db.models import Export
from app.exports import repository as repo
from app.exports.schemas import ExportCreate, ExportDetail, ExportFile, ExportPage, ExportRead
from app.producer import send_after_commit
from training.export import ExportSpec, ExportSpecError



class InvalidExportSpec(DomainError):
    status_code = 422
    code = "invalid_spec"


def validated_spec(body: ExportCreate) -> ExportSpec:
    try:
        return ExportSpec.from_dict(body.spec_dict()).with_sizes(body.sizes_by_split())
    except (ExportSpecError, ValueError) as exc:
        raise InvalidExportSpec(str(exc)) from None


def check_references(session: Session, spec: ExportSpec) -> None:
    """What the spec names exists: its batches here, its benchmark files on this machine. Run
    before any row or file is written, so a typo is refused, not a run with 0 rows."""
    missing = repo.missing_batch_ids(session, spec.batch_ids)
    if missing:
        raise InvalidExportSpec(f"unknown batch id(s) {missing[:20]}: no such batch")
    try:
        spec.check_files()
    except ExportSpecError as exc:
        raise InvalidExportSpec(str(exc)) from None


def create(session: Session, settings: Settings, body: ExportCreate, api_key_id: int | None) -> Export:
    spec = validated_spec(body)
    check_references(session, spec)
    row = repo.add(session, Export(kind="manual", format=spec.format, spec=spec.to_dict(), status="pending",
                                   files=[], sample_count=0, attempts=0, api_key_id=api_key_id))
    send_after_commit(session, settings, RUN_EXPORT, row.id)
    return row


def get_or_404(session: Session, export_id: int) -> Export:
    row = repo.get(session, export_id)
    if row is None:
        raise NotFound(f"no export {export_id}")
    return row


def _files(row: Export) -> list[ExportFile]:
    return [ExportFile(**{k: f.get(k) for k in ("path", "split", "rows", "sha256", "bytes")},
                       url=f"/v1/exports/{row.id}/files/{f['path']}") for f in row.files or []]


def read(row: Export) -> ExportRead:
    return ExportRead(**_fields(row))


def detail(row: Export) -> ExportDetail:
    return ExportDetail(**_fields(row), manifest=row.manifest)


def _fields(row: Export) -> dict:
    names = ("id", "kind", "format", "status", "spec", "window_start", "window_end", "sample_count",
             "attempts", "error", "created_at", "finished_at")
    return {**{n: getattr(row, n) for n in names}, "files": _files(row),
            "warnings": list((row.manifest or {}).get("warnings", []))}


def list_page(session: Session, limit: int, offset: int, kind: str | None, status: str | None,
              fmt: str | None) -> ExportPage:
    rows, total = repo.page(session, limit, offset, kind, status, fmt)
    return ExportPage(items=[read(r) for r in rows], total=total, limit=limit, offset=offset)


def check_listed(row: Export, name: str) -> None:
    """Only the names a finished row lists are served."""
    if row.status == "pruned":
        raise NotFound(f"export {row.id} was pruned (only the newest runs are kept)")
    if row.status != "done" or name not in {f["path"] for f in row.files or []} or not row.out_dir:
        raise NotFound(f"export {row.id} has no file {name!r}")


def file_path(row: Export, name: str) -> Path:
    """The file `name` of a finished export kept in a folder: a listed name whose resolved
    path sits directly in the export's folder (no traversal, no symlink out)."""
    check_listed(row, name)
    folder = Path(row.out_dir).resolve()
    path = (folder / name).resolve()
    if path.parent != folder or not path.is_file():
        raise NotFound(f"export {row.id} has no file {name!r}")
    return path
