"""The lobby and "your games" as a player reads them: each row of a game going on says whose turn it
is, the time left on their clock (words for a turn-based clock, m:ss for a live one) and the kind of
clock; rated games are marked in the lobby and on the table; the top bar's button says "Your turn (n)"
only when games wait, its menu closes on Esc (the focus back on the button) and on a click outside,
and its count follows a move within two seconds; Rated with no clock is said in the form at once."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.test_accounts import Browser, fresh
from tests.web.test_invites import CREATE


def program_game(api, clock: dict | None) -> tuple[str, str]:
    """A game of two people by seat links (Mallory to move, then Trent); returns its id and Mallory's token."""
    body = {"game": "middle-ages", "seats": [{"type": "human", "name": "Mallory"}, {"type": "human", "name": "Trent"}]}
    if clock:
        body["clock"] = clock
    created = api.post("/api/games", json=body).json()
    return created["id"], created["seats"][0]["token"]


def test_rows_say_whose_turn_the_time_left_and_the_clock(new_page, api, shots):
    live, token = program_game(api, {"kind": "live", "total": 300, "increment": 5})
    turn, turn_token = program_game(api, {"kind": "turn", "per_turn": 2 * 86400})
    untimed, _ = program_game(api, None)
    # in the live game Mallory ends her turn: Trent is to move, his clock running; in the turn-based
    # one she has made a first move (the clocks run from there)
    for action in ("coins 1", "coins 1", "coins 1", "end"):
        assert (
            api.post(f"/api/games/{live}/actions", json={"action": action}, headers={"X-Seat-Token": token}).status_code
            == 200
        )
    assert (
        api.post(
            f"/api/games/{turn}/actions", json={"action": "coins 1"}, headers={"X-Seat-Token": turn_token}
        ).status_code
        == 200
    )
    page = new_page()
    page.goto("/")
    row = page.locator(f'#running-games li.game-row[data-id="{live}"]')
    expect(row.locator(".to-move")).to_have_text(" · Trent (guest) to move")
    expect(row.locator(".deadline")).to_have_text(re.compile(r"^ · [45]:[0-5]\d left$"))
    expect(row.locator(".clock-kind")).to_have_text(" · live clock")
    # the live clock's time goes down by the second on the page
    first = row.locator(".deadline").inner_text()
    page.wait_for_timeout(2100)
    assert row.locator(".deadline").inner_text() != first
    row = page.locator(f'#running-games li.game-row[data-id="{turn}"]')
    expect(row.locator(".to-move")).to_have_text(" · Mallory (guest) to move")
    expect(row.locator(".deadline")).to_have_text(re.compile(r"^ · (1 day|2 days) left$"))
    expect(row.locator(".clock-kind")).to_have_text(" · turn-based")
    row = page.locator(f'#running-games li.game-row[data-id="{untimed}"]')
    expect(row.locator(".to-move")).to_have_text(" · Mallory (guest) to move")
    expect(row.locator(".deadline")).to_have_count(0)
    expect(row.locator(".clock-kind")).to_have_text(" · untimed")
    page.locator(f'#running-games li.game-row[data-id="{live}"]').scroll_into_view_if_needed()
    shots(page, "rows")
    # in German and French too
    page.goto("/?lang=de")
    row = page.locator(f'#running-games li.game-row[data-id="{live}"]')
    expect(row.locator(".to-move")).to_have_text(" · Trent (Gast) ist am Zug")
    expect(row.locator(".clock-kind")).to_have_text(" · Live-Uhr")
    page.goto("/?lang=fr")
    row = page.locator(f'#running-games li.game-row[data-id="{turn}"]')
    expect(row.locator(".clock-kind")).to_have_text(" · par tour")
    page.goto("/?lang=en")


