"""The /v1 router: one include per domain."""

from __future__ import annotations

from fastapi import APIRouter

from app.api import batches, constraints, exports, samples, stats

router = APIRouter(prefix="/v1")
for module in (batches, samples, stats, constraints, exports):
    router.include_router(module.router)
