"""The rules in the app: a page for both games, with every tile, card and action, reached from the table's
"?" buttons at the right part."""

from __future__ import annotations

from builders.kingdom.data import CARDS as KB_CARDS, FIRST_GAME_CARDS
from tests.web.conftest import PHONE
from tests.web.learn import play_game

TILES = ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"]
MA_PARTS = [
    "ma-goal",
    "ma-cards",
    "ma-turn",
    "ma-open",
    "ma-recruit",
    "ma-send",
    "ma-coins",
    "ma-buy",
    "ma-complete",
    "ma-machines",
    "ma-end",
    "ma-table",
]


def open_rules(new_page, part: str = "", viewport=None):
    page = new_page(viewport) if viewport else new_page()
    page.goto(f"/static/rules.html#{part}")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    return page


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight / 2; }""",
        selector,
    )


def test_every_tile_card_and_action_has_its_part(new_page, shots):
    page = open_rules(new_page)
    shots(page, "rules-top")
    for kind in TILES:
        part = page.locator(f"#kb-tile-{kind}")
        assert part.count() == 1, kind
        # the location's own picture, not a letter code
        assert part.locator("svg.location-icon use").get_attribute("href") == f"#kb-loc-{kind}"
        assert kind.capitalize() in part.locator("h3").inner_text()
    # the 10 Kingdom Builder cards and the castles, each with an example (rules.md, Scoring)
    assert len(KB_CARDS) == 10
    for card in ["castles", *KB_CARDS]:
        part = page.locator(f"#kb-card-{card}")
        assert part.count() == 1, card
        assert "Example" in part.locator(".rule-example").inner_text(), card
    # five terrains one builds on, and water, mountain, castle
    assert page.locator("#kb-terrains .terrain-item").count() == 8
    for part in MA_PARTS:
        assert page.locator(f"#{part}").count() == 1, part
    # The Builders' costs in words (rules.md, A turn): coins for actions, 5 coins an action
    coins = page.locator("#ma-coins").inner_text()
    assert "1 action" in coins and "2 actions" in coins and "3 actions" in coins
    assert "5 coins" in page.locator("#ma-buy").inner_text()
    assert "17 VP" in page.locator("#ma-end").inner_text()


def test_the_address_opens_the_right_part(new_page, shots):
    page = open_rules(new_page, "kb-card-lords")
    assert in_view(page, "#kb-card-lords")
    assert "flash" in page.locator("#kb-card-lords").get_attribute("class")
    shots(page, "lords")
    # following another link on the page moves the mark
    page.evaluate("location.hash = '#ma-send'")
    page.wait_for_function("() => document.querySelector('#ma-send').classList.contains('flash')")
    assert in_view(page, "#ma-send")
    assert "flash" not in page.locator("#kb-card-lords").get_attribute("class")


def test_kingdom_table_question_marks_land_on_their_part(new_page, api, shots):
    page, _, _ = play_game(new_page, api, "kingdom")
    # castles always score, then the first game's three cards (rules.md, Components and setup)
    links = page.locator("#running-scores .help-link")
    parts = links.evaluate_all("els => els.map(e => e.dataset.part)")
    assert parts == ["kb-card-castles", *(f"kb-card-{card}" for card in FIRST_GAME_CARDS)]
    # the legend's locations and the action bar's "?" too
    assert page.locator("#legend .legend-places a").evaluate_all("els => els.map(e => e.getAttribute('href'))") == [
        f"/static/rules.html#kb-tile-{kind}" for kind in TILES
    ]
    assert page.locator("#action-bar .help-link").get_attribute("data-part") == "kb-turn"
    with page.context.expect_page() as opened:
        page.locator('#running-scores tr[data-card="knights"] .help-link').click()
    rules = opened.value
    rules.wait_for_function("() => document.body.dataset.ready === '1'")
    assert rules.url.endswith("/static/rules.html#kb-card-knights")
    assert in_view(rules, "#kb-card-knights")
    shots(rules, "knights-from-table")
    # the top bar links the rules of this game
    assert page.locator("#rules-link").get_attribute("href") == "/static/rules.html#kingdom"


def test_builders_table_question_marks(new_page, api, shots):
    page, _, _ = play_game(new_page, api, "middle-ages", viewport=PHONE)
    parts = set(page.locator(".help-link").evaluate_all("els => els.map(e => e.dataset.part)"))
    assert {"ma-coins", "ma-buy", "ma-turn", "ma-open", "ma-recruit", "ma-send"} <= parts
    with page.context.expect_page() as opened:
        page.locator('#action-bar .help-link[data-part="ma-buy"]').click()
    rules = opened.value
    rules.wait_for_function("() => document.body.dataset.ready === '1'")
    assert in_view(rules, "#ma-buy")
    shots(rules, "buy-on-a-phone")
    assert page.locator("#rules-link").get_attribute("href") == "/static/rules.html#middle-ages"


def test_the_rules_page_ships_with_the_package():
    import re

    from builders.web import STATIC_DIR

    page = STATIC_DIR / "rules.html"
    text = page.read_text()
    assert '<meta name="viewport"' in text
    for src in re.findall(r'(?:src|href)="/static/([^"]+)"', text):
        assert (STATIC_DIR / src).is_file(), src
