"""A player's page while the database is away (PostgreSQL stopped and started again): the refusal is
said in words, the page's socket comes back by itself once the database is back, and the next click
is played (docs/deploy.md, "Faults and recovery")."""

from __future__ import annotations

import tempfile
from pathlib import Path

import httpx
import pytest

from builders.server.app import create_app
from builders.server.guard import Limits
from tests.server.helpers import ThreadServer
from tests.server.services import Postgres
from tests.web.conftest import DESKTOP


@pytest.fixture(scope="module")
def pg():
    server = Postgres(Path(tempfile.mkdtemp(prefix="builders-web-pg-"))).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_server(pg):
    app = create_app(pg.new_database(), bot_mode="inline", bot_delay=0, limits=Limits())
    with ThreadServer(app) as srv:
        yield srv


def test_the_page_says_why_and_comes_back_by_itself(browser, pg, pg_server, shots):
    with httpx.Client(base_url=pg_server.url, timeout=20) as api:
        created = api.post(
            "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human"}]}
        ).json()
        game_id = created["id"]
        seat = api.get(f"/api/games/{game_id}").json()["to_move"]
    context = browser.new_context(viewport=DESKTOP, base_url=pg_server.url)
    context.set_default_timeout(15000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(created["seats"][seat]["link"])
        page.wait_for_selector(f"#tableau-{seat}.mine")
        page.wait_for_selector('#conn[data-status="live"]')
        pg.halt()
        # a move while the database is away: refused in words, nothing changed
        page.locator('[data-action="coins 1"]').click()
        toast = page.locator(".toast", has_text="database cannot be reached")
        toast.wait_for()
        shots(page, "database-away")
        # a new page while it is away: its socket is closed with 1013 and keeps trying by itself
        page.reload()
        page.wait_for_selector('#conn[data-status="offline"]')
        assert page.locator("#conn").inner_text() == "reconnecting…"
        shots(page, "reconnecting")
        pg.resume()
        page.wait_for_selector('#conn[data-status="live"]', timeout=20000)
        page.wait_for_selector(f"#tableau-{seat}.mine")
        page.locator('[data-action="coins 1"]').click()
        with httpx.Client(base_url=pg_server.url, timeout=20) as api:
            for _ in range(100):
                if api.get(f"/api/games/{game_id}/state").json()["actions"] == 1:
                    break
                page.wait_for_timeout(100)
            assert api.get(f"/api/games/{game_id}/state").json()["actions"] == 1
        shots(page, "back")
    finally:
        context.close()
    assert not errors, f"script errors in the page: {errors}"
