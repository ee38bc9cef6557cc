"""The /v1 router: one include per domain."""

from __future__ import annotations

from fastapi import APIRouter

from app.api import batches, constraints, samples, stats

router = APIRouter(prefix="/v1")
for module in (batches, samples, stats, constraints):
    router.include_router(module.router)
