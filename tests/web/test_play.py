"""Whole games in a real browser against a real server: Kingdom Builder and The Builders against a bot,
played to the end by clicking what the page highlights; the final score table checked against the
server's result."""

from __future__ import annotations

import random
import time
from urllib.parse import urlparse

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.helpers import play_builders_turn, play_kingdom_turn, play_to_end, wait_ready, number


def seat_and_auth(page, api) -> tuple[str, int, dict]:
    """The game of the page, its seat and the headers that act as the page's player (its session)."""
    game_id = urlparse(page.url).path.rstrip("/").split("/")[-1]
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "builders_session")
    headers = {"Cookie": f"builders_session={cookie}"}
    seat = api.get(f"/api/games/{game_id}/state", headers=headers).json()["seat"]
    return game_id, seat, headers


def start_from_lobby(page, game: str, seat1: str) -> None:
    page.goto("/")
    page.locator(f'.game-option[data-game="{game}"]').click()
    page.locator("#seat-1").select_option(seat1)
    page.locator("#start").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)


def test_kingdom_builder_against_a_bot(new_page, api, shots):
    page = new_page()
    page.goto("/")
    shots(page, "lobby")
    start_from_lobby(page, "kingdom", "bot-easy")
    game_id, seat, headers = seat_and_auth(page, api)
    shots(page, "first-turn")

    # the highlighted hexes are exactly the server's legal builds
    view = api.get(f"/api/games/{game_id}/state", headers=headers).json()
    assert view["to_move"] == seat
    legal = {a.split(" ")[1] for a in view["legal"] if a.startswith("build ")}
    shown = set(page.locator("#kb-map .target-build").evaluate_all("els => els.map(e => e.dataset.hex)"))
    assert shown == legal and legal
    # my terrain card is the one the server gave me
    terrain = view["view"]["players"][seat]["terrain"]
    assert page.locator("#my-card .terrain-card").get_attribute("data-terrain") == terrain

    # build, then take it back
    houses = page.locator(f'#kb-map .house[data-seat="{seat}"]')
    before = houses.count()
    first = page.locator("#kb-map .target").first
    first.click()
    page.wait_for_function(
        "n => document.querySelectorAll('#kb-map .house[data-seat=\"%d\"]').length === n" % seat, arg=before + 1
    )
    assert page.locator("#undo-btn").is_enabled()
    page.locator("#undo-btn").click()
    page.wait_for_function(
        "n => document.querySelectorAll('#kb-map .house[data-seat=\"%d\"]').length === n" % seat, arg=before
    )
    wait_ready(page)

    stats = play_to_end(page, play_kingdom_turn, random.Random(5), 40, lambda n: n == 5 and shots(page, "turn-5"))
    page.wait_for_selector("#final-scores")
    shots(page, "final-score")
    assert stats.get("builds", 0) + stats.get("tiles", 0) >= 30
    assert stats.get("tiles", 0) >= 1, "no tile was ever usable in a whole game"

    # the score table shows the server's result, card by card
    final = api.get(f"/api/games/{game_id}/state", headers=headers).json()
    result = final["result"]
    assert result is not None and final["status"] == "finished"
    for player in result["players"]:
        parts = player.get("cards") or player.get("breakdown")
        for card, gold in parts.items():
            cell = page.locator(f'#final-scores td[data-seat="{player["seat"]}"][data-card="{card}"]')
            assert number(cell.inner_text()) == gold, (player["seat"], card)
        total = page.locator(f'#final-scores td.total[data-seat="{player["seat"]}"]')
        assert number(total.inner_text()) == player["total"]
    winners = [p["seat"] for p in result["players"] if p["seat"] in result["winners"]]
    assert page.locator("#final-scores td.total.winner").count() == len(winners)

    # hovering a cell lights up the hexes that scored it
    hexes = final["scoring_hexes"][str(seat)]
    card = max(hexes, key=lambda c: len(hexes[c]))
    page.locator(f'#final-scores td[data-seat="{seat}"][data-card="{card}"]').hover()
    lit = page.locator("#kb-map .scoring-hex").evaluate_all("els => els.map(e => [+e.dataset.r, +e.dataset.c])")
    assert sorted(map(tuple, lit)) == sorted(map(tuple, hexes[card])) and lit
    shots(page, f"scoring-{card}")

    # the lobby lists the game among mine, finished, with a replay
    page.goto("/")
    row = page.locator(f'#my-games li[data-id="{game_id}"]')
    row.wait_for()
    assert "finished" in row.inner_text()
    assert row.locator('a[href^="/replay/"]').count() == 1
    shots(page, "lobby-after")


