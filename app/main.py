"""FastAPI application factory (`uvicorn --factory app.main:create_app`)."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import errors, health, stats, v1
from app.api.body_limit import BodyLimit
from app.api.schemas import ALWAYS
from app.core.config import Settings, get_settings
from app.web.docs import router as docs_router
from app.web.router import router as dashboard_router


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(
        title="execsynth",
        version=_version(),
        description="Synthesizes verified code-execution reasoning data (ExecVerify method).",
        lifespan=_lifespan,
        responses=ALWAYS,
        docs_url=None,  # served from local files by app.web.docs
        redoc_url=None,
    )
    app.state.settings = settings
    app.include_router(health.router)
    app.include_router(v1.router)
    app.include_router(dashboard_router)
    app.include_router(docs_router)
    errors.install(app)
    app.add_middleware(BodyLimit, max_body_bytes=settings.api.max_body_bytes)

    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    # Everything imported so far lives as long as the process: move it out of the cyclic
    # collector's reach, so the full collections that request garbage triggers walk only
    # what requests allocated (they otherwise pause every thread for tens of milliseconds).
    gc.collect()
    gc.freeze()
    stats.warm(app)
    yield


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("execsynth")
    except PackageNotFoundError:
        return "0+unknown"
