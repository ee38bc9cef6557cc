"""The router serves the page, its own files and the charting library, and nothing else."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from app.web import docs as web_docs
from app.web import router as web
from tests.app.web.conftest import Live

pytestmark = pytest.mark.slow  # child processes (the CLI, workers, a browser): left out of `make test-fast`


def test_page_and_assets_are_served_with_their_types(live: Live, chart_library) -> None:
    page = httpx.get(live.base + "/dashboard")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert 'src="dashboard/static/app.js"' in page.text and 'src="dashboard/vendor/chart.umd.js"' in page.text
    for name, kind in (("app.js", "text/javascript"), ("charts.js", "text/javascript"), ("dashboard.css", "text/css")):
        asset = httpx.get(f"{live.base}/dashboard/static/{name}")
        assert asset.status_code == 200, name
        assert asset.headers["content-type"].startswith(kind)
        assert asset.text == (web.STATIC_DIR / name).read_text()
    library = httpx.get(live.base + "/dashboard/vendor/chart.umd.js")
    assert library.status_code == 200
    assert library.headers["content-type"].startswith("text/javascript")
    assert library.content == (web.VENDOR_DIR / web.CHART_FILE).read_bytes()


@pytest.mark.parametrize("name", ["..%2F__init__.py", "..%2F..%2Fmain.py", "index.html", ".hidden.js", "nope.js",
                                  "%2Fetc%2Fpasswd"])
def test_only_plain_asset_names_inside_the_static_folder_resolve(live: Live, name: str) -> None:
    response = httpx.get(f"{live.base}/dashboard/static/{name}")
    assert response.status_code == 404
    # names with a slash never reach the route (Starlette's own 404, in the same error shape)
    assert response.json()["error"] == "not_found"
    if "%2F" not in name:
        assert response.json() == {"error": "not_found", "detail": f"no dashboard asset {name!r}"}


def test_missing_library_answers_with_the_install_command(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(web, "VENDOR_DIR", tmp_path / "vendor")
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/db.sqlite3")
    with TestClient(create_app(settings)) as client:
        response = client.get("/dashboard/vendor/chart.umd.js")
        assert response.status_code == 404
        assert response.json() == {"error": "asset_missing", "detail": web.INSTALL_HINT}
        assert "scripts/install_web_assets.sh" in web.INSTALL_HINT
        assert client.get("/dashboard").status_code == 200


def test_dashboard_is_in_the_openapi_document_but_assets_are_not(live: Live) -> None:
    paths = httpx.get(live.base + "/openapi.json").json()["paths"]
    assert "/dashboard" in paths
    assert not [p for p in paths if p.startswith("/dashboard/")]


def test_docs_are_served_from_local_files(live: Live) -> None:
    page = httpx.get(live.base + "/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "http" not in page.text.replace('http-equiv', '')  # no CDN: every asset is relative to this server
    for name, kind in web_docs.SWAGGER_FILES.items():
        asset = httpx.get(f"{live.base}/docs/vendor/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind), name
        assert asset.content == (web.VENDOR_DIR / name).read_bytes()
    assert httpx.get(live.base + "/docs/vendor/..%2Fchart.umd.js").status_code == 404
    assert httpx.get(live.base + "/docs/vendor/chart.umd.js").json()["error"] == "not_found"


def test_docs_render_the_operations_with_the_internet_cut_off(browser, live: Live) -> None:
    if not (web.VENDOR_DIR / "swagger-ui-bundle.js").is_file():
        pytest.fail("app/web/vendor/swagger-ui-bundle.js is missing: run scripts/install_web_assets.sh (needs npm)")
    context = browser.new_context()
    outside: list[str] = []

    def only_this_server(route) -> None:
        if route.request.url.startswith(live.base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_server)
    page = context.new_page()
    page.goto(live.base + "/docs")
    page.wait_for_selector(".opblock-summary-path[data-path='/v1/teachers']", timeout=30000)
    assert page.locator(".opblock").count() > 10
    assert outside == []
    context.close()