def test_a_rated_game_is_marked_in_the_lobby_and_on_the_table(new_page, shots):
    ada, bo = Browser(new_page), Browser(new_page)
    ada.sign_up(fresh("Rated"))
    bo_name = fresh("Rated")
    bo.sign_up(bo_name)
    made = ada.page.evaluate(
        CREATE,
        [
            {
                "game": "kingdom",
                "rated": True,
                "clock": {"kind": "turn", "per_turn": 86400},
                "seats": [{"type": "human"}, {"type": "human", "user": bo_name}],
            }
        ],
    )
    plain = ada.page.evaluate(
        CREATE, [{"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "user": bo_name}]}]
    )
    ada.page.goto("/")
    badge = ada.page.locator(f'#my-games li.game-row[data-id="{made["id"]}"] .rated-badge')
    expect(badge).to_have_text("Rated")
    expect(badge).to_have_attribute("title", "A rated game: its result moves the players' ratings")
    expect(ada.page.locator(f'#running-games li.game-row[data-id="{made["id"]}"] .rated-badge')).to_have_count(1)
    expect(ada.page.locator(f'#my-games li.game-row[data-id="{plain["id"]}"] .rated-badge')).to_have_count(0)
    shots(ada.page, "rated-row")
    bo.page.set_viewport_size(PHONE)
    bo.page.goto(f"/play/{made['id']}")
    expect(bo.page.locator("#game-title #rated-badge")).to_have_text("Rated")
    shots(bo.page, "rated-table-phone")
    bo.page.goto(f"/play/{plain['id']}")
    expect(bo.page.locator("#seat-chip")).to_have_text("you: Blue")
    expect(bo.page.locator("#rated-badge")).to_have_count(0)


def test_the_your_turn_button_counts_at_once_and_its_menu_closes(new_page, shots):
    ada, bo = Browser(new_page), Browser(new_page)
    ada.sign_up(fresh("Mover"))
    bo_name = fresh("Waiter")
    bo.sign_up(bo_name)
    bo.page.goto("/")
    button = bo.page.locator("#waiting-btn")
    expect(button).to_have_text("Your games")
    expect(button).to_have_attribute("aria-expanded", "false")
    # the menu: opened by the button, closed by Esc with the focus back on the button
    button.click()
    menu = bo.page.locator("#waiting-list")
    expect(menu).to_be_visible()
    expect(menu).to_contain_text("No game waits for you.")
    expect(button).to_have_attribute("aria-expanded", "true")
    bo.page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")
    # ... and by a click anywhere else
    button.click()
    expect(menu).to_be_visible()
    bo.page.locator("#new-game-title").click()
    expect(menu).to_be_hidden()

    made = ada.page.evaluate(
        CREATE, [{"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "user": bo_name}]}]
    )
    gid = made["id"]
    ada.page.goto(f"/play/{gid}")
    expect(ada.page.locator("#waiting-btn")).to_have_text("Your turn (1)")
    for action in ("coins 1", "coins 1", "coins 1"):
        ada.page.locator(f'#action-bar [data-action="{action}"]').click()
        ada.page.wait_for_function("() => !document.body.classList.contains('busy')")
    # Ada ends her turn in her page: Bo's button says so within two seconds, hers at once
    start = time.monotonic()
    ada.page.locator('#action-bar [data-action="end"]').click()
    expect(bo.page.locator("#waiting-btn")).to_have_text("Your turn (1)", timeout=2000)
    lag = time.monotonic() - start
    expect(ada.page.locator("#waiting-btn")).to_have_text("Your games", timeout=1500)
    print(f"'Your turn' lag on the other player's lobby: {lag:.2f} s")
    assert lag <= 2.0
    bo.page.wait_for_function("() => document.title.startsWith('(1) ')")
    # the lobby's own list of your games follows too, without waiting for its next look
    expect(bo.page.locator(f'#my-games li.game-row.your-turn[data-id="{gid}"]')).to_have_count(1, timeout=2000)
    button.click()
    link = bo.page.locator(f'#waiting-list li[data-id="{gid}"] a')
    expect(link).to_be_visible()
    shots(bo.page, "your-turn-menu")
    link.click()
    bo.page.wait_for_url(f"**/play/{gid}")
    expect(bo.page.locator("body")).to_have_class(re.compile(r"\byour-turn\b"))


def test_rated_with_no_clock_is_said_in_the_form_as_it_is_chosen(new_page, shots):
    ada = Browser(new_page)
    ada.sign_up(fresh("Former"))
    page = ada.page
    page.goto("/")
    start, reason = page.locator("#start"), page.locator("#rated-reason")
    expect(reason).to_be_hidden()
    page.locator("#rated").check()
    expect(reason).to_have_text("A rated game needs a clock: choose a live or turn-based one.")
    expect(start).to_be_disabled()
    shots(page, "rated-needs-a-clock")
    page.locator("#clock").select_option("turn:86400")
    expect(reason).to_be_hidden()
    expect(start).to_be_enabled()
    page.locator("#clock").select_option("")
    expect(start).to_be_disabled()
    page.locator("#rated").uncheck()
    expect(start).to_be_enabled()
    # the server still refuses it, with its reason
    status, detail = page.evaluate("""async () => {
        const s = await fetch('/api/session').then(r => r.json());
        const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json',
          'X-CSRF-Token': s.csrf}, body: JSON.stringify({game: 'kingdom', rated: true,
          seats: [{type: 'human'}, {type: 'human', invite: true}]})});
        return [r.status, (await r.json()).detail];
    }""")
    assert (status, detail) == (400, "a rated game needs a clock")
