"""/v1/exports: request a trainer-ready export, list runs (manual and scheduled), read one,
download its files. Every route needs an API key: the files are the product."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status
from fastapi.responses import FileResponse
from sqlalchemy.orm import Session

from app.api.batches import require_json
from app.api.deps import api_key, db_session, settings_dep
from app.api.schemas import AUTH_ERRORS, errors
from app.api.strict_json import StrictJsonRoute
from app.apikeys.service import Principal
from app.core.config import Settings
from app.db.models import Export
from app.exports import service
from app.exports.download import file_response
from app.exports.schemas import ExportCreate, ExportDetail, ExportKind, ExportPage, ExportRead, ExportStatus

router = APIRouter(prefix="/exports", tags=["exports"], route_class=StrictJsonRoute)
ExportId = Path(ge=1, le=2**63 - 1, description="export id")


def export_or_404(export_id: int = ExportId, session: Session = Depends(db_session)) -> Export:
    return service.get_or_404(session, export_id)


@router.post(
    "", response_model=ExportRead, status_code=status.HTTP_202_ACCEPTED,
    summary="Queue an export of curated splits in a trainer's format",
    responses=errors(400, 413, 415, 422, *AUTH_ERRORS), dependencies=[Depends(require_json)],
)
def create_export(
    body: ExportCreate,
    response: Response,
    principal: Principal | None = Depends(api_key),
    session: Session = Depends(db_session),
    settings: Settings = Depends(settings_dep),
) -> ExportRead:
    row = service.create(session, settings, body, principal.key_id if principal else None)
    session.commit()
    response.headers["Location"] = f"/v1/exports/{row.id}"
    return service.read(row)


@router.get("", response_model=ExportPage, summary="Export runs, newest first",
            responses=errors(422, *AUTH_ERRORS), dependencies=[Depends(api_key)])
def list_exports(
    limit: int = Query(default=50, ge=1, le=500),
    offset: int = Query(default=0, ge=0, le=10**9),
    kind: ExportKind | None = Query(default=None),
    status_: ExportStatus | None = Query(default=None, alias="status"),
    fmt: str | None = Query(default=None, alias="format", min_length=1, max_length=24, pattern=r"^[a-z0-9_]+$"),
    session: Session = Depends(db_session),
) -> ExportPage:
    return service.list_page(session, limit, offset, kind, status_, fmt)


@router.get("/{export_id}", response_model=ExportDetail,
            summary="Status, window, files (sizes, sha256), manifest, attempts and error",
            responses=errors(404, 422, *AUTH_ERRORS), dependencies=[Depends(api_key)])
def get_export(row: Export = Depends(export_or_404)) -> ExportDetail:
    return service.detail(row)


@router.get("/{export_id}/files/{name}", response_class=FileResponse,
            summary="Download one file of a finished export (one byte range with Range)",
            responses={200: {"content": {"application/octet-stream": {}}, "description": "the file"},
                       206: {"content": {"application/octet-stream": {}}, "description": "the range asked for"},
                       416: {"description": "the range starts past the end"},
                       **errors(404, 422, *AUTH_ERRORS)},
            dependencies=[Depends(api_key)])
def download(request: Request, name: str = Path(min_length=1, max_length=255), row: Export = Depends(export_or_404),
             settings: Settings = Depends(settings_dep)) -> Response:
    return file_response(row, name, request.method, request.headers.get("range"), settings.exports)


# HEAD: the same answer without the body (size and type), with an operation id of its own
router.add_api_route("/{export_id}/files/{name}", download, methods=["HEAD"], response_class=FileResponse,
                     summary="Size and type of one file of a finished export", operation_id="head_export_file",
                     responses={200: {"description": "the file's headers"}, **errors(404, 422, *AUTH_ERRORS)},
                     dependencies=[Depends(api_key)])
