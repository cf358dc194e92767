"""The screenshots of docs/web.md, at 1280x800 and 375x812: ``python -m tests.web.screens`` (a real server
with a temporary database and Debian's Chromium, as in the browser tests)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import httpx

from builders.server.app import create_app
from tests.server.helpers import ThreadServer
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE
from tests.web.helpers import click_and_wait, wait_ready
from tests.web.learn import create_game

DOCS = Path(__file__).resolve().parents[2] / "docs"


def finished(client, game: str) -> str:
    made = client.post("/api/games", json={"game": game, "seats": [{"type": "bot", "level": "easy"}] * 2}).json()
    while client.get(f"/api/games/{made['id']}").json()["status"] != "finished":
        time.sleep(0.2)
    return made["id"]


def main() -> None:
    from playwright.sync_api import sync_playwright

    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    with (
        ThreadServer(create_app(f"sqlite:///{db}", bot_mode="thread", bot_delay=0)) as srv,
        httpx.Client(base_url=srv.url, timeout=20) as client,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

        def page(viewport):
            return browser.new_context(viewport=viewport, base_url=srv.url).new_page()

        # Kingdom Builder, a few turns in, a running score pointed at
        kb, token = create_game(client, "kingdom")
        p = page(DESKTOP)
        p.goto(f"/play/{kb}#seat=0&token={token}")
        wait_ready(p)
        for _ in range(3):
            for _ in range(3):
                click_and_wait(p, p.locator("#kb-map .target").first)
            click_and_wait(p, p.locator("#end-btn"))
            wait_ready(p)
        p.wait_for_timeout(1600)  # the bot's last moves stop glowing
        p.locator('#running-scores td[data-seat="0"][data-card="knights"]').hover()
        p.screenshot(path=str(DOCS / "screenshot-kingdom.png"))
        p.locator("#legend summary").click()
        p.locator("#legend").scroll_into_view_if_needed()
        p.screenshot(path=str(DOCS / "web-legend.png"))

        # on a phone: the map zoomed on the legal hexes
        p = page(PHONE)
        p.goto(f"/play/{kb}#seat=0&token={token}")
        wait_ready(p)
        p.screenshot(path=str(DOCS / "web-phone-kingdom.png"))

        # the rules, opened at a tile from its "?"
        p = page(DESKTOP)
        p.goto("/static/rules.html#kb-card-merchants")
        p.wait_for_function("() => document.body.dataset.ready === '1'")
        p.screenshot(path=str(DOCS / "web-rules.png"))

        # the walkthrough
        p = page(DESKTOP)
        p.goto("/static/rules.html")
        p.wait_for_function("() => document.body.dataset.ready === '1'")
        p.locator("#guide-kingdom").click()
        p.wait_for_url("**/play/**")
        wait_ready(p)
        p.locator("#guide-next").click()
        p.locator("#guide-next").click()
        click_and_wait(p, p.locator("#kb-map .target").first)
        p.wait_for_selector("#guide[data-step='3']")
        p.screenshot(path=str(DOCS / "web-guide.png"))

        # The Builders, with a site open and a worker chosen; and on a phone
        ma, token = create_game(client, "middle-ages")
        p = page(DESKTOP)
        p.goto(f"/play/{ma}#seat=0&token={token}")
        wait_ready(p)
        click_and_wait(p, p.locator('#building-row button[data-action^="open"]').first)
        p.locator("#my-crew .ma-card.sendable").first.click()
        p.screenshot(path=str(DOCS / "screenshot-builders.png"))
        p = page(PHONE)
        p.goto(f"/play/{ma}#seat=0&token={token}")
        wait_ready(p)
        p.screenshot(path=str(DOCS / "web-phone-builders.png"))

        # a hint: the hard bot's move marked on the map, the rest of its plan numbered
        made = client.post(
            "/api/games",
            json={
                "game": "kingdom",
                "hints": True,
                "setup": {"seed": 21},
                "seats": [{"type": "human"}, {"type": "bot", "level": "medium"}],
            },
        ).json()
        p = page(DESKTOP)
        p.goto(made["seats"][0]["link"])
        wait_ready(p)
        p.locator("#hint-btn").click()
        p.wait_for_selector("#hint-text")
        p.screenshot(path=str(DOCS / "web-hint.png"))

        # the analysis board of a game of medium against hard, a mistake shown with the better move
        done = client.post(
            "/api/games",
            json={
                "game": "kingdom",
                "setup": {"seed": 8},
                "seats": [{"type": "bot", "level": "medium"}, {"type": "bot", "level": "hard"}],
            },
        ).json()["id"]
        while client.get(f"/api/games/{done}").json()["status"] != "finished":
            time.sleep(0.5)
        p = page({"width": 1280, "height": 1300})
        p.goto(f"/play/{done}")
        p.wait_for_function("() => document.body.dataset.status === 'finished'")
        p.locator("#analyse-link").click()
        p.wait_for_selector("#analysis[data-status='done']", timeout=3_600_000)
        decisions = client.get(f"/api/games/{done}/analysis").json()["result"]["decisions"]
        builds = [d for d in decisions if d["label"] and "," in d["best"]]
        worst = max(builds, key=lambda d: d["loss"])
        p.locator(f"#analysis-moves li[data-n='{worst['index']}']").click()
        p.wait_for_selector("#kb-map polygon.better-move")
        p.locator("#analysis").scroll_into_view_if_needed()
        p.screenshot(path=str(DOCS / "web-analysis.png"))

        # a replay, one step marked
        done = finished(client, "kingdom")
        p = page(DESKTOP)
        p.goto(f"/replay/{done}#n=40")
        p.wait_for_function("() => document.querySelector('#step').textContent.startsWith('40 /')")
        p.screenshot(path=str(DOCS / "web-replay.png"))
        browser.close()


if __name__ == "__main__":
    main()
