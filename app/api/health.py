"""Liveness and readiness endpoints (outside /v1: they are for orchestrators, not users)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.api.deps import settings_dep
from app.core.config import Settings
from app.core.readiness import readiness

router = APIRouter(tags=["health"])


class CheckRead(BaseModel):
    name: str
    ok: bool
    detail: str


class ReadyRead(BaseModel):
    status: str
    checks: list[CheckRead]


@router.get("/healthz", response_model=dict[str, str], summary="The process is up")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=ReadyRead,
    responses={503: {"model": ReadyRead, "description": "a dependency is unreachable"}},
    summary="The database and the broker are reachable",
)
def readyz(settings: Settings = Depends(settings_dep)) -> JSONResponse:
    checks = readiness(settings)
    ok = all(c.ok for c in checks)
    body = ReadyRead(
        status="ready" if ok else "unavailable",
        checks=[CheckRead(name=c.name, ok=c.ok, detail=c.detail) for c in checks],
    )
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)
