"""Browser tests: a real server (uvicorn in a thread, temporary SQLite file, bots that move at once) and
Debian's Chromium driven by Playwright. Screenshots of every stage go to ``out/web/`` (ignored by git)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
import pytest

from builders.server.app import create_app
from builders.server.guard import Limits
from tests.server.helpers import ThreadServer

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    db_path = tmp_path_factory.mktemp("web") / "games.sqlite3"
    # every browser of the tests is on 127.0.0.1: the per-address limits of every kind of request (reads
    # too: a page asks several, and the tests of one worker load pages faster than a person) are raised
    limits = Limits()
    limits.rates = {kind: (100_000, 60.0) for kind in limits.rates}
    limits.bots_only_per_creator = limits.bots_only_games = 10_000
    # ... and so are the caps of games one person has going on and waiting: every test's games are one "person's"
    limits.games_per_creator = limits.games_waiting_per_creator = 10_000
    many = (100_000, 60.0)
    app = create_app(
        f"sqlite:///{db_path}",
        bot_mode="thread",
        bot_delay=0,
        limits=limits,
        login_limits={"login_per_name": many, "login_per_address": many, "login_per_name_address": many},
    )
    with ThreadServer(app) as srv:
        yield srv


@pytest.fixture
def api(server):
    with httpx.Client(base_url=server.url, timeout=20) as client:
        yield client


@pytest.fixture(scope="module")
def browser():
    # Module scope, not session: Playwright's sync API keeps an asyncio loop running while it is
    # open, and a test of another module run later in the same process (asyncio.run) must not see it.
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail("Debian's Chromium is needed for the browser tests: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Shots:
    """Saves numbered screenshots of one test under out/web/<test name>/."""

    def __init__(self, name: str):
        self.folder = SHOTS / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
        if self.folder.exists():
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def __call__(self, page, label: str, full_page: bool = False) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:02d}-{label}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path


@pytest.fixture
def shots(request):
    return Shots(request.node.name)


@pytest.fixture
def new_page(browser, server):
    """``new_page(viewport=DESKTOP)``: a page in a fresh browser context (its own localStorage); every
    uncaught script error fails the test."""
    contexts = []
    errors: list[str] = []

    def make(viewport=DESKTOP):
        context = browser.new_context(viewport=viewport, base_url=server.url)
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"
