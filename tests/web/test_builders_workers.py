"""The Builders' workers at the table (issue 45, item 9): a worker that cannot be sent now says why in a
live status line; sending a worker that brings nothing the site still needs asks first (it is legal: a
warning, not a refusal); the Open and Recruit buttons name their card.

Seed 4: the first seat's crew is apprentice W03 (stone and tile, 2 coins) and The Wooden Shack (B02,
wood and knowledge) is in the building row."""

from __future__ import annotations

from tests.web.helpers import click_and_wait
from tests.web.learn import create_game, open_seat, state

STATUS = "#ma-status"


def status(page) -> str:
    return page.locator(STATUS).inner_text().strip()


def test_a_worker_that_cannot_be_sent_says_why(new_page, api, shots):
    game_id, token = create_game(api, "middle-ages", setup={"seed": 4})
    page = open_seat(new_page, game_id, token)
    view = state(api, game_id, token)["view"]
    assert view["players"][0]["crew"] == ["W03"] and "B02" in view["building_row"]
    region = page.locator(STATUS)
    assert region.get_attribute("aria-live") == "polite" and region.get_attribute("role") == "status"
    assert not region.is_visible()

    # no site yet (rules.md, "Send a worker": to one of your own open sites)
    worker = page.locator('#my-crew .ma-card[data-worker="W03"]')
    assert worker.get_attribute("aria-label").endswith("It cannot be sent now: choose it to see why.")
    assert "sendable" not in worker.get_attribute("class") and worker.get_attribute("aria-pressed") is None
    version = page.evaluate("document.body.dataset.version")
    worker.click()
    assert status(page) == "Open a site first: a worker is sent to one of your own sites (Open, under a building)."
    assert page.evaluate("document.body.dataset.version") == version
    shots(page, "why-no-site")

    # the dearest worker of the row, the Wooden Shack, then every coin spent on actions
    costs = {
        w: int(page.locator(f'#worker-row .ma-card[data-card="{w}"] .coin.cost').inner_text())
        for w in view["worker_row"]
    }
    dearest = max(view["worker_row"], key=costs.get)
    cost = costs[dearest]
    assert cost >= 3
    click_and_wait(page, page.locator(f'#worker-row button[data-action="recruit {dearest}"]'))
    assert status(page) == "" and not region.is_visible()  # a new position drops the reason
    click_and_wait(page, page.locator('#building-row button[data-action="open B02"]'))
    for _ in range(2):
        click_and_wait(page, page.locator('#action-bar [data-action="buy"]'))
    me = state(api, game_id, token)["view"]
    assert me["players"][0]["coins"] == 0 and me["actions_left"] == 3
    page.locator(f'#my-crew .ma-card[data-worker="{dearest}"]').click()
    assert status(page) == f"Not enough coins: this worker costs {cost} coins; you have 0 coins."
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    assert status(page) == "Not enough coins: this worker costs 2 coins; you have 0 coins."

    # 6 coins for the 3 actions: none left (one can still be bought)
    click_and_wait(page, page.locator('#action-bar [data-action="coins 3"]'))
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    assert status(page) == "Not enough actions left: you have none. Buy one for 5 coins, or end your turn."
    shots(page, "why-no-action")

    # by keyboard too: Enter on the worker says it
    click_and_wait(page, page.locator('#action-bar [data-action="buy"]'))
    page.locator(f'#my-crew .ma-card[data-worker="{dearest}"]').focus()
    page.keyboard.press("Enter")
    assert status(page) == f"Not enough coins: this worker costs {cost} coins; you have 1 coin."

    # the last action for 1 coin: 2 coins, no action, none to buy
    click_and_wait(page, page.locator('#action-bar [data-action="coins 1"]'))
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    assert status(page) == "Not enough actions left: you have none. End your turn."


