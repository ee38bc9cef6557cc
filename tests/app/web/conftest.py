"""Dashboard fixtures: a real Postgres database of its own (so its rows never leak into other
test folders' counts), migrated and seeded with sandbox-run samples; a real uvicorn server in
a subprocess; Debian's chromium driven by Playwright.

Browser tests skip only when chromium is not installed (`apt-get install -y chromium`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT
from tests.support import throwaway_database

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts"
KEY_STORAGE = "execsynth.apiKey"


@dataclass
class Live:
    base: str
    db_url: str
    key: str
    batch_ids: list[int]

    def api(self, path: str, **params) -> dict:
        params = {k: v for k, v in params.items() if v is not None}
        response = httpx.get(self.base + path, params=params, headers={"Authorization": f"Bearer {self.key}"}, timeout=30)
        assert response.status_code == 200, response.text
        return response.json()

    def all_samples(self, **filters) -> list[dict]:
        items, cursor = [], None
        while True:
            page = self.api("/v1/samples", limit=500, cursor=cursor, **filters)
            items += page["items"]
            cursor = page["next_cursor"]
            if not cursor:
                return items


@pytest.fixture(scope="session")
def dashboard_db() -> Iterator[tuple[str, str, list[int]]]:
    """(url, API key, batch ids) of a new database holding the seeded data set."""
    from app.apikeys.schemas import ApiKeyCreate
    from app.apikeys.service import create as create_key
    from app.db import migrate
    from app.db.session import session_scope
    from tests.app.web.seed import seed

    with throwaway_database("execsynth_dash") as url:
        migrate.upgrade(url)
        with session_scope(url) as session:
            seeded = seed(session)
            key = create_key(session, ApiKeyCreate(name="dashboard-tests")).key
        yield url, key, seeded.batch_ids


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live(dashboard_db, tmp_path_factory) -> Iterator[Live]:
    """The real app under uvicorn, in its own process, over the seeded database."""
    url, key, batch_ids = dashboard_db
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "uvicorn.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXECSYNTH_")}
    # Tests add rows and then compare the page with the API: with the stats cache on, the two
    # reads can hit snapshots of different ages (the cache has tests of its own).
    env.update(EXECSYNTH_DATABASE_URL=url, EXECSYNTH_DATA_DIR=str(tmp_path_factory.mktemp("data")),
               EXECSYNTH_API__STATS_TTL_S="0")
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
                                 "--host", "127.0.0.1", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"uvicorn did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield Live(base, url, key, batch_ids)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="package")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Console:
    """Everything the page logged; `errors` are console errors and uncaught exceptions."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def on_message(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} @ {message.location}")

    def on_page_error(self, error) -> None:
        self.errors.append(f"uncaught: {error}")


def open_dashboard(browser, live: Live, with_key: bool = True, setup=None):
    """A fresh page (own localStorage) on /dashboard, after its first full refresh."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    if with_key:
        context.add_init_script(f"localStorage.setItem({KEY_STORAGE!r}, {live.key!r})")
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_page_error)
    if setup:
        setup(page)
    page.goto(live.base + "/dashboard")
    wait_refreshed(page, 1)
    return page, console


def wait_refreshed(page, at_least: int) -> int:
    page.wait_for_function(f"() => Number(document.body.dataset.refreshed || 0) >= {at_least} && !document.body.dataset.busy",
                           timeout=30000)
    return int(page.evaluate("document.body.dataset.refreshed"))


def change_and_wait(page, selector: str, value: str) -> None:
    """Set a filter exactly as a user would (one change event) and wait for its refresh."""
    before = int(page.evaluate("document.body.dataset.refreshed"))
    if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
        page.locator(selector).select_option(value)
    else:
        page.locator(selector).evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('change')); }", value)
    wait_refreshed(page, before + 1)


def chart_data(page, canvas_id: str) -> dict:
    return page.evaluate(
        """id => { const c = Chart.getChart(id); return c ? {labels: c.data.labels,
             datasets: c.data.datasets.map(d => ({label: d.label, data: d.data}))} : null; }""", canvas_id)


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


def chart_library_installed() -> bool:
    from app.web.router import CHART_FILE, VENDOR_DIR

    return (VENDOR_DIR / CHART_FILE).is_file()


@pytest.fixture(scope="session")
def chart_library() -> None:
    if not chart_library_installed():
        pytest.fail("app/web/vendor/chart.umd.js is missing: run scripts/install_web_assets.sh (needs npm)")
