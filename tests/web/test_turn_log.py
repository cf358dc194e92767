"""The turn, the log and the end: restart turn, undone moves struck through, log lines in words that light
their hexes, a toggle that hides the running gold, a bot's "thinking..." sign and its moves lit one by one."""

from __future__ import annotations

import re

import httpx
import pytest

from builders.server.app import create_app
from tests.server.helpers import ThreadServer
from tests.web.conftest import DESKTOP
from tests.web.helpers import CHANGED, click_and_wait, wait_ready
from tests.web.learn import create_game, open_seat, play_game, state

TERRAIN = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower field", "T": "forest"}


def words_for(board: dict, hex_text: str) -> str:
    """'canyon 16,15 next to the Oasis': how the page names a hex, from the server's board."""
    r, c = map(int, hex_text.split(","))
    rows = board["rows"]
    kinds = {tuple(loc["at"]): loc["kind"] for loc in board["locations"]}
    near = []
    odd = r % 2
    for nr, nc in [
        (r - 1, c + odd),
        (r, c + 1),
        (r + 1, c + odd),
        (r + 1, c - 1 + odd),
        (r, c - 1),
        (r - 1, c - 1 + odd),
    ]:
        if not (0 <= nr < 20 and 0 <= nc < 20):
            continue
        if rows[nr][nc] == "L":
            near.append(f"the {kinds[(nr, nc)].capitalize()}")
        elif rows[nr][nc] == "K":
            near.append("a castle")
    near = list(dict.fromkeys(near))
    return f"{TERRAIN[rows[r][c]]} {r},{c}" + (f" next to {' and '.join(near)}" if near else "")


def test_restart_turn_and_undone_moves_struck_through(new_page, api, shots):
    page, game_id, token = play_game(new_page, api, "kingdom")
    board = state(api, game_id, token)["board"]
    targets = page.locator("#kb-map .target")
    built = []
    for _ in range(2):
        built.append(targets.first.get_attribute("data-hex"))
        click_and_wait(page, targets.first)
    # the log names each move in words (terrain, place, neighbours)
    lines = page.locator("#log li").all_inner_texts()
    assert lines == [f"You built on {words_for(board, h)}" for h in built]
    assert page.locator("#restart-btn").is_enabled()
    old = page.evaluate("document.body.dataset.version")
    page.locator("#restart-btn").click()
    page.wait_for_function("n => document.querySelectorAll('#kb-map .house').length === n", arg=0)
    page.wait_for_function(CHANGED, arg=old)
    view = state(api, game_id, token)
    assert view["log"] == [] and view["can_undo"] is False
    assert not page.locator("#restart-btn").is_enabled() and not page.locator("#undo-btn").is_enabled()
    # both moves stay in the log, struck through
    undone = page.locator("#log li.undone")
    assert undone.count() == 2
    assert [t.replace("undone:", "").strip() for t in undone.all_inner_texts()] == lines
    assert undone.locator("s").count() == 2
    shots(page, "restarted")
    # a new move comes after them
    first = targets.first.get_attribute("data-hex")
    click_and_wait(page, targets.first)
    assert page.locator("#log li").all_inner_texts()[-1] == f"You built on {words_for(board, first)}"
    assert page.locator("#log li.undone").count() == 2


def test_hovering_a_log_line_lights_its_hex(new_page, api, shots):
    page, game_id, token = play_game(new_page, api, "kingdom")
    for _ in range(3):
        click_and_wait(page, page.locator("#kb-map .target").first)
    click_and_wait(page, page.locator("#end-btn"))
    wait_ready(page)
    log = state(api, game_id, token)["log"]
    bot_build = next(e for e in log if e["seat"] == 1 and e["action"].startswith("build "))
    hex_text = bot_build["action"].split(" ")[1]
    line = page.locator(f'#log li[data-n="{bot_build["n"]}"]')
    assert line.inner_text() == f"Blue bot (easy) built on {words_for(state(api, game_id, token)['board'], hex_text)}"
    line.hover()
    lit = page.locator("#kb-map .lit-hex")
    assert lit.evaluate_all("els => els.map(e => e.dataset.hex)") == [hex_text]
    shots(page, "log-hover")
    page.locator("#turn-banner").hover()
    assert lit.count() == 0
    # the keyboard reaches the log lines too
    line.focus()
    assert lit.evaluate_all("els => els.map(e => e.dataset.hex)") == [hex_text]


