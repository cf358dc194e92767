"""Hints and the analysis board in the browser (issue 13, parts 4 and 5): the Hint button marks a legal
move on the map with its win chance; a finished game's Analyse button opens the replay with its
analysis: progress, then the win-chance graph (a point jumps the replay), the labelled moves with the
better move marked on the board, and a summary per player."""

from __future__ import annotations

import time

import httpx
import pytest

from builders.server.app import create_app
from builders.server.guard import Limits
from tests.server.helpers import ThreadServer
from tests.web.helpers import wait_ready


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The browser tests' server with small search budgets for hints and analyses."""
    db_path = tmp_path_factory.mktemp("web-analysis") / "games.sqlite3"
    limits = Limits()
    limits.rates = {**limits.rates, "create": (10_000, 60.0), "join": (10_000, 60.0), "hint": (10_000, 60.0)}
    app = create_app(f"sqlite:///{db_path}", bot_mode="thread", bot_delay=0, limits=limits, analysis_iterations=30)
    with ThreadServer(app) as srv:
        yield srv


@pytest.fixture
def api(server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def hexes_of(action: str) -> list[str]:
    parts = action.split(" ")
    return [h for h in parts[1].split(">") if "," in h] if len(parts) > 1 else []


def test_the_hint_button_marks_a_legal_move_with_its_win_chance(new_page, api, shots):
    made = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "hints": True,
            "setup": {"seed": 21},
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        },
    ).json()
    page = new_page()
    page.goto(made["seats"][0]["link"])
    wait_ready(page)
    token = {"X-Seat-Token": made["seats"][0]["token"]}
    legal = api.get(f"/api/games/{made['id']}/state", headers=token).json()["legal"]
    page.locator("#hint-btn").click()
    page.wait_for_selector("#hint-text")
    text = page.locator("#hint-text").inner_text()
    # the same position asked through the API: the same answer (kept per position)
    hint = api.post(f"/api/games/{made['id']}/hint", headers=token).json()
    assert hint["action"] in legal
    assert text.endswith(f"· win chance {round(hint['win_chance'] * 100)}%")
    # in words, as a move to make: "build on grass 13,16 next to the Tower", "use the Farm: build on ..."
    verb = hint["action"].split(" ")[0]
    start = {"build": "Hint: build on ", "end": "Hint: end your turn"}.get(verb, f"Hint: use the {verb.capitalize()}: ")
    assert text.startswith(start), text
    # the rest of the hard bot's plan for the turn, in words, on pointing at the hint
    assert hint["plan"] and hint["plan"][-1] == "end"
    title = page.locator("#hint-text").get_attribute("title")
    assert title.startswith("The hard bot's plan for the rest of this turn: ") and title.endswith(
        ", then end your turn"
    )
    assert title.count(", then ") == len(hint["plan"]) - 1
    outlined = page.locator("#kb-map polygon.hint-move:not([data-action])").evaluate_all(
        "els => els.map(e => e.dataset.hex)"
    )
    assert outlined == hexes_of(hint["action"]) and outlined
    # the map's own target for that move is marked too, and it is a legal move's
    target = page.locator("#kb-map polygon.target.hint-move")
    assert target.count() == 1 and target.get_attribute("data-action") == hint["action"]
    # the whole plan, numbered in order under the bar and on the table: the hinted build 1, the
    # plan's builds 2, 3 ... on their hexes, the end of the turn on its button
    steps = page.locator("#hint-plan .hint-step").all_inner_texts()
    assert [step.split("\n")[0] for step in steps] == [str(i + 1) for i in range(len(hint["plan"]) + 1)]
    assert steps[0].endswith(text.removeprefix("Hint: ").split(" · ")[0]) and steps[-1].endswith("end your turn")
    numbers = page.locator("#kb-map g.hint-move-label, #kb-map g.hint-next-label").evaluate_all(
        "els => els.map(e => [e.dataset.hex, e.textContent])"
    )
    expected = [(h, str(i + 1)) for i, action in enumerate([hint["action"], *hint["plan"]]) for h in hexes_of(action)]
    assert sorted(map(tuple, numbers)) == sorted(expected) and len(expected) >= 2
    end = page.locator("#end-btn.hint-next")
    assert end.get_attribute("data-step") == str(len(hint["plan"]) + 1)
    shots(page, "hint")
    # playing the hinted move: the mark goes with the position it was for
    target.click()
    page.wait_for_function("() => !document.querySelector('#hint-text')")
    assert page.locator("#kb-map .hint-move").count() == 0
    assert page.locator("#hint-plan, .hint-next, .hint-next-label, .hint-move-label, [data-step]").count() == 0


