"""/v1/batches: post a batch, list, read progress, cancel."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response, status
from sqlalchemy.orm import Session

from app.api.deps import api_key, db_session, presented_key, rate_limiter
from app.api.schemas import AUTH_ERRORS, errors
from app.api.strict_json import StrictJsonRoute
from app.apikeys.service import Principal
from app.batches import service
from app.batches.intake import BatchIntake
from app.batches.schemas import BatchCreate, BatchStatus, BatchDetail, BatchPage, BatchRead
from app.core.errors import DomainError
from app.core.ratelimit import RateLimiter
from app.db.models import Batch

router = APIRouter(prefix="/batches", tags=["batches"], route_class=StrictJsonRoute)
BatchId = Path(ge=1, le=2**63 - 1, description="batch id")


class UnsupportedMediaType(DomainError):
    status_code = 415
    code = "unsupported_media_type"


async def require_json(request: Request) -> None:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and not kind.endswith("+json"):
        raise UnsupportedMediaType(f"send the batch spec as application/json, not {kind or 'no content type'}")


async def batch_intake(request: Request, limiter: RateLimiter = Depends(rate_limiter)) -> BatchIntake:
    state = request.app.state
    if getattr(state, "batch_intake", None) is None:
        state.batch_intake = BatchIntake(state.settings, limiter)
    return state.batch_intake


def batch_or_404(batch_id: int = BatchId, session: Session = Depends(db_session)) -> Batch:
    return service.get_or_404(session, batch_id)


@router.post(
    "", response_model=BatchRead, status_code=status.HTTP_202_ACCEPTED,
    summary="Queue a batch over a slice of the constraint grid",
    responses={200: {"model": BatchRead, "description": "a retry with a used Idempotency-Key: the batch it created"},
               **errors(400, 409, 413, 415, 422, *AUTH_ERRORS)},
    dependencies=[Depends(require_json)],
)
async def create_batch(
    spec: BatchCreate,
    response: Response,
    idempotency_key: str | None = Header(default=None, alias="Idempotency-Key", min_length=1, max_length=100, pattern=r"^[\x21-\x7e]+$",
                                         description="retries with the same key and body return the same batch"),
    presented: str | None = Depends(presented_key),
    intake: BatchIntake = Depends(batch_intake),
) -> BatchRead:
    # The hot write path: requests that arrive together are checked and written as one group
    # (one key lookup, one insert, one commit, one start message); see app.batches.intake.
    batch, created = await intake.submit(spec, presented, idempotency_key)
    if not created:
        response.status_code = status.HTTP_200_OK
    response.headers["Location"] = f"/v1/batches/{batch.id}"
    return batch


@router.get("", response_model=BatchPage, summary="Batches, newest first", responses=errors(422))
def list_batches(
    limit: int = Query(default=50, ge=1, le=500),
    offset: int = Query(default=0, ge=0, le=10**9),
    status_: BatchStatus | None = Query(default=None, alias="status"),
    session: Session = Depends(db_session),
) -> BatchPage:
    return service.list_page(session, limit, offset, status_)


@router.get("/{batch_id}", response_model=BatchDetail, summary="Status, funnel, tokens, cost, rate and ETA",
            responses=errors(404, 422))
def get_batch(batch: Batch = Depends(batch_or_404), session: Session = Depends(db_session)) -> BatchDetail:
    return service.detail(session, batch)


@router.post("/{batch_id}/cancel", response_model=BatchRead, summary="Cancel a pending or running batch",
             responses=errors(404, 409, 422, *AUTH_ERRORS))
def cancel_batch(
    principal: Principal | None = Depends(api_key),
    batch: Batch = Depends(batch_or_404),
    session: Session = Depends(db_session),
) -> BatchRead:
    batch = service.cancel(session, batch)
    session.commit()
    return BatchRead.model_validate(batch, from_attributes=True)
