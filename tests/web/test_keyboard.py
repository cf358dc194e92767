"""Keyboard and screen reader: a whole Kingdom Builder game played with the keyboard alone, labels on the
map's hexes, moves read out in a live region, and an axe-core scan of every page of the table."""

from __future__ import annotations

import random
import time

from tests.web.conftest import PHONE
from tests.web.helpers import CHANGED, choose_build, is_finished, wait_ready
from tests.web.learn import axe_violations, create_game, open_seat, play_game, state

ON_TARGET = "() => Boolean(document.activeElement && document.activeElement.classList.contains('target'))"


def press_and_wait(page, key: str) -> None:
    """A key that sends an action; waits for the server's new view."""
    old = page.evaluate("document.body.dataset.version")
    page.keyboard.press(key)
    page.wait_for_function(CHANGED, arg=old)


def keyboard_turn(page, rng: random.Random, stats: dict) -> None:
    for _ in range(60):
        if is_finished(page) or not page.evaluate("document.body.classList.contains('your-turn')"):
            return
        chips = page.locator("#player-0 .my-tiles .tile-chip")
        usable = [i for i in range(chips.count()) if "usable" in (chips.nth(i).get_attribute("class") or "")]
        if usable and rng.random() < 0.7:
            i = rng.choice(usable)
            page.keyboard.press(str(i + 1))  # the tile's number key; the map's first target gets the focus
            assert page.evaluate(ON_TARGET), "choosing a tile by its key did not focus its first target"
            if page.evaluate("document.activeElement.classList.contains('target-from')"):
                for _ in range(rng.randrange(3)):
                    page.keyboard.press(rng.choice(["ArrowRight", "ArrowDown", "ArrowLeft"]))
                page.keyboard.press("Enter")  # the settlement to move; the focus goes to where it may go
                page.wait_for_function(ON_TARGET)
            for _ in range(rng.randrange(3)):
                page.keyboard.press(rng.choice(["ArrowRight", "ArrowDown", "ArrowUp"]))
            press_and_wait(page, "Enter")
            stats["tiles"] = stats.get("tiles", 0) + 1
        elif page.locator("#kb-map .target").count():
            if not page.evaluate(ON_TARGET):
                page.keyboard.press("m")
            if rng.random() < 0.3:
                for _ in range(rng.randrange(4)):
                    page.keyboard.press(rng.choice(["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]))
            else:
                # mostly next to a location (to take tiles): Tab walks the highlighted hexes in reading order
                wanted = choose_build(page, rng)
                at = page.evaluate(
                    "() => [...document.querySelectorAll('#kb-map .target')].indexOf(document.activeElement)"
                )
                if wanted < at:
                    page.keyboard.press("m")
                    at = 0
                for _ in range(wanted - at):
                    page.keyboard.press("Tab")
            assert page.evaluate(ON_TARGET)
            press_and_wait(page, "Enter")
            stats["builds"] = stats.get("builds", 0) + 1
        else:
            assert page.locator("#end-btn").is_enabled()
            press_and_wait(page, "e")
            stats["turns"] = stats.get("turns", 0) + 1
            return
    raise AssertionError("a turn did not end after 60 keys")


def test_a_whole_game_by_keyboard(new_page, api, shots):
    game_id, token = create_game(api, "kingdom")
    page = open_seat(new_page, game_id, token)
    # Tab from the top of the page reaches the first highlighted hex, labelled for a screen reader
    for presses in range(1, 40):
        page.keyboard.press("Tab")
        if page.evaluate(ON_TARGET):
            break
    else:
        raise AssertionError("Tab never reached a highlighted hex")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    view = state(api, game_id, token)
    terrain = {"flower": "flower field"}.get(
        view["view"]["players"][0]["terrain"], view["view"]["players"][0]["terrain"]
    )
    assert label.startswith(f"Build on {terrain} ") and label.endswith(". Legal."), label
    # Enter builds; Z takes it back; the focus stays on the map
    houses = page.locator('#kb-map .house[data-seat="0"]')
    press_and_wait(page, "Enter")
    assert houses.count() == 1
    assert page.evaluate(ON_TARGET), "after a build from the keyboard the focus left the map"
    press_and_wait(page, "z")
    assert houses.count() == 0
    # the move was read out, then its undoing is in the log, struck through
    assert "Ada" not in page.locator("#announcer").inner_text()  # "You built ..." for your own seat
    assert page.locator("#announcer").inner_text().startswith("You built on ")
    shots(page, "keyboard-first-build")

    rng = random.Random(14)
    stats: dict = {}
    turns = 0
    while not is_finished(page):
        wait_ready(page)
        if is_finished(page):
            break
        keyboard_turn(page, rng, stats)
        turns += 1
        assert turns < 40, "the game did not end"
    page.wait_for_selector("#final-scores")
    shots(page, "keyboard-game-over")
    final = state(api, game_id, token)
    assert final["status"] == "finished" and final["result"] is not None
    # every action of seat 0 in the game's log was made by a key
    mine = [e["action"] for e in final["log"] if e["seat"] == 0]
    assert stats.get("builds", 0) + stats.get("tiles", 0) == sum(1 for a in mine if a != "end"), stats
    assert stats.get("turns", 0) == sum(1 for a in mine if a == "end"), stats
    assert stats.get("builds", 0) >= 18 and stats.get("tiles", 0) >= 1, stats
    # the end is said in the live region and written in the log
    assert "Game over." in page.locator("#announcer").inner_text()
    assert page.locator("#game-over-line").inner_text().startswith("Game over.")
    # every tile held has its "?" to the rules' part on it
    for kind, part in page.locator(".tile-wrap").evaluate_all(
        "els => els.map(e => [e.querySelector('.tile-chip').dataset.kind, e.querySelector('.help-link').dataset.part])"
    ):
        assert part == f"kb-tile-{kind}"
    # a clean end: the final table first, no turn buttons, every card in a hand shown (rules.md, Information)
    assert page.locator(".side-col > .panel").first.get_attribute("id") == "final-scores"
    assert page.locator("#undo-btn, #restart-btn, #end-btn").count() == 0
    last = api.get(f"/api/games/{game_id}/replay/{len(final['log'])}").json()["view"]["players"]
    page.wait_for_function("() => document.querySelectorAll('#player-1 .their-terrain, #player-1 .muted').length > 0")
    bot_card = last[1]["terrain"]
    if bot_card:
        assert page.locator("#player-1 .their-terrain").get_attribute("data-terrain") == bot_card
    else:
        page.wait_for_function(
            "() => document.querySelector('#player-1 .player-facts').textContent.includes('no card in hand')"
        )


def test_bot_moves_are_read_out(new_page, api):
    page, game_id, token = play_game(new_page, api, "kingdom")
    for _ in range(3):
        page.keyboard.press("m")
        press_and_wait(page, "Enter")
    press_and_wait(page, "e")
    wait_ready(page)
    said = page.locator("#announcer p").all_inner_texts()
    bot = [line for line in said if line.startswith("Blue bot (easy) ")]
    assert bot, said
    log = state(api, game_id, token)["log"]
    assert sum(1 for e in log if e["seat"] == 1) >= 3
    assert any(line.startswith("Blue bot (easy) built on ") for line in bot), bot


def test_accessibility_scan_kingdom(new_page, api):
    page, _, _ = play_game(new_page, api, "kingdom")
    page.locator("#legend summary").click()
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)


def test_accessibility_scan_builders_on_a_phone(new_page, api):
    page, _, _ = play_game(new_page, api, "middle-ages", viewport=PHONE)
    page.locator('#building-row button[data-action^="open"]').first.click()
    page.locator("#my-crew .ma-card.sendable").first.click()
    page.wait_for_selector("#my-sites button.send")
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)


def test_accessibility_scan_replay(new_page, api):
    made = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 2}).json()
    deadline = time.monotonic() + 90
    while api.get(f"/api/games/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "a game of two bots did not finish"
        time.sleep(0.2)
    page = new_page()
    page.goto(f"/replay/{made['id']}#n=12")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('12 /')")
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)