def hinted_page(new_page, api, game, wanted):
    """A game against an easy bot whose seat 0 plays the hints until a hint is ``wanted``;
    its page, with that hint shown, the hint, and ``played()``: the seat's last action once the
    page has sent one."""
    made = api.post(
        "/api/games",
        json={
            "game": game,
            "hints": True,
            "setup": {"seed": 7},
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        },
    ).json()
    gid, token = made["id"], {"X-Seat-Token": made["seats"][0]["token"]}
    for _ in range(60):
        deadline = time.monotonic() + 30
        while api.get(f"/api/games/{gid}/state", headers=token).json()["to_move"] != 0:
            assert time.monotonic() < deadline, "the bot did not play"
            time.sleep(0.05)
        hint = api.post(f"/api/games/{gid}/hint", headers=token).json()
        if wanted(hint):
            break
        api.post(f"/api/games/{gid}/actions", headers=token, json={"action": hint["action"]}).raise_for_status()
    else:
        raise AssertionError("no such move was hinted in 60 decisions")
    page = new_page()
    page.goto(made["seats"][0]["link"])
    wait_ready(page)
    version = page.evaluate("document.body.dataset.version")
    page.locator("#hint-btn").click()
    page.wait_for_selector("#hint-text")

    def played():
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        log = api.get(f"/api/games/{gid}/state", headers=token).json()["log"]
        return [e["action"] for e in log if e["seat"] == 0][-1]

    return page, hint, played


def test_a_tile_move_hint_marks_the_tile_then_its_hex(new_page, api, shots):
    """A hinted tile move (rules.md, location tiles) is two clicks: the hint marks the tile to take up
    in the player's row and the hexes; once the tile is chosen, its target on the map is marked too,
    and clicking it plays the hinted move."""
    tiles = ("oracle", "farm", "oasis", "tower", "tavern", "harbor", "paddock", "barn")
    page, hint, played = hinted_page(new_page, api, "kingdom", lambda hint: hint["action"].split(" ")[0] in tiles)
    kind = hint["action"].split(" ")[0]
    chip = page.locator(".my-tiles .tile-chip.hint-move")
    assert chip.count() == 1 and chip.get_attribute("data-kind") == kind and chip.is_enabled()
    assert page.locator("#hint-text").inner_text().startswith(f"Hint: use the {kind.capitalize()}: ")
    shots(page, "hint-tile")
    chip.click()
    hexes = hexes_of(hint["action"])
    if len(hexes) == 2:  # a settlement moved: the settlement first
        page.locator(f"#kb-map .target-from[data-hex='{hexes[0]}']").click()
    target = page.locator("#kb-map polygon.target.hint-move")
    target.wait_for()
    assert target.count() == 1 and target.get_attribute("data-action") == hint["action"]
    target.click()
    assert played() == hint["action"]


def test_a_send_hint_marks_the_worker_then_the_site(new_page, api):
    """A hinted send in The Builders is two clicks (the worker, then its site): the hint marks the
    worker and the site; once the worker is chosen, the site's send button is marked too, and
    clicking it plays the hinted move."""
    page, hint, played = hinted_page(new_page, api, "middle-ages", lambda hint: hint["action"].startswith("send "))
    _, worker, site = hint["action"].split(" ")
    card = page.locator(f"[data-worker='{worker}']")
    assert "hint-move" in card.get_attribute("class")
    card.click()
    button = page.locator(f"#my-sites button[data-action='{hint['action']}']")
    button.wait_for()
    assert "hint-move" in button.get_attribute("class")
    button.click()
    assert played() == hint["action"]


