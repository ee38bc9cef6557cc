"""/v1/constraints: the grid a batch spec may select from."""

from __future__ import annotations

from fastapi import APIRouter, Query

from app.api.schemas import errors
from app.constraints.schemas import ConstraintsRead
from app.constraints.service import list_constraints
from app.samples.schemas import NO_NUL

router = APIRouter(prefix="/constraints", tags=["constraints"])


@router.get("", response_model=ConstraintsRead, summary="Catalog entries (type, method) and the levels",
            responses=errors(422))
def constraints(
    type: str | None = Query(default=None, max_length=32, pattern=NO_NUL, description="only this type"),
    method: str | None = Query(default=None, max_length=64, pattern=NO_NUL, description="only this method"),
) -> ConstraintsRead:
    return list_constraints(type, method)