def test_accessibility_scan_rules(new_page):
    page = new_page()
    page.goto("/static/rules.html")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)


def test_builders_by_keyboard(new_page, api):
    """The Builders with Tab and Enter alone: open a site, choose a worker, send it, end the turn."""
    page, game_id, token = play_game(new_page, api, "middle-ages")

    def tab_to(selector: str, limit: int = 80) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to('#building-row button[data-action^="open"]')
    opened = page.evaluate("() => document.activeElement.dataset.action")
    press_and_wait(page, "Enter")
    assert state(api, game_id, token)["log"][-1]["action"] == opened
    tab_to("#my-crew .ma-card.sendable")
    worker = page.evaluate("() => document.activeElement.dataset.worker")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')").startswith(f"{worker} ")
    page.keyboard.press("Enter")
    page.wait_for_selector("#my-sites button.send")
    tab_to("#my-sites button.send")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.startswith(f"Send {worker} here") and "action" in label
    old = page.evaluate("document.body.dataset.version")
    page.keyboard.press("Enter")
    # a worker that brings nothing the site needs asks first, its "Send anyway" focused
    if page.evaluate("() => document.activeElement.id === 'send-anyway'"):
        page.keyboard.press("Enter")
    page.wait_for_function(CHANGED, arg=old)
    assert state(api, game_id, token)["log"][-1]["action"].startswith(f"send {worker} ")
    while page.evaluate("() => document.body.classList.contains('your-turn')"):
        if page.locator('#action-bar [data-action="end"]').is_enabled():
            press_and_wait(page, "e")
            break
        tab_to('#action-bar [data-action="coins 1"]')
        press_and_wait(page, "Enter")
    assert [e["action"] for e in state(api, game_id, token)["log"] if e["seat"] == 0][-1] == "end"


def test_accessibility_scan_lobby(new_page):
    for viewport in (None, PHONE):
        page = new_page(viewport) if viewport else new_page()
        page.goto("/")
        page.locator("#learn-link").wait_for()
        problems = axe_violations(page)
        assert not problems, "\n".join(problems)