def test_the_plan_of_a_hint_is_numbered_on_the_buttons(new_page, api):
    """The Builders: a hint whose plan plays on to the end of the turn lists the plan numbered
    under the bar, and the same numbers stand on the buttons of its moves that can be clicked now
    (End turn the last)."""
    page, hint, played = hinted_page(
        new_page, api, "middle-ages", lambda hint: len(hint["plan"]) >= 2 and hint["plan"][-1] == "end"
    )
    moves = [hint["action"], *hint["plan"]]
    steps = page.locator("#hint-plan .hint-step").all_inner_texts()
    assert [step.split("\n")[0] for step in steps] == [str(i + 1) for i in range(len(moves))]
    assert steps[-1].endswith("end your turn") and page.locator(".hint-plan-after").count() == 0
    numbered = page.locator("[data-step]").evaluate_all("els => els.map(e => [e.dataset.action, e.dataset.step])")
    assert ["end", str(len(moves))] in numbered
    for action, step in numbered:
        assert moves[int(step) - 1] == action
    # the hinted move's button carries the 1 (a send's, once its worker is chosen)
    if hint["action"].startswith("send "):
        page.locator(f"[data-worker='{hint['action'].split(' ')[1]}']").click()
    button = page.locator(f"#table button[data-action='{hint['action']}']").first
    button.wait_for()
    assert button.get_attribute("data-step") == "1" and "hint-move" in button.get_attribute("class")
    button.click()
    assert played() == hint["action"]
    page.wait_for_function("() => !document.querySelector('#hint-plan')")
    assert page.locator("[data-step], .hint-next").count() == 0