def test_the_running_gold_can_be_hidden(new_page, api):
    game_id, token = create_game(api, "kingdom")
    page = open_seat(new_page, game_id, token)
    assert page.locator("#player-0 .gold").count() == 1
    page.locator("#hide-scores").check()
    cells = page.locator("#running-scores td")
    assert set(cells.all_inner_texts()) == {"·"}
    assert page.locator(".player .gold").count() == 0
    # the choice stays in this browser
    page.reload()
    wait_ready(page)
    assert page.locator("#hide-scores").is_checked()
    assert set(page.locator("#running-scores td").all_inner_texts()) == {"·"}
    page.locator("#hide-scores").uncheck()
    assert page.locator("#running-scores td.total").first.inner_text() == "0"


# -- a server whose bots take their time, as in real play ------------------------------------------
@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory):
    db = tmp_path_factory.mktemp("slow") / "games.sqlite3"
    with ThreadServer(create_app(f"sqlite:///{db}", bot_mode="thread", bot_delay=0.6)) as srv:
        yield srv


def test_a_bot_is_seen_thinking_and_its_moves_light_up(browser, slow_bots, shots):
    with httpx.Client(base_url=slow_bots.url, timeout=20) as client:
        game_id, token = create_game(client, "kingdom")
    context = browser.new_context(viewport=DESKTOP, base_url=slow_bots.url)
    try:
        page = context.new_page()
        page.goto(f"/play/{game_id}#seat=0&token={token}")
        wait_ready(page)
        assert page.locator("#thinking").count() == 0
        for _ in range(3):
            click_and_wait(page, page.locator("#kb-map .target").first)
        page.locator("#end-btn").click()
        thinking = page.locator("#thinking")
        thinking.wait_for()
        assert thinking.inner_text().strip() == "Blue bot (easy) is thinking…"
        # each move of the bot lights its hex for a moment as it arrives
        page.wait_for_selector("#kb-map .flash-hex")
        shots(page, "bot-thinking")
        hexes = page.locator("#kb-map .flash-hex").evaluate_all("els => els.map(e => e.dataset.hex)")
        assert all(re.fullmatch(r"\d+,\d+", h) for h in hexes) and hexes
        wait_ready(page)
        assert thinking.count() == 0
    finally:
        context.close()


def test_pointing_at_a_running_score_lights_its_hexes(new_page, api, shots):
    page, game_id, token = play_game(new_page, api, "kingdom")
    for _ in range(3):
        click_and_wait(page, page.locator("#kb-map .target").first)
    mine = state(api, game_id, token)["view"]["players"][0]["settlements"]
    # knights (rules.md, Scoring): the settlements of the row where Red has the most
    best = max(range(20), key=lambda r: (sum(1 for s in mine if s[0] == r), -r))
    expected = sorted(f"{r},{c}" for r, c in mine if r == best)
    cell = page.locator('#running-scores td[data-seat="0"][data-card="knights"]')
    assert cell.inner_text() == str(2 * len(expected))
    cell.hover()
    lit = page.locator("#kb-map .scoring-hex").evaluate_all("els => els.map(e => e.dataset.r + ',' + e.dataset.c)")
    assert sorted(lit) == expected
    shots(page, "running-score-hover")
    page.locator("#turn-banner").hover()
    assert page.locator("#kb-map .scoring-hex").count() == 0


def test_optional_move_sounds(new_page, api):
    page, _, _ = play_game(new_page, api, "kingdom")
    toggle = page.locator("#move-sounds")
    assert not toggle.is_checked()
    click_and_wait(page, page.locator("#kb-map .target").first)
    assert page.evaluate("() => document.body.dataset.lastSound || ''") == ""  # off unless chosen
    toggle.check()
    click_and_wait(page, page.locator("#kb-map .target").first)
    assert page.evaluate("() => document.body.dataset.lastSound") == "own"
    page.reload()
    wait_ready(page)
    assert page.locator("#move-sounds").is_checked()
    click_and_wait(page, page.locator("#kb-map .target").first)
    click_and_wait(page, page.locator("#end-btn"))
    wait_ready(page)
    # the bot's moves sounded too (lower)
    assert page.evaluate("() => document.body.dataset.lastSound") == "other"