def test_a_worker_that_brings_nothing_needed_is_sent_after_a_warning(new_page, api, shots):
    """W03 brings stone and tile, The Wooden Shack needs wood and knowledge: sending it there is legal
    but helps nothing, so the page asks first. Then (rules.md, "Send a worker") a second worker on the
    same site in that turn costs 2 actions, more than the one left."""
    game_id, token = create_game(api, "middle-ages", setup={"seed": 4})
    page = open_seat(new_page, game_id, token)
    region = page.locator(STATUS)
    row = state(api, game_id, token)["view"]["worker_row"]
    cheap = min(row, key=lambda w: int(w[1:]))
    click_and_wait(page, page.locator(f'#worker-row button[data-action="recruit {cheap}"]'))
    click_and_wait(page, page.locator('#building-row button[data-action="open B02"]'))
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    assert "sendable" in page.locator('#my-crew .ma-card[data-worker="W03"]').get_attribute("class")
    send = page.locator('#my-sites button[data-action="send W03 B02"]')
    assert send.get_attribute("aria-label") == "Send W03 here (brings nothing it needs): 1 action · 2 coins"
    assert page.locator("#my-sites .send-warn").inner_text() == "brings nothing it needs"
    version = page.evaluate("document.body.dataset.version")
    send.click()
    assert status(page) == (
        "apprentice W03 brings no wood or knowledge that The Wooden Shack (B02) needs: send anyway? Send anyway Cancel"
    )
    assert "warning" in region.get_attribute("class")
    assert page.evaluate("document.activeElement.id") == "send-anyway"
    assert page.evaluate("document.body.dataset.version") == version
    assert state(api, game_id, token)["log"][-1]["action"] == "open B02"
    shots(page, "warn-useless-send")
    # Cancel sends nothing; asked again, Send anyway sends it
    page.locator("#send-cancel").click()
    assert not region.is_visible()
    assert state(api, game_id, token)["log"][-1]["action"] == "open B02"
    page.locator('#my-sites button[data-action="send W03 B02"]').click()
    click_and_wait(page, page.locator("#send-anyway"))
    after = state(api, game_id, token)
    assert after["log"][-1]["action"] == "send W03 B02"
    assert after["view"]["players"][0]["sites"][0]["workers"] == ["W03"]
    assert not region.is_visible()
    # the second worker on the Shack this turn: 2 actions, and 1 bought (8 coins - 5)
    click_and_wait(page, page.locator('#action-bar [data-action="buy"]'))
    assert int(page.locator(f'#my-crew .ma-card[data-worker="{cheap}"] .coin.cost').inner_text()) <= 3
    page.locator(f'#my-crew .ma-card[data-worker="{cheap}"]').click()
    assert status(page) == (
        "Not enough actions left: one more worker on any of your sites this turn costs 2 actions; you have 1 action."
    )


def test_a_useful_worker_is_sent_at_once(new_page, api):
    """No question where the worker brings something the site still needs (seed 98: W03 finishes The
    Bower, B01, alone)."""
    game_id, token = create_game(api, "middle-ages", setup={"seed": 98})
    page = open_seat(new_page, game_id, token)
    click_and_wait(page, page.locator('#building-row button[data-action="open B01"]'))
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    send = page.locator('#my-sites button[data-action="send W03 B01"]')
    assert "brings nothing" not in send.get_attribute("aria-label")
    click_and_wait(page, send)
    assert state(api, game_id, token)["log"][-1]["action"] == "send W03 B01"
    assert page.locator("#send-anyway").count() == 0


def test_open_and_recruit_buttons_name_their_card(new_page, api):
    game_id, token = create_game(api, "middle-ages", setup={"seed": 4})
    page = open_seat(new_page, game_id, token)
    view = state(api, game_id, token)["view"]
    names = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#building-row .ma-card')]
      .map(c => [c.dataset.card, c.querySelector('.ma-name').textContent]))""")
    opens = page.locator('#building-row button[data-action^="open"]')
    labels = opens.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels == [f"Open {names[c]} ({c}): 1 action" for c in view["building_row"]]
    assert len(set(labels)) == 5
    # the name a screen reader reads is the card's: found by its role and name
    assert page.get_by_role("button", name="Open The Wooden Shack (B02): 1 action").count() == 1
    recruits = page.locator('#worker-row button[data-action^="recruit"]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(set(recruits)) == 5
    for label, card in zip(recruits, view["worker_row"]):
        assert label.startswith("Recruit ") and label.endswith(f" {card}: 1 action"), label
