"""Phones and keyboard (issue 45, item 10): the replay's analysis fits 375 px and a labelled move brings
the board into view; the whole map at the table keeps tap-sized hexes on a phone; The Builders' action
bar keeps to two rows and speaks of taps on a touch screen; the keyboard focus stays on a control after
a move that ends a placement."""

from __future__ import annotations

import random

from tests.web.conftest import DESKTOP, PHONE
from tests.web.helpers import CHANGED, choose_build, click_and_wait, wait_ready
from tests.web.learn import create_game, open_seat, play_game
from tests.web.test_analysis import api, finished_careless_game, server  # noqa: F401 (its small analyses)

IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight && r.left >= -1 && r.right <= innerWidth + 1; }"""
FOCUS = """() => { const a = document.activeElement;
  return a === document.body || !a ? 'body' : (a.id || a.getAttribute('class') || a.tagName); }"""


def test_the_analysis_fits_a_phone_and_a_labelled_move_brings_the_board(new_page, api, shots):  # noqa: F811
    game_id = finished_careless_game(api, "kingdom")
    assert api.post(f"/api/games/{game_id}/analysis").status_code in (200, 202)
    page = new_page(PHONE)
    page.goto(f"/replay/{game_id}")
    page.wait_for_selector("#analysis[data-status='done'] #analysis-moves", timeout=180_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # every column of the summary is on the screen, the Blunders one too
    heads = page.locator("#analysis-summary thead th")
    assert heads.last.inner_text() == "Blunders"
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#analysis-summary th, #analysis-summary td')].map(e => e.getBoundingClientRect().right))"
    )
    assert right <= 375, right
    shots(page, "analysis-phone", full_page=True)
    # a labelled move: its position, with the board on the screen (it was far below)
    move = page.locator("#analysis-moves li[data-label]").first
    n = move.get_attribute("data-n")
    assert not page.evaluate(IN_VIEW, "#kb-map")
    move.click()
    page.wait_for_function("k => document.body.dataset.step === k", arg=n)
    page.wait_for_function(IN_VIEW, arg="#kb-map")
    shots(page, "analysis-phone-board")
    # a point of the graph shows its position and leaves the graph where it is (one looks along it)
    page.locator("#wc-graph").scroll_into_view_if_needed()
    top = page.locator("#wc-graph").bounding_box()["y"]
    point = page.locator("#wc-graph circle.wc-point").nth(3)
    n = point.get_attribute("data-n")
    point.click()
    page.wait_for_function("k => document.body.dataset.step === k", arg=n)
    assert page.locator("#wc-graph").bounding_box()["y"] == top


def test_the_whole_map_keeps_tap_sized_hexes_on_a_phone(new_page, api, shots):  # noqa: F811
    page, _, _ = play_game(new_page, api, "kingdom", viewport=PHONE)
    page.locator("#zoom-btn").click()  # a phone's map opens zoomed: "Fit map" shows the whole map
    assert page.locator("#zoom-btn").get_attribute("aria-pressed") == "false"
    sizes = page.locator("#kb-map .target").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert sizes and min(w for w, _ in sizes) >= 32 and min(h for _, h in sizes) >= 32, min(sizes)
    # the page itself does not scroll sideways: the map does, centred on a playable hex
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    visible = page.evaluate("""() => { const b = document.querySelector('.map-box').getBoundingClientRect();
      return [...document.querySelectorAll('#kb-map .target')].some(e => { const r = e.getBoundingClientRect();
        return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom; }); }""")
    assert visible
    shots(page, "fit-map-phone")
    page.locator("#kb-map .target").first.click()
    page.wait_for_function("() => document.querySelectorAll('#kb-map .house').length === 1")


def bar_rows(page) -> int:
    """Rows of the action bar: its shown parts, a new row where one starts below the last row's middle."""
    boxes = page.evaluate("""() => [...document.querySelectorAll('#action-bar > *')].filter(e => e.offsetParent !== null)
      .map(e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })""")
    rows: list[tuple[float, float]] = []
    for top, bottom in sorted(boxes):
        if not rows or top >= (rows[-1][0] + rows[-1][1]) / 2:
            rows.append((top, bottom))
    return len(rows)


