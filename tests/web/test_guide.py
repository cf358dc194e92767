"""The guide fits the game at hand (issue 45, item 8): first-game words only in a first game, the guide
of any other game tells that game (its players, cards and tiles, what to do now); the guide covers no
control; "First game" makes a private game and opens it again while it is unfinished."""

from __future__ import annotations

import pytest

from tests.web.conftest import DESKTOP, PHONE
from tests.web.helpers import wait_ready
from tests.web.learn import create_game, open_seat

# the element at the centre of a control is the control (or a part of it), not the guide over it: with
# the control in the middle of the screen and at its bottom edge (where a panel fixed there would lie)
COVERED = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null || e.tagName === 'TD').flatMap(e =>
  ['center', 'end'].map(block => {
    e.scrollIntoView({ block, inline: 'center' });
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const guide = document.querySelector('#guide');
    return hit && (hit === e || e.contains(hit) || !guide || !guide.contains(hit)) ? null
      : `${sel} (${block}): ${e.textContent.trim().slice(0, 20)} under the guide's ${hit.id || hit.className}`;
  })).filter(Boolean)"""


def from_rules(page, game: str) -> str:
    """Clicks "First game" of the rules page; returns the id of the table it opens."""
    page.goto("/static/rules.html")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.locator(f"#guide-{game}").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)
    return page.url.split("/play/")[1].split("#")[0]


def listed(api) -> set[str]:
    """The games the lobby's lists show (every status)."""
    games = api.get("/api/games").json()
    assert isinstance(games, list), games
    return {g["id"] for g in games}


def test_a_first_game_is_private_and_opened_again_until_it_is_over(new_page, api):
    page = new_page()
    first = from_rules(page, "kingdom")
    # not in "Games in progress" (nor any list of the lobby), where an ordinary game is; to anyone else
    # it does not exist
    public, _ = create_game(api, "kingdom")
    shown = listed(api)
    assert public in shown and first not in shown
    # another person's lobby: the ordinary game is in "Games in progress", the first game nowhere
    other = new_page()
    other.goto("/")
    other.wait_for_selector(f'#running-games li[data-id="{public}"]')
    assert other.locator(f'[data-id="{first}"]').count() == 0
    assert other.evaluate("id => fetch(`/api/games/${id}`).then(r => r.status)", first) == 404
    assert api.get(f"/api/games/{first}").status_code == 404
    # "First game" again: the same table, not a second game
    assert from_rules(page, "kingdom") == first
    assert page.locator("#guide").get_attribute("data-first") == "1"
    # The Builders' first game is another one, kept apart
    builders = from_rules(page, "middle-ages")
    assert builders != first and from_rules(page, "middle-ages") == builders
    # once it is over (here: resigned), "First game" makes a new one
    assert (
        page.evaluate(
            """async id => {
        const s = await fetch('/api/session').then(r => r.json());
        return (await fetch(`/api/games/${id}/resign`, {method: 'POST', headers: {'X-CSRF-Token': s.csrf}})).status;
    }""",
            first,
        )
        == 200
    )
    assert from_rules(page, "kingdom") != first


def test_the_guide_of_an_ordinary_game_tells_this_game(new_page, api, shots):
    # a random map against a medium bot: no first-game words
    game_id, token = create_game(api, "kingdom", bot="medium", setup={"seed": 21})
    page = open_seat(new_page, game_id, token)
    cards = page.locator("#running-scores .card-name b").all_inner_texts()
    page.locator("#guide-btn").click()
    assert page.locator("#guide").get_attribute("aria-label") == "Guide to this game"
    assert page.locator("#guide-title").inner_text() == "This game"
    text = page.locator("#guide-text").inner_text()
    assert "first" not in text and "easy bot" not in text
    assert text.startswith("You play Red against Blue bot (medium).")
    for card in cards[1:]:  # castles, then the three cards of the game
        assert card in text, (card, text)
    kinds = page.evaluate(
        "() => [...new Set([...document.querySelectorAll('#kb-map .location')].map(e => e.dataset.kind))]"
    )
    assert len(kinds) == 4
    shots(page, "guide-this-game")
    page.locator("#guide-next").click()
    assert page.locator("#guide-title").inner_text() == "What to do now"
    terrain = page.locator("#my-card .terrain-card").get_attribute("data-terrain")
    words = {"flower": "flower field"}.get(terrain, terrain)
    assert page.locator("#guide-text").inner_text().startswith(f"Your turn: build 3 more settlements on {words}")
    # the words follow the table
    old = page.evaluate("document.body.dataset.version")
    page.locator("#kb-map .target").first.click()
    page.wait_for_function("old => document.body.dataset.version !== old", arg=old)
    page.wait_for_function(
        "() => document.querySelector('#guide-text').textContent.startsWith('Your turn: build 2 more settlements')"
    )
    page.locator("#guide-next").click()
    assert page.locator("#guide-title").inner_text() == "Read the score"


def test_the_guide_of_an_ordinary_builders_game(new_page, api):
    game_id, token = create_game(api, "middle-ages", setup={"seed": 98})
    page = open_seat(new_page, game_id, token)
    page.locator("#guide-btn").click()
    assert page.locator("#guide-text").inner_text() == (
        "You play Red against Blue bot (easy). Complete buildings and machines for their VP: once someone has "
        "17 VP, the round is the last. You have 0 VP and 10 coins."
    )
    page.locator("#guide-next").click()
    assert page.locator("#guide-text").inner_text() == (
        "You have 3 actions: open a site (Open, under a building) to send workers to it."
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_guide_covers_no_control(new_page, api, viewport, shots):
    page = new_page(viewport)
    from_rules(page, "kingdom")
    assert page.locator("#guide").is_visible()
    page.wait_for_function(
        "() => [...document.querySelectorAll('#kb-map .target')].some(e => e.getBoundingClientRect().width > 0)"
    )
    controls = [
        "#zoom-btn",
        "#action-bar .help-link",
        "#action-bar button",
        "#running-scores td",
        "#running-scores .help-link",
        "#seat-tools .btn",
        "#guide button",
    ]
    for selector in controls:
        assert page.locator(selector).count(), selector
        covered = page.evaluate(COVERED, selector)
        assert covered == [], covered
    page.evaluate("() => window.scrollTo(0, 0)")
    shots(page, "guide-in-flow")
    # The Builders too
    from_rules(page, "middle-ages")
    for selector in ["#action-bar button", "#action-bar .help-link", "#building-row button", "#running-scores td"]:
        covered = page.evaluate(COVERED, selector)
        assert covered == [], covered