def finished_careless_game(api, game: str) -> str:
    """A finished game of seat 0 playing legal moves at random (seeded) against an easy bot: a player
    who gives win chance away, so the analysis has moves to label whatever the game's id (two easy
    bots sometimes make none worth a label)."""
    import random

    made = api.post(
        "/api/games",
        json={"game": game, "setup": {"seed": 8}, "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]},
    ).json()
    gid, token = made["id"], {"X-Seat-Token": made["seats"][0]["token"]}
    rng = random.Random(8)
    deadline = time.monotonic() + 120
    while True:
        view = api.get(f"/api/games/{gid}/state", headers=token).json()
        if view["status"] == "finished":
            return gid
        assert time.monotonic() < deadline, "the game did not finish"
        if view["to_move"] == 0 and view["legal"]:
            api.post(
                f"/api/games/{gid}/actions", headers=token, json={"action": rng.choice(view["legal"])}
            ).raise_for_status()
        else:
            time.sleep(0.05)


def test_a_finished_game_opens_its_analysis_graph_and_labelled_moves(new_page, api, shots):
    game_id = finished_careless_game(api, "kingdom")
    page = new_page()
    page.goto(f"/play/{game_id}")
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    page.locator("#analyse-link").click()
    page.wait_for_url(f"**/replay/{game_id}?analyse*")
    page.wait_for_selector("#analysis[data-status='running'], #analysis[data-status='done']")
    page.wait_for_selector("#analysis[data-status='done']", timeout=180_000)
    stored = api.get(f"/api/games/{game_id}/analysis").json()["result"]
    shown = [d for d in stored["decisions"] if not d["forced"]]
    # the graph: one line per player, a point per decision that was not forced
    assert page.locator("#wc-graph polyline.wc-line").count() == 2
    assert page.locator("#wc-graph circle.wc-point").count() == len(shown)
    # the summary per player
    rows = page.locator("#analysis-summary tbody tr")
    assert rows.count() == 2
    for p in stored["players"]:
        row = page.locator(f"#analysis-summary tbody tr[data-seat='{p['seat']}']")
        mean = row.locator(".mean-loss").inner_text()
        assert mean.endswith("%") and abs(float(mean[:-1]) - p["mean_loss"] * 100) <= 0.051
        assert row.locator(".count-blunder").inner_text() == str(p["counts"]["blunder"])
    labelled = [d for d in stored["decisions"] if d["label"]]
    assert labelled, "the analysis labelled no move"
    assert page.locator("#analysis-moves li[data-label]").count() == len(labelled)
    shots(page, "analysis", full_page=True)
    # a point of the graph jumps the replay to that position
    point = shown[len(shown) // 2]
    page.locator(f"#wc-graph circle.wc-point[data-n='{point['index']}']").click()
    page.wait_for_function("k => document.body.dataset.step === String(k)", arg=point["index"])
    # ... and a click anywhere on the graph the decision nearest to it (here, at the top edge
    # straight above another point: the points of a long game are a few pixels apart)
    other = shown[len(shown) // 3]
    dot = page.locator(f"#wc-graph circle.wc-point[data-n='{other['index']}']").bounding_box()
    graph = page.locator("#wc-graph").bounding_box()
    page.mouse.click(dot["x"] + dot["width"] / 2, graph["y"] + 2)
    page.wait_for_function("k => document.body.dataset.step === String(k)", arg=other["index"])
    # every point takes its click at its centre: no larger labelled point lies over a neighbour
    page.locator("#wc-graph").scroll_into_view_if_needed()
    for d in shown:
        hit = page.evaluate(
            """n => { const c = document.querySelector(`#wc-graph circle.wc-point[data-n='${n}']`);
            const r = c.getBoundingClientRect(); const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return e && e.dataset ? e.dataset.n : null; }""",
            d["index"],
        )
        assert hit == str(d["index"]), (d["index"], hit)
    # a labelled move: its position, and the better move drawn on the map
    with_hexes = [d for d in labelled if hexes_of(d["best"])] or labelled
    d = with_hexes[0]
    page.locator(f"#analysis-moves li[data-n='{d['index']}']").click()
    page.wait_for_function("k => document.body.dataset.step === String(k)", arg=d["index"])
    assert "better:" in page.locator("#analysis-note").inner_text()
    if hexes_of(d["best"]):
        page.wait_for_selector("#kb-map polygon.better-move")
        marked = page.locator("#kb-map polygon.better-move").evaluate_all("els => els.map(e => e.dataset.hex)")
        assert marked == hexes_of(d["best"])
    shots(page, "better-move")
    # anyone opening the replay later sees the stored analysis at once
    other = new_page()
    other.goto(f"/replay/{game_id}")
    other.wait_for_selector("#analysis[data-status='done'] #wc-graph")


def test_the_builders_analysis_tells_the_moves_in_words(new_page, api):
    """The Builders' labelled moves are told as moves made, with the cards' names ("sent master W42
    to The Watermill (B20)"), never in notation: also when the analysis is shown before the game's
    table has come (its script held back here)."""
    import re

    game_id = finished_careless_game(api, "middle-ages")
    assert api.post(f"/api/games/{game_id}/analysis").status_code == 202
    deadline = time.monotonic() + 180
    while api.get(f"/api/games/{game_id}/analysis").json()["status"] != "done":
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.2)
    page = new_page()

    def late(route):
        time.sleep(1.5)  # the stored analysis is on the page before the table's script runs
        route.continue_()

    page.route("**/middle_ages.js", late)
    page.goto(f"/replay/{game_id}")
    page.wait_for_selector("#analysis[data-status='done'] #analysis-moves", timeout=180_000)
    page.wait_for_function("() => document.body.dataset.game === 'middle-ages'")  # the table has come
    stored = api.get(f"/api/games/{game_id}/analysis").json()["result"]
    labelled = [d for d in stored["decisions"] if d["label"]]
    assert labelled
    words = {
        "open": "opened ",
        "recruit": "recruited ",
        "send": "sent ",
        "coins": "took ",
        "buy": "bought an action",
        "end": "ended the turn",
    }
    for d in labelled:
        better = page.locator(f"#analysis-moves li[data-n='{d['index']}'] .better").inner_text()
        assert better.startswith(words[d["best"].split(" ")[0]]), better
        if d["best"].startswith("send "):
            worker, site = d["best"].split(" ")[1:]
            assert f" {worker} to " in better and f"({site})" in better or site in better, better
        line = page.locator(f"#analysis-moves li[data-n='{d['index']}']").inner_text()
        assert not re.search(r"\b(open|recruit|send|coins) [BWM0-9]", line), line


def test_the_builders_hint_marks_the_move_on_the_table(new_page, api, shots):
    made = api.post(
        "/api/games",
        json={
            "game": "middle-ages",
            "hints": True,
            "setup": {"seed": 5},
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        },
    ).json()
    page = new_page()
    page.goto(made["seats"][0]["link"])
    wait_ready(page)
    token = {"X-Seat-Token": made["seats"][0]["token"]}
    legal = api.get(f"/api/games/{made['id']}/state", headers=token).json()["legal"]
    page.locator("#hint-btn").click()
    page.wait_for_selector("#hint-text")
    hint = api.post(f"/api/games/{made['id']}/hint", headers=token).json()
    assert hint["action"] in legal
    text = page.locator("#hint-text").inner_text()
    assert text.endswith(f"· win chance {round(hint['win_chance'] * 100)}%")
    # in words, as a move to make, with the cards' names: "open The Wooden Shack (B02)", "take 3 coins for 2 actions"
    words = hint["action"].split(" ")
    start = {
        "open": "Hint: open ",
        "recruit": "Hint: recruit ",
        "send": "Hint: send ",
        "end": "Hint: end your turn",
        "buy": "Hint: buy an action for 5 coins",
    }.get(words[0])
    if words[0] == "coins":
        start = {
            "1": "Hint: take 1 coin for 1 action",
            "2": "Hint: take 3 coins for 2 actions",
            "3": "Hint: take 6 coins for 3 actions",
        }[words[1]]
    assert start and text.startswith(start), text
    for card in words[1:]:
        if card[:1] == "B":
            assert f"({card})" in text, text
    marked = page.locator("#table .hint-move").evaluate_all(
        "els => els.map(e => ({action: e.getAttribute('data-action'), card: e.getAttribute('data-card')}))"
    )
    assert marked, "the hinted move is not marked on the table"
    cards = [w for w in hint["action"].split(" ") if w[:1] in "BWM" and w[1:].isdigit()]
    for m in marked:
        assert m["action"] == hint["action"] or m["card"] in cards, m
    # opening a site or recruiting brings a hidden card into a row: the plan stops there, and pointing
    # at the hint says so
    title = page.locator("#hint-text").get_attribute("title")
    if hint["plan"] and hint["plan"][-1] == "end":
        assert title.startswith("The hard bot's plan for the rest of this turn: "), title
    elif hint["plan"]:
        assert title.startswith("The hard bot's plan for this turn: ") and title.endswith(
            ", then it plans the rest of the turn again with the card drawn"
        ), title
    else:
        assert words[0] in ("open", "recruit")
        assert title == "After this move the hard bot plans the rest of the turn again, with the card drawn"
    shots(page, "hint-the-builders")


def test_hints_chosen_in_the_lobby_give_the_table_a_hint_button(new_page, api):
    page = new_page()
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator("#seat-1").select_option("bot-easy")
    page.locator("#hints").check()
    page.locator("#start").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)
    game_id = page.url.rstrip("/").split("/")[-1]
    assert api.get(f"/api/games/{game_id}").json()["hints"] is True
    page.locator("#hint-btn").click()
    page.wait_for_selector("#hint-text")
    assert "win chance" in page.locator("#hint-text").inner_text()
    # a game made without the box ticked has no Hint button
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator("#seat-1").select_option("bot-easy")
    page.locator("#start").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)
    assert page.locator("#hint-btn").count() == 0
