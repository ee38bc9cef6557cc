"""The /v1 router: one include per domain."""

from __future__ import annotations

from fastapi import APIRouter

from app.api import batch_records, batches, constraints, exports, samples, stats, teachers

router = APIRouter(prefix="/v1")
for module in (batches, batch_records, samples, stats, constraints, exports, teachers):
    router.include_router(module.router)
