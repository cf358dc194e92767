"""Pictures and legends of the Kingdom Builder table: locations drawn, not lettered; highlights that stand out
on every terrain (contrast ratios computed from the colours the page uses); a legend for every mark."""

from __future__ import annotations

import json
import re

from tests.web.learn import contrast, play_game
from tests.web.scripts import game_script

SOURCE = game_script("kingdom.js").read_text()
TILES = ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"]


def js_object(name: str) -> dict[str, str]:
    body = re.search(r"export const %s = \{(.*?)\};" % name, SOURCE, flags=re.S).group(1)
    return json.loads("{" + re.sub(r"(\w+):", r'"\1":', body).rstrip().rstrip(",") + "}")


def js_string(name: str) -> str:
    return re.search(r'export const %s = "(#[0-9a-f]{6})";' % name, SOURCE).group(1)


TERRAIN_FILL = js_object("TERRAIN_FILL")
TARGET_INK = js_object("TARGET_INK")
KIND_COLOUR = js_object("KIND_COLOUR")


def test_the_colours_are_read_from_the_page():
    assert set(TERRAIN_FILL) == {"G", "C", "D", "F", "T", "W", "M", "K", "L"}
    assert set(TARGET_INK) == {"build", *TILES}
    # the old outline of a Paddock target, its tile colour, was too faint on canyon
    assert round(contrast(KIND_COLOUR["paddock"], TERRAIN_FILL["C"]), 2) == 2.05


def test_every_highlight_has_3_to_1_against_every_terrain():
    inks = {**TARGET_INK, "scoring": js_string("SCORING_INK")}
    worst = {
        name: min((contrast(ink, fill), letter) for letter, fill in TERRAIN_FILL.items()) for name, ink in inks.items()
    }
    too_faint = {name: (round(ratio, 2), letter) for name, (ratio, letter) in worst.items() if ratio < 3}
    assert not too_faint, f"highlights under 3:1: {too_faint}"
    # and against the lightened inside of the highlighted hex (white at 30 % over the terrain)
    for letter, fill in TERRAIN_FILL.items():
        rgb = [int(fill[i : i + 2], 16) for i in (1, 3, 5)]
        lit = "#" + "".join(f"{round(0.7 * c + 0.3 * 255):02x}" for c in rgb)
        for name, ink in TARGET_INK.items():
            assert contrast(ink, lit) >= 3, (name, letter)


def test_locations_are_pictures_and_highlights_use_the_dark_inks(new_page, api, shots):
    page, _, _ = play_game(new_page, api, "kingdom")
    locations = page.locator("#kb-map .location")
    assert locations.count() == 4 * 2  # the first game: 4 sections with 2 location hexes each (boards.md)
    for kind, href in locations.evaluate_all(
        "els => els.map(e => [e.dataset.kind, e.querySelector('use').getAttribute('href')])"
    ):
        assert href == f"#kb-loc-{kind}"
    # no two-letter codes left on the map, and every picture exists once in the page
    assert page.locator("#kb-map .loc-mark").count() == 0
    for kind in TILES:
        assert page.locator(f"#kb-sprite #kb-loc-{kind}").count() == 1
    strokes = set(page.locator("#kb-map .target-build").evaluate_all("els => els.map(e => e.getAttribute('stroke'))"))
    assert strokes == {TARGET_INK["build"]}
    # each highlighted hex is a labelled button, in reading order
    labels = page.locator("#kb-map .target").evaluate_all(
        "els => els.map(e => [e.getAttribute('role'), e.getAttribute('tabindex'), e.getAttribute('aria-label'), +e.dataset.r, +e.dataset.c])"
    )
    assert all(
        role == "button" and tab == "0" and label.startswith("Build on ") and label.endswith("Legal.")
        for role, tab, label, _, _ in labels
    )
    assert [(r, c) for *_, r, c in labels] == sorted((r, c) for *_, r, c in labels)
    # every hex is labelled: terrain, place, what stands on it (and the tiles left on a location)
    r, c, kind = locations.first.evaluate("e => [+e.dataset.r, +e.dataset.c, e.dataset.kind]")
    assert (
        page.locator(f'#kb-map .hexes .hex[data-r="{r}"][data-c="{c}"]').get_attribute("aria-label")
        == f"{kind} {r},{c}, 2 tiles left"
    )
    target = page.locator("#kb-map .target").first
    hr, hc = target.evaluate("e => [+e.dataset.r, +e.dataset.c]")
    label_before = page.locator(f'#kb-map .hexes .hex[data-r="{hr}"][data-c="{hc}"]').get_attribute("aria-label")
    target.click()
    page.wait_for_function("() => document.querySelectorAll('#kb-map .house').length === 1")
    assert (
        page.locator(f'#kb-map .hexes .hex[data-r="{hr}"][data-c="{hc}"]').get_attribute("aria-label")
        == f"{label_before}, Red settlement"
    )
    page.locator("#legend summary").click()
    shots(page, "legend-open")


def test_the_legend_explains_every_mark(new_page, api):
    page, _, _ = play_game(new_page, api, "kingdom")
    legend = page.locator("#legend")
    legend.locator("summary").click()
    text = legend.inner_text()
    for words in (
        "you may build there",
        "tiles are left",
        "ringed house",
        "Dashed: taken this turn",
        "Struck through: already used",
        "score the card",
        "Black dashed",
    ):
        assert words in text, words
    assert legend.locator(".legend-places li").count() == 8
    assert [t.strip() for t in legend.locator(".legend-places a").all_inner_texts()] == [k.capitalize() for k in TILES]


def test_running_scoring_hexes_match_the_engine(new_page):
    """The page works out the hexes behind each running score itself (rules.md, Scoring): for random
    positions of random setups, every card and the castles, they are the engine's."""
    import random

    from builders.core.games import get_game
    from builders.kingdom.data import CARDS, map_rows

    page = new_page()
    page.goto("/static/rules.html")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    game = get_game("kingdom")
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        st = game.new_state(game.random_setup(rng.choice([2, 3, 4]), seed))
        for _ in range(rng.randrange(10, 160)):
            if st.is_over():
                break
            st.apply(rng.choice(st.legal_actions()))
        rows = list(map_rows([tuple(s) for s in st.setup["sections"]]))
        players = [{"settlements": [list(h) for h in st.settlements(q)]} for q in range(st.num_players)]
        for seat in range(st.num_players):
            for card in ("castles", *CARDS):
                mine = page.evaluate(
                    """async ([rows, players, seat, card]) => {
                  const m = await import('/static/games/kingdom/kingdom.js');
                  return m.scoringHexesNow(rows, players, seat, card);
                }""",
                    [rows, players, seat, card],
                )
                engine = sorted(list(h) for h in st.scoring_hexes(seat, card))
                if card == "citizens" and sorted(mine) != engine:
                    assert len(mine) == len(engine)  # two largest groups of one size: either may light up
                else:
                    assert sorted(mine) == engine, (seed, seat, card)
                checked += 1
    assert checked >= 6 * 2 * 11
