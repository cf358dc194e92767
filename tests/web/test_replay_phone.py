"""Replays (from move 0, led by the address, each step's change marked, speeds, The Builders' rows and
decks) and phones (40-pixel tap targets in the zoomed map, centred on the legal hexes, names not cut)."""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import PHONE
from tests.web.learn import play_game

STEP = "() => document.querySelector('#step').textContent"


def finished(api, game: str) -> str:
    made = api.post("/api/games", json={"game": game, "seats": [{"type": "bot", "level": "easy"}] * 2}).json()
    deadline = time.monotonic() + 90
    while api.get(f"/api/games/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "a game of two bots did not finish"
        time.sleep(0.2)
    return made["id"]


@pytest.fixture(scope="module")
def kb_game(server):
    import httpx

    with httpx.Client(base_url=server.url, timeout=20) as client:
        return finished(client, "kingdom")


def at_step(page, k: int) -> None:
    """Until step k is drawn (the counter moves first, the table once the step's view is there)."""
    page.wait_for_function(f"k => ({STEP})().startsWith(k + ' /') && document.body.dataset.step === String(k)", arg=k)


def test_replay_starts_at_zero_and_follows_the_address(new_page, api, kb_game, shots):
    page = new_page()
    page.goto(f"/replay/{kb_game}")
    at_step(page, 0)
    assert page.locator("#step-text").inner_text() == "Start of the game"
    assert page.locator("#kb-map .house").count() == 0
    log = api.get(f"/api/games/{kb_game}/replay/1").json()["log"]
    first = log[0]["action"].split(" ")[1]
    # the address leads: a new "#n=" shows that step
    page.evaluate("() => { location.hash = '#n=1'; }")
    at_step(page, 1)
    assert page.locator("#kb-map .changed-hex").evaluate_all("els => els.map(e => e.dataset.hex)") == [first]
    full = api.get(f"/api/games/{kb_game}/replay/30").json()
    page.evaluate("() => { location.hash = '#n=30'; }")
    at_step(page, 30)
    entry = full["log"][29]
    marked = page.locator("#kb-map .changed-hex").evaluate_all("els => els.map(e => e.dataset.hex)")
    if entry["action"] == "end":
        assert marked == []
    else:
        assert marked == [entry["action"].split(" ")[1].split(">")[-1]] or marked == entry["action"].split(" ")[
            1
        ].split(">")
    assert page.locator("#log li.current").get_attribute("data-n") == "30"
    shots(page, "replay-step-30")
    # moving on rewrites the address, and the browser's history goes back through it
    page.locator("#next").click()
    at_step(page, 31)
    assert page.url.endswith("#n=31")
    # a click on a log line goes to its step
    page.locator('#log li[data-n="5"]').click()
    at_step(page, 5)


def test_replay_speeds(new_page, kb_game):
    page = new_page()
    page.goto(f"/replay/{kb_game}#n=3")
    at_step(page, 3)
    assert page.locator("#speed option").evaluate_all("els => els.map(e => e.value)") == ["0.5", "1", "2", "4"]
    page.locator("#speed").select_option("4")
    page.locator("#play").click()
    assert page.evaluate("() => document.body.dataset.stepMs") == "225"
    page.wait_for_function(f"() => parseInt(({STEP})()) >= 6")
    page.locator("#speed").select_option("0.5")
    assert page.evaluate("() => document.body.dataset.stepMs") == "1800"
    page.locator("#play").click()  # pause
    assert page.locator("#play").inner_text() == "Play"


def test_builders_replay_counts_rows_and_decks(new_page, api, shots):
    ma = finished(api, "middle-ages")
    page = new_page()
    page.goto(f"/replay/{ma}#n=10")
    at_step(page, 10)
    view = api.get(f"/api/games/{ma}/replay/10").json()["view"]
    deck = len(view["building_deck"])
    assert page.locator("#building-deck .deck-count").inner_text() == f"Deck: {deck} card{'' if deck == 1 else 's'}"
    workers = len(view["worker_deck"])
    assert page.locator("#worker-deck .deck-count").inner_text() == f"Deck: {workers} card{'' if workers == 1 else 's'}"
    assert (
        page.locator("#building-panel h3")
        .inner_text()
        .startswith(f"Buildings and machines ({len(view['building_row'])} in the row)")
    )
    assert (
        page.locator("#worker-panel h3")
        .inner_text()
        .startswith(f"Workers for hire ({len(view['worker_row'])} in the row)")
    )
    # the cards the step's action names are marked
    action = api.get(f"/api/games/{ma}/replay/10").json()["log"][9]["action"]
    ids = [w for w in action.split(" ")[1:] if w[:1] in "BWM"]
    marked = page.locator(".changed").evaluate_all("els => els.map(e => e.dataset.card)")
    for card in ids:
        if page.locator(f'[data-card="{card}"]').count():
            assert card in marked, (action, marked)
    shots(page, "builders-replay")


def test_phone_map_zoomed_on_the_legal_hexes_with_big_targets(new_page, api, shots):
    page, _, _ = play_game(new_page, api, "kingdom", viewport=PHONE)
    assert "zoomed" in page.locator(".map-box").get_attribute("class")
    # the targets are laid out (the page may mark the turn a frame before the zoomed map is drawn)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#kb-map .target')].some(e => e.getBoundingClientRect().width > 0)"
    )
    sizes = page.locator("#kb-map .target").evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
    assert sizes and min(sizes) >= 40, min(sizes)
    # the legal hexes are in the middle of what the map shows
    box = page.locator(".map-box").bounding_box()
    centre = page.evaluate("""() => {
      const rs = [...document.querySelectorAll('#kb-map .target')].map(e => e.getBoundingClientRect());
      const x = (Math.min(...rs.map(r => r.left)) + Math.max(...rs.map(r => r.right))) / 2;
      const y = (Math.min(...rs.map(r => r.top)) + Math.max(...rs.map(r => r.bottom))) / 2;
      return [x, y];
    }""")
    assert box["x"] <= centre[0] <= box["x"] + box["width"], (centre, box)
    assert box["y"] <= centre[1] <= box["y"] + box["height"], (centre, box)
    visible = page.evaluate("""() => { const b = document.querySelector('.map-box').getBoundingClientRect();
      return [...document.querySelectorAll('#kb-map .target')].some(e => { const r = e.getBoundingClientRect();
        return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom; }); }""")
    assert visible, "no legal hex is inside the zoomed map's view"
    shots(page, "phone-zoomed")
    # a tap builds
    page.locator("#kb-map .target").first.click()
    page.wait_for_function("() => document.querySelectorAll('#kb-map .house').length === 1")


def test_phone_names_are_not_cut(new_page, api, shots):
    page, _, _ = play_game(new_page, api, "middle-ages", viewport=PHONE)
    cut = page.evaluate("""() => [...document.querySelectorAll('.ma-name, .player-name, .tableau-head')]
      .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
    assert cut == [], cut
    # the longest names of the game wrap instead ("The Wash House", "The Covered Market")
    shots(page, "phone-names", full_page=True)
