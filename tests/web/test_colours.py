"""Seat colours chosen in the lobby: a fixed palette (distinct colours, seat chips readable at 4.5:1, houses
standing out from every terrain), a clear message when two seats share one, and the chosen colours on
the map's houses, the seat chips and the replay."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

from playwright.sync_api import expect

from builders.server.games import COLOURS
from tests.web.conftest import PHONE
from tests.web.helpers import play_kingdom_turn, wait_ready
from tests.web.learn import axe_violations, contrast
from tests.web.scripts import game_script

STATIC = Path(__file__).resolve().parents[2] / "src" / "builders" / "web" / "static"
API = (STATIC / "api.js").read_text()
KINGDOM = game_script("kingdom.js").read_text()
# the names of the colours are the English catalogue's (colour.red: "Red", ...)
ENGLISH = json.loads((STATIC / "i18n" / "en.json").read_text())
PALETTE = [
    dict(zip(("id", "name", "fill", "ink"), (m[0], ENGLISH[m[1]], m[2], m[3])))
    for m in re.findall(
        r'\{ id: "(\w+)", name: t\("(colour\.\w+)"\), fill: "(#[0-9a-f]{6})", ink: "(#[0-9a-f]{6})" \}', API
    )
]
TERRAIN_FILL = dict(
    re.findall(r'(\w): "(#[0-9a-f]{6})"', re.search(r"TERRAIN_FILL = \{(.*?)\};", KINGDOM, re.S).group(1))
)
HOUSE_OUTLINE = "#1b1b1b"  # the stroke of every house drawn on the map (kingdom.js)
RED_CHIP = "#c2401c"  # style.css draws red chips darker, for white letters


def rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))


def test_the_palette_is_the_servers_and_its_colours_are_distinct_and_readable():
    assert [p["id"] for p in PALETTE] == list(COLOURS) and len(PALETTE) >= 6
    # the defaults stay as they were
    assert [p["fill"] for p in PALETTE[:4]] == ["#e0512b", "#2f6fdb", "#f4f1e6", "#2e2e33"]
    assert 'SEAT_COLOURS = ["#e0512b", "#2f6fdb", "#f4f1e6", "#2e2e33"]' in API
    assert len(TERRAIN_FILL) == 9 and HOUSE_OUTLINE in KINGDOM
    for p in PALETTE:
        chip = RED_CHIP if p["id"] == "red" else p["fill"]
        assert contrast(chip, p["ink"]) >= 4.5, p
        # a house stands out from every terrain (3:1): by its fill, or by its dark outline which is
        # itself 3:1 against the terrain and against the fill
        for letter, terrain in TERRAIN_FILL.items():
            outlined = min(contrast(HOUSE_OUTLINE, terrain), contrast(HOUSE_OUTLINE, p["fill"]))
            assert max(contrast(p["fill"], terrain), outlined) >= 3, (p["id"], letter)
    # no two alike: far apart in RGB
    for i, a in enumerate(PALETTE):
        for b in PALETTE[i + 1 :]:
            ra, rb = ([int(c[k : k + 2], 16) for k in (1, 3, 5)] for c in (a["fill"], b["fill"]))
            assert sum((x - y) ** 2 for x, y in zip(ra, rb)) ** 0.5 >= 90, (a["id"], b["id"])


def test_the_terrain_card_is_readable_on_every_card_terrain():
    # the card in hand is drawn in its terrain's colour with its name on it: 4.5:1 on each of the five
    # terrains a card can show (rules.md, Components: grass, canyon, desert, flower field, forest)
    css = (STATIC.parents[1] / "kingdom" / "web" / "kingdom.css").read_text()  # the game's own stylesheet
    ink = re.search(r"^\.terrain-card \{[^}]*color: (#[0-9a-f]{6});", css, re.M).group(1)
    for letter in "GCDFT":
        assert contrast(TERRAIN_FILL[letter], ink) >= 4.5, letter


def house_fills(page, seat: int) -> set[str]:
    return set(
        page.locator(f'#kb-map g.house[data-seat="{seat}"] path').evaluate_all(
            "els => els.map(e => getComputedStyle(e).fill)"
        )
    )


def test_colours_chosen_in_the_lobby_colour_the_table_and_the_replay(new_page, api, shots):
    page = new_page()
    page.goto("/")
    page.locator("#learn-link").wait_for()
    page.select_option("#seat-1", "bot-easy")
    # two seats of one colour: said at once, and no game is made
    page.select_option("#seat-colour-1", "red")
    assert page.locator("#colour-clash").inner_text() == "Seats 1 and 2 are both red: give each seat its own colour."
    page.locator("#start").click()
    page.locator(".toast", has_text="Seats 1 and 2 are both red").wait_for()
    assert "/play/" not in page.url
    page.select_option("#seat-colour-0", "teal")
    page.select_option("#seat-colour-1", "yellow")
    assert page.locator("#colour-clash").is_hidden()
    chip = page.locator("#seats .seat-chip").first
    assert chip.inner_text() == "Teal" and chip.evaluate("e => getComputedStyle(e).backgroundColor") == rgb("#0fa88a")
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)
    shots(page, "lobby-colours")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/play/"))
    wait_ready(page)
    game_id = page.url.split("/play/")[1].split("#")[0]
    assert api.get(f"/api/games/{game_id}").json()["colours"] == ["teal", "yellow"]
    seat_chip = page.locator("#seat-chip")
    # the header is drawn anew with every view: expect() looks again until the chip is there and right
    expect(seat_chip).to_have_css("background-color", rgb("#0fa88a"))
    assert "Teal" in seat_chip.inner_text()
    rng = random.Random(14)
    play_kingdom_turn(page, rng, {})
    # the map is drawn anew with every view (the bot plays on): a house read while its map was being
    # replaced has no style (""); look again until both seats' houses are drawn
    deadline = time.monotonic() + 30
    while True:
        fills = house_fills(page, 0), house_fills(page, 1)
        if all(f and "" not in f for f in fills):
            break
        assert time.monotonic() < deadline, f"no houses of both seats on the map: {fills}"
        page.wait_for_timeout(200)
    assert fills == ({rgb("#0fa88a")}, {rgb("#f2c12e")})
    for seat, fill in ((0, "#0fa88a"), (1, "#f2c12e")):
        icon = page.locator(f"#player-{seat} .house-icon path")
        expect(icon).to_have_css("fill", rgb(fill))
    # the seats are named by their colours
    assert page.locator("#player-1 .player-name").inner_text() == "Yellow bot (easy)"
    # the header's chip and, once the bot's turn is over, the banner's (it names the player to move)
    wait_ready(page)
    chips = page.locator('.seat-chip[data-seat="0"]')
    expect(chips).to_have_count(2)
    assert set(chips.evaluate_all("els => els.map(e => getComputedStyle(e).backgroundColor)")) == {rgb("#0fa88a")}
    shots(page, "table-colours")


def test_the_replay_uses_the_games_colours(new_page, api):
    made = api.post(
        "/api/games",
        json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 2, "colours": ["purple", "white"]},
    ).json()
    deadline = time.monotonic() + 90
    while api.get(f"/api/games/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "a game of two bots did not finish"
        time.sleep(0.2)
    page = new_page()
    page.goto(f"/replay/{made['id']}#n=12")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('12 /')")
    # the step's number is shown before its position arrives: wait for the houses of both seats
    page.locator('#kb-map g.house[data-seat="1"]').first.wait_for()
    assert house_fills(page, 0) == {rgb("#8a4fc4")}
    assert house_fills(page, 1) == {rgb("#f4f1e6")}


def test_the_colour_menus_fit_a_phone(new_page):
    page = new_page(PHONE)
    page.goto("/")
    page.locator("#learn-link").wait_for()
    page.locator('#players button[data-n="4"]').click()
    assert page.locator("#seats .seat-colour").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)
