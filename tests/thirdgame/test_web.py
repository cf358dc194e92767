"""Pig in the browser: the play page loads the table module Pig's plugin names (served from Pig's own
folder) and a person plays a game against a bot to its end by its buttons."""

from __future__ import annotations

import httpx

from tests.web.conftest import browser, new_page  # noqa: F401 (fixtures)


def test_the_play_page_loads_pig_s_table_and_plays_it_to_the_end(server, new_page):  # noqa: F811
    with httpx.Client(base_url=server.url, timeout=10) as api:
        assert api.get("/static/games/pig/pig.js").status_code == 200
        assert api.get("/static/games/pig/__init__.py").status_code == 200  # the folder is Pig's alone
        assert api.get("/static/games/pig/../game.py").status_code == 404
        made = api.post(
            "/api/games",
            json={
                "game": "pig",
                "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
                "setup": {"target": 10},
            },
        ).json()
    gid, token = made["id"], made["seats"][0]["token"]
    page = new_page()
    page.goto(f"/play/{gid}#seat=0&token={token}")
    page.wait_for_selector("#pig-table .pig-action")
    assert page.locator("#pig-state").inner_text().endswith("(target 10)")
    clicks = 0
    while not page.locator("#pig-result").count():
        buttons = page.locator("#pig-table .pig-action")
        if buttons.count():
            old = page.evaluate("document.body.dataset.version")
            pot = (
                int(page.locator("#pig-state").inner_text().split("|")[0].split("+")[-1])
                if "+" in page.locator("#pig-state").inner_text().split("|")[0]
                else 0
            )
            choice = "hold" if pot >= 4 and page.locator('.pig-action[data-action="hold"]').count() else "roll"
            page.locator(f'.pig-action[data-action="{choice}"]').click()
            page.wait_for_function("v => document.body.dataset.version !== v", arg=old)
            clicks += 1
        else:
            page.wait_for_function("() => document.querySelector('#pig-table .pig-action, #pig-result')")
        assert clicks < 300
    with httpx.Client(base_url=server.url, timeout=10) as api:
        final = api.get(f"/api/games/{gid}/state").json()
    assert final["result"] and max(final["view"]["banked"]) >= 10 and final["table"] == "games/pig/pig.js"
    assert clicks >= 1 and page.evaluate("document.body.dataset.game") == "pig"
