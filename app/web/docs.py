"""Serves /docs (Swagger UI) from local files, so the API reference works offline.

FastAPI's own /docs page loads Swagger UI from a CDN and starts it with an inline script; this
page loads the swagger-ui-dist files that scripts/install_web_assets.sh put in the vendor
folder and starts it from a static script. Only the listed file names are served.
"""

from __future__ import annotations

from fastapi import APIRouter, Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.core.errors import NotFound
from app.web.router import INSTALL_HINT, NO_CACHE, STATIC_DIR, VENDOR_DIR

SWAGGER_FILES = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css", "favicon-32x32.png": "image/png"}
SWAGGER_HINT = INSTALL_HINT.replace("the charting library is", "Swagger UI is")

router = APIRouter(tags=["docs"])


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
def docs() -> FileResponse:
    return FileResponse(STATIC_DIR / "docs.html", media_type="text/html", headers=NO_CACHE)


@router.get("/docs/vendor/{name}", include_in_schema=False)
def swagger_asset(name: str = PathParam(max_length=64)) -> Response:
    media_type = SWAGGER_FILES.get(name)
    if media_type is None:
        raise NotFound(f"no docs asset {name!r}")
    path = VENDOR_DIR / name
    if not path.is_file():
        raise NotFound(SWAGGER_HINT)
    return FileResponse(path, media_type=media_type, headers={"Cache-Control": "max-age=3600"})
