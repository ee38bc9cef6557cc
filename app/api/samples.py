"""/v1/samples: filtered cursor pages and single samples (API key required)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query
from sqlalchemy.orm import Session

from app.api.deps import api_key, db_session
from app.api.schemas import AUTH_ERRORS, errors
from app.samples import service
from app.samples.schemas import SampleDetail, SamplePage, SampleQuery

router = APIRouter(prefix="/samples", tags=["samples"], dependencies=[Depends(api_key)])


@router.get("", response_model=SamplePage, summary="Samples in id order, filtered, by cursor",
            responses=errors(400, 422, *AUTH_ERRORS))
def list_samples(
    query: Annotated[SampleQuery, Query()],
    session: Session = Depends(db_session),
) -> SamplePage:
    return service.list_page(session, query, query.cursor, query.limit)


@router.get("/{sample_id}", response_model=SampleDetail,
            summary="One sample: program, input, result, trace, questions, provenance",
            responses=errors(404, 422, *AUTH_ERRORS))
def get_sample(
    sample_id: int = Path(ge=1, le=2**63 - 1),
    include_trace: bool = Query(default=True, description="false leaves out the (possibly large) trace"),
    session: Session = Depends(db_session),
) -> SampleDetail:
    return service.detail(session, sample_id, include_trace)