def test_builders_against_a_bot(new_page, api, shots):
    page = new_page()
    start_from_lobby(page, "middle-ages", "bot-easy")
    game_id, seat, headers = seat_and_auth(page, api)
    shots(page, "first-turn")

    # every enabled action button is legal and shows the server's price before the click
    view = api.get(f"/api/games/{game_id}/state", headers=headers).json()
    buttons = page.locator("button[data-action]:not([disabled])")
    shown = buttons.evaluate_all("els => els.map(e => e.dataset.action)")
    assert shown and set(shown) <= set(view["legal"])
    for action in shown:
        cost = (view.get("legal_costs") or {}).get(action)
        if cost:
            text = page.locator(f'button[data-action="{action}"] .price').inner_text()
            if cost["actions"] >= 0:
                assert f"{cost['actions']} action" in text
            if cost["coins"] > 0:
                assert f"{cost['coins']} coin" in text

    def at_turn(n: int) -> None:
        if n == 6:
            shots(page, "turn-6")
            shots(page, "turn-6-full", full_page=True)

    stats = play_to_end(page, play_builders_turn, random.Random(3), 80, at_turn)
    page.wait_for_selector("#final-scores")
    shots(page, "final-score")
    assert stats.get("sends", 0) > 5 and stats.get("opens", 0) > 1

    final = api.get(f"/api/games/{game_id}/state", headers=headers).json()
    result = final["result"]
    assert result is not None
    for player in result["players"]:
        for key, value in player["breakdown"].items():
            cell = page.locator(f'#final-scores td[data-seat="{player["seat"]}"][data-card="{key}"]')
            assert number(cell.inner_text()) == value, (player["seat"], key)
        total = page.locator(f'#final-scores td.total[data-seat="{player["seat"]}"]')
        assert number(total.inner_text()) == player["total"]
    assert page.locator("#turn-banner").inner_text().startswith("Game over")


def test_two_people_see_each_others_moves_but_not_their_cards(new_page, api, shots):
    alice = new_page()
    alice.goto("/")
    alice.locator("#your-name").fill("Alice")
    alice.locator("#seat-1").select_option("friend")
    alice.locator("#start").click()
    link = alice.locator('#invite-dialog input[data-seat="1"]')
    link.wait_for()
    friend_link = link.input_value()
    shots(alice, "invite-links")
    alice.locator("#go-to-table").click()
    alice.wait_for_url("**/play/**")

    bob = new_page()
    bob.goto(friend_link)
    players = {0: alice, 1: bob}
    for page in players.values():
        page.wait_for_selector("#kb-map .hex")
    game_id = seat_and_auth(alice, api)[0]
    auth = {s: seat_and_auth(p, api)[2] for s, p in players.items()}
    assert {seat_and_auth(p, api)[1] for p in players.values()} == {0, 1}

    for round_ in range(3):
        for page in players.values():
            page.wait_for_function("() => document.body.dataset.toMove !== ''")
        mover = int(alice.evaluate("document.body.dataset.toMove"))
        other = 1 - mover
        watcher = players[other]
        # the one who waits sees no terrain of the mover's hidden hand, and its own card
        for seat, page in players.items():
            view = api.get(f"/api/games/{game_id}/state", headers=auth[seat]).json()
            opponent = 1 - seat
            if opponent != view["to_move"]:
                assert view["view"]["players"][opponent]["terrain"] is None
                assert page.locator(f'.player[data-seat="{opponent}"] .their-terrain').count() == 0
            own = view["view"]["players"][seat]["terrain"]
            assert page.locator("#my-card .terrain-card").get_attribute("data-terrain") == own
        before = watcher.locator(f'#kb-map .house[data-seat="{mover}"]').count()
        wait_ready(players[mover])
        play_kingdom_turn(players[mover], random.Random(round_), {})
        # the other browser sees the new settlements without reloading
        watcher.wait_for_function(
            '([seat, n]) => document.querySelectorAll(`#kb-map .house[data-seat="${seat}"]`).length >= n',
            arg=[mover, before + 3],
        )
        assert watcher.locator("#log li[data-n]").count() >= 4 * (round_ + 1)
        if round_ == 0:
            shots(players[mover], f"after-turn-seat{mover}")
            shots(watcher, f"watcher-seat{other}")

    # a reload without the link in the address comes back to the same seat
    bob.goto(f"/play/{game_id}")
    bob.wait_for_selector("#my-card .terrain-card")
    assert "Blue" in bob.locator("#game-title").inner_text()
    shots(bob, "after-reload")


