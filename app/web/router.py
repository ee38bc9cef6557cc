"""Serves /dashboard, its own static files and the vendored charting library.

Assets are looked up by bare file name in two fixed folders, so no request path can reach
outside them. The charting library is installed at setup time (scripts/install_web_assets.sh)
into a gitignored folder; when it is missing the request fails with a message saying how to
install it, and the page shows the same message instead of empty charts.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from app.core.errors import NotFound

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
VENDOR_DIR = WEB_DIR / "vendor"
CHART_FILE = "chart.umd.js"
INSTALL_HINT = "the charting library is not installed: run scripts/install_web_assets.sh"
MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
NO_CACHE = {"Cache-Control": "no-cache"}  # revalidate, so an upgraded server never mixes old and new files
# The page loads only its own scripts, styles and API: no inline script or handler, no
# inline style attribute (panels set styles through the DOM), no plugin, no framing.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
PAGE_HEADERS = {**NO_CACHE, "Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff"}

router = APIRouter(tags=["dashboard"])


def asset_path(folder: Path, name: str) -> Path:
    """The file `name` directly inside `folder`, or NotFound (also for any name with a path in it)."""
    suffix = Path(name).suffix
    if Path(name).name != name or name.startswith(".") or suffix not in MEDIA_TYPES:
        raise NotFound(f"no dashboard asset {name!r}")
    path = folder / name
    if not path.is_file():
        raise NotFound(f"no dashboard asset {name!r}")
    return path


@router.get("/dashboard", response_class=HTMLResponse, summary="The dashboard page",
            responses={200: {"content": {"text/html": {}}}})
def dashboard() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=PAGE_HEADERS)


@router.get("/dashboard/static/{name}", include_in_schema=False)
def static_asset(name: str = PathParam(max_length=100)) -> FileResponse:
    path = asset_path(STATIC_DIR, name)
    return FileResponse(path, media_type=MEDIA_TYPES[path.suffix], headers=NO_CACHE)


@router.get("/dashboard/vendor/" + CHART_FILE, include_in_schema=False)
def chart_library() -> Response:
    path = VENDOR_DIR / CHART_FILE
    if not path.is_file():
        return JSONResponse({"error": "asset_missing", "detail": INSTALL_HINT}, status_code=404)
    return FileResponse(path, media_type=MEDIA_TYPES[".js"], headers={"Cache-Control": "max-age=3600"})
