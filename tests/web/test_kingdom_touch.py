"""Kingdom Builder on a touch phone says "tap", not "click", and tells of no keys: the hint under the map,
the legend, the guide of a first game. With a mouse the words stay "click" and the keys are told.
Issue: the hints and the guide said "click" (and "press E") on a touch screen."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.helpers import click_and_wait
from tests.web.test_guide import from_rules


def test_a_first_game_on_a_touch_phone_says_tap(browser, server, shots):
    context = browser.new_context(viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        gid = from_rules(page, "kingdom")
        guide = page.locator("#guide")
        page.locator("#guide-next").tap()
        page.locator("#guide-next").tap()
        expect(guide.locator("#guide-text")).to_have_text(
            "The hexes you may build on have a dark outline. Tap one to build there."
        )
        hint = page.locator("#hint").inner_text()
        assert hint.startswith("Tap a highlighted hex to build ("), hint
        shots(page, "touch-guide-build")
        # the legend: "tap", and no keys to tell of
        page.locator("#legend summary").tap()
        legend = page.locator("#legend")
        expect(legend).to_contain_text("A dark outline: you may build there now. Tap it to build.")
        expect(legend).to_contain_text("A tile you can use this turn glows; tap it to use it.")
        expect(legend).not_to_contain_text("Keys:")
        expect(legend).not_to_contain_text("click")
        page.locator("#legend summary").tap()
        for _ in range(3):
            old = page.evaluate("document.body.dataset.version")
            page.locator("#kb-map .target").first.tap()
            page.wait_for_function("old => document.body.dataset.version !== old", arg=old)
        expect(guide).to_have_attribute("data-step", "4")  # the tiles: read, then Next
        page.locator("#guide-next").tap()
        expect(guide.locator("#guide-text")).to_have_text(
            "Tap End turn. Changed your mind before that? Undo takes back one move, Restart turn all of them. "
            "The bot then plays; its moves light up one by one."
        )
        text = page.locator("body").inner_text()
        assert "click" not in text.lower() and "(E)" not in text, text
        assert page.locator(".tile-chip .key-hint").count() == 0  # no key numbers on the tiles
        shots(page, "touch-guide-end")
        # in German too
        page.goto(f"/play/{gid}?lang=de")
        expect(page.locator("#guide-text")).to_have_text(
            "Tippe auf „Zug beenden“. Vorher umentschieden? „Zurück“ nimmt einen Zug zurück, „Zug neu“ alle. "
            "Dann spielt der Bot; seine Züge leuchten nacheinander auf."
        )
        assert "klicke" not in page.locator("body").inner_text().lower()
        assert not errors, errors
    finally:
        context.close()


def test_with_a_mouse_the_words_stay_click_and_the_keys_are_told(new_page, api):
    page = new_page()
    from_rules(page, "kingdom")
    page.locator("#guide-next").click()
    page.locator("#guide-next").click()
    expect(page.locator("#guide-text")).to_contain_text("Click one (or press Tab to reach the map")
    assert page.locator("#hint").inner_text().startswith("Click a highlighted hex to build (")
    page.locator("#legend summary").click()
    expect(page.locator("#legend")).to_contain_text("Keys: arrows move between highlighted hexes")
    page.locator("#legend summary").click()
    click_and_wait(page, page.locator("#kb-map .target").first)
    assert page.locator("#hint").inner_text().startswith("Click a highlighted hex to build (")