def test_open_seat_from_the_lobby_and_errors_in_words(new_page, api, shots):
    created = api.post(
        "/api/games",
        json={
            "game": "middle-ages",
            "seats": [{"type": "human", "name": "Host"}, {"type": "human", "open": True}],
        },
    ).json()
    game_id = created["id"]
    # two visitors see the open seat; the first to click gets it, the second is told why not
    first = new_page()
    late = new_page()
    for page in (first, late):
        page.goto("/")
        page.locator(f'#open-games li[data-id="{game_id}"] button.join').wait_for()
    first.locator(f'#open-games li[data-id="{game_id}"] button.join').click()
    first.wait_for_url(f"**/play/{game_id}")
    first.wait_for_selector("#tableau-1.mine")
    late.locator(f'#open-games li[data-id="{game_id}"] button.join').click()
    toast = late.locator(".toast")
    toast.wait_for()
    assert len(toast.inner_text()) > 10
    shots(late, "join-refused")

    # an action sent out of turn is refused in words
    host = new_page(PHONE)
    host.goto(created["seats"][0]["link"])
    host.wait_for_selector("#tableau-0.mine")
    shots(host, "builders-phone")
    shots(host, "builders-phone-full", full_page=True)
    summary = api.get(f"/api/games/{game_id}").json()
    idle = first if summary["to_move"] == 0 else host
    idle.evaluate("""async () => {
        const found = location.hash.match(/token=([^&]+)/);
        const headers = {'Content-Type': 'application/json'};
        if (found) headers['X-Seat-Token'] = decodeURIComponent(found[1]);
        else headers['X-CSRF-Token'] = (await fetch('/api/session').then(r => r.json())).csrf;
        window.__refused = await fetch(location.pathname.replace('/play/', '/api/games/') + '/actions', {
          method: 'POST', headers, body: JSON.stringify({action: 'coins 1'})}).then(r => r.status);
    }""")
    assert idle.evaluate("window.__refused") == 403
    # the page's own sending path shows the server's sentence
    idle.evaluate("() => document.querySelector('[data-action=\"coins 1\"]').removeAttribute('disabled')")
    idle.locator('[data-action="coins 1"]').click()
    idle.locator(".toast").wait_for()
    assert "turn" in idle.locator(".toast").first.inner_text().lower()


def finished_game(api, game: str) -> str:
    created = api.post("/api/games", json={"game": game, "seats": [{"type": "bot", "level": "easy"}] * 2}).json()
    deadline = time.monotonic() + 60
    while api.get(f"/api/games/{created['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "a game of two bots did not finish"
        time.sleep(0.2)
    return created["id"]


def test_the_replay_controls_wait_for_the_game(new_page, api):
    """Until the replay knows the game's length its controls are disabled (an End pressed before
    would have shown the start as the end); then End shows the end."""
    import re

    kb = finished_game(api, "kingdom")
    page = new_page()
    held = []
    page.route(re.compile(r"/api/games/[^/]+/replay/0$"), lambda route: held.append(route))
    page.goto(f"/replay/{kb}")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the replay did not ask for its first position"
    assert page.locator("#step").inner_text() == "…"
    for control in ("#first", "#prev", "#play", "#next", "#last", "#slider"):
        expect(page.locator(control)).to_be_disabled()
    page.keyboard.press("End")
    held[0].continue_()
    page.wait_for_function("() => document.body.dataset.step === '0'")
    assert re.fullmatch(r"0 / \d+", page.locator("#step").inner_text())
    expect(page.locator("#last")).to_be_enabled()
    page.locator("#last").click()
    expect(page.locator("#final-scores")).to_be_visible()


def test_replays(new_page, api, shots):
    kb = finished_game(api, "kingdom")
    page = new_page()
    page.goto(f"/replay/{kb}")
    # a replay starts at move 0; End shows the final position and score
    page.wait_for_function("() => document.body.dataset.step === '0'")  # position 0 drawn
    expect(page.locator("#last")).to_be_enabled()
    page.locator("#last").click()
    expect(page.locator("#final-scores")).to_be_visible(timeout=45000)
    total = number(page.locator("#step").inner_text().split("/")[1])
    assert total > 40
    shots(page, "kingdom-end")
    page.locator("#first").click()
    page.wait_for_function("() => document.body.dataset.step === '0'")  # position 0 drawn
    assert page.locator("#kb-map .house").count() == 0
    assert page.locator("#final-scores").count() == 0
    page.locator("#next").click()
    page.wait_for_function("() => document.querySelectorAll('#kb-map .house').length === 1")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelectorAll('#kb-map .house').length === 2")
    page.locator("#slider").fill(str(total // 2))
    page.wait_for_function(f"() => document.querySelector('#step').textContent.startsWith('{total // 2} /')")
    shots(page, "kingdom-middle")
    page.locator("#last").click()
    page.wait_for_selector("#final-scores")

    phone = new_page(PHONE)
    phone.goto(f"/replay/{kb}#n=30")
    phone.wait_for_function("() => document.querySelector('#step').textContent.startsWith('30 /')")
    shots(phone, "kingdom-phone")

    ma = finished_game(api, "middle-ages")
    page.goto(f"/replay/{ma}")
    page.wait_for_function("() => document.body.dataset.step === '0'")  # position 0 drawn
    page.locator("#last").click()
    page.wait_for_selector("#final-scores")
    shots(page, "builders-end")
    page.locator("#first").click()
    page.wait_for_function("() => document.body.dataset.step === '0'")  # position 0 drawn
    assert page.locator("#building-row .ma-card").count() >= 5
    assert page.locator(".tableau .site").count() == 0