def test_the_builders_bar_on_a_touch_phone(browser, server, api, shots):  # noqa: F811
    context = browser.new_context(viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        game_id, token = create_game(api, "middle-ages", setup={"seed": 98})
        page.goto(f"/play/{game_id}#seat=0&token={token}")
        wait_ready(page)
        assert bar_rows(page) <= 2, bar_rows(page)
        assert "tap a worker" in page.locator("#tableau-0 h4").first.inner_text().lower()
        page.locator('#building-row button[data-action="open B01"]').tap()
        page.wait_for_selector("#my-sites .site")
        page.locator('#my-crew .ma-card[data-worker="W03"]').tap()
        hint = page.locator("#hint").inner_text()
        assert hint.startswith("Send W03: tap Send here") and "Esc" not in hint
        assert bar_rows(page) <= 2
        shots(page, "builders-touch-phone")
    finally:
        context.close()


def test_the_builders_bar_with_a_mouse_and_keys(new_page, api):  # noqa: F811
    page, _, _ = play_game(new_page, api, "middle-ages", viewport=PHONE)
    assert bar_rows(page) <= 2
    # the longer words of German and French too; Undo and Restart keep their names for screen readers
    for code in ("de", "fr"):
        game_id, token = create_game(api, "middle-ages")
        page.goto(f"/play/{game_id}?lang={code}#seat=0&token={token}")
        wait_ready(page)
        assert page.evaluate("document.documentElement.lang") == code
        assert bar_rows(page) <= 2, code
    assert page.get_by_role("button", name="Annuler", exact=True).count() == 1
    sizes = page.locator("#action-bar button, #action-bar .help-link").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })"
    )
    assert min(sizes) >= 30, sizes
    page = open_seat(new_page, *create_game(api, "middle-ages", setup={"seed": 98}), viewport=DESKTOP)
    assert bar_rows(page) == 1
    click_and_wait(page, page.locator('#building-row button[data-action="open B01"]'))
    assert "click a worker" in page.locator("#tableau-0 h4").first.inner_text().lower()
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    assert page.locator("#hint").inner_text().endswith("Esc to cancel.")


def press_and_wait(page, key: str) -> None:
    old = page.evaluate("document.body.dataset.version")
    page.keyboard.press(key)
    page.wait_for_function(CHANGED, arg=old)


def test_the_focus_stays_on_a_control_after_the_last_build(new_page, api):  # noqa: F811
    """Three builds by keyboard: after each the focus is on a hex, after the third (no hex left to
    build) on a usable tile or End turn; on the next turns, after a tile's build too."""
    rng = random.Random(3)
    game_id, token = create_game(api, "kingdom", setup={"mode": "first"})
    page = open_seat(new_page, game_id, token)
    used_tile = False
    for turn in range(6):
        wait_ready(page)
        chips = page.locator("#player-0 .my-tiles .tile-chip.usable")
        if chips.count():
            page.keyboard.press("1")
            if page.evaluate("document.activeElement.classList.contains('target-from')"):
                page.keyboard.press("Enter")
                page.wait_for_function("() => document.activeElement.classList.contains('target-tile')")
            press_and_wait(page, "Enter")
            focus = page.evaluate(FOCUS)
            assert focus != "body", f"turn {turn}: the focus fell to the page after a tile's build"
            used_tile = True
        for k in range(3):
            targets = page.locator("#kb-map .target-build")
            if not targets.count():
                break
            targets.nth(choose_build(page, rng)).focus()
            press_and_wait(page, "Enter")
            focus = page.evaluate(FOCUS)
            assert focus != "body", f"turn {turn}, build {k + 1}: the focus fell to the page"
        assert page.evaluate("() => document.activeElement.matches('#kb-map .target, .tile-chip.usable, #end-btn')"), (
            page.evaluate(FOCUS)
        )
        press_and_wait(page, "e")
        if used_tile:
            return
    raise AssertionError("no tile was used in six turns")
