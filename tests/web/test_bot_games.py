"""A person sets up games of bots alone from the lobby: two go on at once, the third is refused with
the server's sentence, as a person sees it (docs/server.md, *Create a game*)."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from builders.server.app import create_app
from builders.server.guard import Limits
from tests.server.helpers import ThreadServer


@pytest.fixture
def server(tmp_path_factory):
    """The browser tests' server with the default limits of games of bots alone; its bots wait a
    minute before each move, so that the games stay going on during the test. One for each test:
    the games of bots alone one test leaves going on would count against the next one's caps."""
    db_path = tmp_path_factory.mktemp("web-bot-games") / "games.sqlite3"
    limits = Limits()
    limits.rates = {**limits.rates, "create": (10_000, 60.0), "login": (10_000, 60.0)}
    app = create_app(f"sqlite:///{db_path}", bot_mode="thread", bot_delay=60, limits=limits)
    with ThreadServer(app) as srv:
        yield srv


def bots_alone(page) -> None:
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator("#seat-0").select_option("bot-easy")
    page.locator("#seat-1").select_option("bot-medium")
    page.locator("#start").click()


def test_a_third_game_of_bots_alone_is_refused_with_a_sentence(new_page, shots):
    page = new_page()
    for _ in range(2):
        bots_alone(page)
        page.wait_for_url("**/play/**")
        page.wait_for_selector("#kb-map .hex")  # watching: the bots play
    shots(page, "watching")
    bots_alone(page)
    toast = page.locator(".toast")
    toast.wait_for()
    assert toast.evaluate("t => t.firstChild.textContent") == (
        "you already have 2 games of bots alone going on, as many as one player may "
        "have at once: create another when one of them has ended"
    )
    assert urlparse(page.url).path == "/"  # still the lobby
    # the two going on are among the guest's games, to watch
    expect(page.locator("#my-games .game-row")).to_have_count(2)
    expect(page.locator("#my-games .game-row a.btn")).to_have_text(["Watch", "Watch"])
    shots(page, "refused")


def test_a_game_handed_to_a_bot_is_not_your_turn_in_the_lobby(new_page, shots):
    """A person starts a game against a bot from the lobby and hands their seat to a bot in their
    own turn: back in the lobby the game is among theirs, not marked as their turn (a bot plays it)."""
    page = new_page()
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator("#seat-0").select_option("you")
    page.locator("#seat-1").select_option("bot-easy")
    page.locator("#start").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#kb-map .hex")
    game_id = urlparse(page.url).path.rsplit("/", 1)[-1]
    page.goto("/")
    row = page.locator(f'#my-games .game-row[data-id="{game_id}"]')
    expect(row.locator(".status")).to_have_text("your turn")  # before: the seat is theirs to play
    page.goto(f"/play/{game_id}")
    page.wait_for_selector("#kb-map .hex")
    page.locator("#handover-btn").click()
    page.locator('.level-option[data-level="easy"]').click()
    page.locator("#bot-confirm").click()
    expect(page.locator("#bot-dialog")).to_have_count(0)
    page.goto("/")
    row = page.locator(f'#my-games .game-row[data-id="{game_id}"]')
    expect(row.locator(".status")).to_have_text("turn 0")
    assert "your-turn" not in (row.get_attribute("class") or "")
    shots(page, "handed-over")
