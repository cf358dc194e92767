"""Pig in the lobby and on the rules page, in Chromium: a server with Pig registered offers it in the
lobby's game choice (its line, its setup form), among its leaderboards and in the page's title, starts a
game of it from there and plays a move at its table; the rules page links Pig's part and shows it. A game
whose plugin names no web table is listed, says it has none and cannot be chosen. Not a line outside Pig's
own files names Pig."""

from __future__ import annotations

from dataclasses import replace

import httpx
from playwright.sync_api import expect

from builders.core import plugins
from tests.thirdgame.plugin import PLUGIN
from tests.web.conftest import PHONE, Shots, browser, new_page  # noqa: F401 (fixtures)

#: whether the element is on screen, the page scrolled to it (as far as the page goes: Pig's part is its last)
IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return window.scrollY > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"""
BLURB = "Roll a die as long as you dare: a 1 loses the turn's points. First to the target wins."


def open_lobby(new_page, viewport=None):  # noqa: F811
    page = new_page(viewport) if viewport else new_page()
    page.goto("/")
    page.locator('.game-option[data-game="pig"]').wait_for()
    return page


def test_pig_is_chosen_set_up_and_played_from_the_lobby(server, new_page, request):  # noqa: F811
    shots = Shots(request.node.name)
    page = open_lobby(new_page)
    options = page.locator(".game-option")
    assert options.evaluate_all("els => els.map(e => e.dataset.game)") == ["kingdom", "middle-ages", "pig"]
    pig = page.locator('.game-option[data-game="pig"]')
    assert pig.locator("b").inner_text() == "Pig" and pig.locator("small").inner_text() == BLURB
    assert pig.get_attribute("aria-checked") == "false" and not pig.is_disabled()
    # the page's title, the top bar and the leaderboards name the three games
    assert page.locator("#lobby-subtitle").inner_text() == "Kingdom Builder, The Builders: Middle Ages and Pig"
    assert page.title() == "Builders · Kingdom Builder, The Builders: Middle Ages and Pig"
    expect(page.locator("#leaderboard-pig li")).to_have_text("No rated game yet.")
    # Kingdom Builder is chosen first, with its map and cards; Pig brings its own form, seed included
    assert page.locator("#kb-setup").count() == 1 and page.locator("#pig-setup").count() == 0
    shots(page, "lobby-three-games")
    pig.click()
    assert pig.get_attribute("aria-checked") == "true"
    assert page.locator("#kb-setup").count() == 0
    assert page.locator("#pig-setup #pig-target").input_value() == "20"
    assert page.locator("#pig-setup #seed").count() == 1
    page.locator("#seat-1").select_option("bot-easy")
    # a target out of Pig's bounds is refused by its form, and no game is made
    with httpx.Client(base_url=server.url, timeout=10) as api:
        before = len(api.get("/api/games").json())
        page.locator("#pig-target").fill("5")
        page.locator("#start").click()
        toast = page.locator(".toast-error").last
        toast.wait_for()
        assert toast.evaluate("t => t.firstChild.textContent") == "The target of Pig is a whole number from 10 to 50."
        assert len(api.get("/api/games").json()) == before
    shots(page, "pig-form-refused")
    page.locator("#pig-target").fill("12")
    page.locator("#seed").fill("7")
    page.locator("#start").click()
    page.wait_for_url("**/play/*")
    page.locator("#pig-table .pig-action").first.wait_for()
    assert page.locator("#pig-state").inner_text().endswith("(target 12)")
    gid = page.url.rsplit("/", 1)[1].split("#")[0]
    old = page.evaluate("document.body.dataset.version")
    page.locator('.pig-action[data-action="roll"]').click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=old)
    with httpx.Client(base_url=server.url, timeout=10) as api:
        state = api.get(f"/api/games/{gid}/state").json()
        summary = api.get(f"/api/games/{gid}").json()
    assert state["game"] == "pig" and state["view"]["target"] == 12 and state["version"] >= 1
    assert summary["seeded"] is True
    # the table's link to the rules lands on Pig's part of the rules page
    link = page.locator("#rules-link").get_attribute("href")
    assert link == "/static/rules.html#pig"
    shots(page, "pig-played")
    page.goto(link)
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    assert page.evaluate(IN_VIEW, "#pig")
    shots(page, "pig-rules-from-the-table")


def test_the_rules_page_links_and_shows_pig_s_rules(server, new_page, request):  # noqa: F811
    shots = Shots(request.node.name)
    page = new_page()
    page.goto("/static/rules.html")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    links = page.locator("#rules-nav a[data-game]")
    assert links.evaluate_all("els => els.map(e => [e.getAttribute('href'), e.textContent])") == [
        ["#kingdom", "Kingdom Builder"],
        ["#middle-ages", "The Builders"],
        ["#pig", "Pig"],
    ]
    assert page.locator(".rules-game").evaluate_all("els => els.map(e => e.id)") == ["kingdom", "middle-ages", "pig"]
    assert page.locator("#pig h2").inner_text() == "Pig"
    assert page.locator("#pig-turn h3").inner_text() == "A turn"
    # Pig has no guide: the buttons start a first game of the two games that have one
    assert page.locator(".start-guides button").evaluate_all("els => els.map(e => e.id)") == [
        "guide-kingdom",
        "guide-middle-ages",
    ]
    links.last.click()
    page.wait_for_function(IN_VIEW, arg="#pig-turn")
    shots(page, "rules-pig")


def test_on_a_phone_the_three_games_fit(server, new_page, request):  # noqa: F811
    shots = Shots(request.node.name)
    page = open_lobby(new_page, PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    boxes = page.locator(".game-option").evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
    assert len(boxes) == 3 and min(boxes) > 300  # one game a row
    shots(page, "lobby-phone", full_page=True)


def test_a_game_without_a_web_table_is_listed_and_cannot_be_chosen(server, new_page):  # noqa: F811
    bare = replace(
        PLUGIN,
        name="pig-by-api",
        title="Pig by the API",
        web_table="",
        web_rules="",
        web_lobby="",
        web_dir=None,
        colour="",
    )
    plugins.register(bare)
    try:
        page = open_lobby(new_page)
        option = page.locator('.game-option[data-game="pig-by-api"]')
        assert option.is_disabled()
        assert option.locator("b").inner_text() == "Pig by the API"
        assert option.locator("small").inner_text() == "No table in the browser yet: played through the API only"
        # its picture: the first letter of its title on a colour of the palette
        assert option.locator(".game-art").inner_text() == "P"
        option.click(force=True)
        assert page.locator('.game-option[data-game="kingdom"]').get_attribute("aria-checked") == "true"
        assert option.get_attribute("aria-checked") == "false"
        page.goto("/static/rules.html#pig-by-api")
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        assert page.locator("#pig-by-api h2").inner_text() == "Pig by the API"
        assert page.locator("#pig-by-api p").inner_text() == "The rules of this game are not on this page yet."
    finally:
        plugins.unregister(bare.name)
