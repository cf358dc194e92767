"""The first-game walkthrough: started from the rules page, against an easy bot on the recommended first
setup, with a hint per step that follows what the player does; skippable and replayable."""

from __future__ import annotations

from tests.web.conftest import PHONE
from tests.web.helpers import click_and_wait, send_and_wait, wait_ready

GUIDE_TITLE = "() => (document.querySelector('#guide-title') || {}).textContent"


def title(page) -> str:
    return page.locator("#guide-title").inner_text()


def wait_title(page, text: str) -> None:
    """Wait for the guide's step titled ``text`` (up to 30 s: a loaded machine once took more than
    15 s to show it after a move); fail saying which step is shown instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"t => ({GUIDE_TITLE})() === t", arg=text, timeout=30_000)
    except PlaywrightTimeout:
        shown = page.evaluate(f"({GUIDE_TITLE})()")
        raise AssertionError(f"the guide shows {shown!r}, not {text!r}") from None


def start(new_page, game: str, viewport=None):
    page = new_page(viewport) if viewport else new_page()
    # from the lobby: "How to play" opens the rules, which start a guided game
    page.goto("/")
    page.locator("#learn-link").click()
    page.wait_for_url("**/static/rules.html")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.locator(f"#guide-{game}").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)
    return page


def test_kingdom_builder_walkthrough_to_the_end(new_page, api, shots):
    page = start(new_page, "kingdom")
    game_id = page.url.split("/play/")[1].split("#")[0]
    # a first game is private: seen by its player's browser, a "no such game" to anyone else
    assert api.get(f"/api/games/{game_id}").status_code == 404
    summary = page.evaluate("id => fetch(`/api/games/${id}`).then(r => r.json())", game_id)
    assert summary["private"] is True
    # the recommended first game against an easy bot (rules.md, Components and setup)
    assert [s["type"] for s in summary["seats"]] == ["human", "bot"]
    assert summary["seats"][1]["level"] == "easy"
    assert page.locator("#kb-map .location").evaluate_all(
        "els => [...new Set(els.map(e => e.dataset.kind))].sort()"
    ) == ["farm", "oasis", "paddock", "tavern"]
    assert title(page) == "Welcome to Kingdom Builder"
    assert page.locator("#guide .guide-step").inner_text() == "Guide · step 1 of 8"
    shots(page, "guide-welcome")
    page.locator("#guide-next").click()
    assert title(page) == "Your terrain card"
    terrain = page.locator("#my-card .terrain-card").get_attribute("data-terrain")
    assert ({"flower": "flower field"}.get(terrain, terrain)) in page.locator("#guide-text").inner_text()
    assert "guide-point" in page.locator("#my-card").get_attribute("class")
    page.locator("#guide-next").click()
    assert title(page) == "Build"
    # the hints follow the table: one build, then the adjacency hint, then two more builds
    click_and_wait(page, page.locator("#kb-map .target").first)
    wait_title(page, "Next to your own")
    shots(page, "guide-adjacency")
    for _ in range(2):
        click_and_wait(page, page.locator("#kb-map .target").first)
    wait_title(page, "Location tiles")
    page.locator("#guide-next").click()
    assert title(page) == "End the turn"
    click_and_wait(page, page.locator("#end-btn"))
    wait_ready(page)
    wait_title(page, "Use a tile")
    shots(page, "guide-second-turn")
    usable = page.locator(".tile-chip.usable")
    if usable.count():
        usable.first.click()
        froms = page.locator("#kb-map .target-from")
        if froms.count():
            froms.first.click()
        click_and_wait(page, page.locator("#kb-map .target-tile").first)
    else:
        for _ in range(3):
            click_and_wait(page, page.locator("#kb-map .target").first)
    wait_title(page, "Read the score")
    assert page.locator("#guide .guide-step").inner_text() == "Guide · step 8 of 8"
    page.locator("#guide-next").click()  # Finish
    assert page.locator("#guide").count() == 0
    # replayable from the top bar, and skippable for good
    page.locator("#guide-btn").click()
    assert title(page) == "Welcome to Kingdom Builder"
    page.locator("#guide-skip").click()
    assert page.locator("#guide").count() == 0
    page.reload()
    wait_ready(page)
    assert page.locator("#guide").count() == 0


def test_builders_walkthrough_on_a_phone(new_page, shots):
    page = start(new_page, "middle-ages", PHONE)
    assert title(page) == "Welcome to The Builders"
    assert page.locator("#guide .guide-step").inner_text() == "Guide · step 1 of 5"
    shots(page, "guide-welcome-phone")
    page.locator("#guide-next").click()
    assert title(page) == "Open a site"
    click_and_wait(page, page.locator('#building-row button[data-action^="open"]').first)
    wait_title(page, "Send a worker")
    page.locator("#my-crew .ma-card.sendable").first.click()
    send_and_wait(page, page.locator("#my-sites button.send").first)
    wait_title(page, "Recruit and take coins")
    shots(page, "guide-send-phone")
    while page.evaluate("() => document.body.classList.contains('your-turn')"):
        end = page.locator('#action-bar [data-action="end"]')
        if end.is_enabled():
            click_and_wait(page, end)
            break
        click_and_wait(page, page.locator('#action-bar [data-action="coins 1"]'))
    wait_title(page, "Read the score")
    page.locator("#guide-next").click()
    assert page.locator("#guide").count() == 0


def test_the_guide_folds_out_of_the_way(new_page, shots):
    from tests.web.conftest import PHONE as phone

    page = start(new_page, "kingdom", phone)
    text = page.locator("#guide-text")
    assert text.is_visible()
    page.locator("#guide-fold").click()
    assert not text.is_visible() and page.locator("#guide-title").is_visible()
    assert page.locator("#guide-fold").get_attribute("aria-expanded") == "false"
    shots(page, "guide-folded-phone")
    # folded it stays, step after step, until shown again
    page.reload()
    wait_ready(page)
    assert not page.locator("#guide-text").is_visible()
    page.locator("#guide-fold").click()
    assert page.locator("#guide-text").is_visible()


def test_the_guide_moves_on_when_the_first_worker_finishes_the_building(new_page, api):
    """A worker that brings all a site needs completes it at once and comes back (rules.md, "Send a
    worker"): no site holds a worker then, and the guide must still see the worker sent. With seed 98
    the first seat's W03 finishes B01 alone."""
    from tests.web.learn import create_game

    game_id, token = create_game(api, "middle-ages", setup={"seed": 98})
    page = new_page(PHONE)
    page.goto(f"/play/{game_id}#seat=0&token={token}")
    page.evaluate(
        "id => localStorage.setItem('builders.guide', JSON.stringify({[id]: {step: 0, on: true, first: true}}))",
        game_id,
    )
    page.reload()
    wait_ready(page)
    assert title(page) == "Welcome to The Builders"
    page.locator("#guide-next").click()
    click_and_wait(page, page.locator('#building-row button[data-action="open B01"]'))
    wait_title(page, "Send a worker")
    page.locator('#my-crew .ma-card[data-worker="W03"]').click()
    click_and_wait(page, page.locator('#my-sites button[data-action="send W03 B01"]'))
    assert page.locator("#my-sites .site").count() == 0
    wait_title(page, "Recruit and take coins")
