"""A seat handed over to a bot in the middle of a game, taken back, and a resignation, as the players and
a later viewer of the replay see them. Each move's line of the log names who made that move then: the
person before the hand-over, the bot after it, the person again after the take-back (on the person's
own page "You", and the bot's moves the bot's). The replay shows the events as log lines after the move
each followed while stepping through it, and its banner names who had the seat at each step.
Issues: the replay showed no event; the lines of moves a person made were labelled with the name of
the bot that took the seat over later."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.server.test_replay_events import create, leave, play_turn, wait_turn
from tests.server.test_api import state

BOT = "Red bot (medium)"

# each line of the log: [its move's number or its event's kind, its text]
LINES = """() => [...document.querySelectorAll('#log li')].filter((li) => li.dataset.n || li.dataset.kind)
    .map((li) => [li.dataset.kind || li.dataset.n, li.textContent])"""


def movers(page, seat: int = 0) -> dict[int, str]:
    """The first word(s) of each log line of ``seat``'s moves, by move number: who the log says made it."""
    got = page.evaluate(
        """(seat) => [...document.querySelectorAll(`#log li[data-n][data-seat="${seat}"]`)]
        .map((li) => [Number(li.dataset.n), li.textContent])""",
        seat,
    )
    return {n: text for n, text in got}


def said_by(lines: dict[int, str], who: str) -> set[int]:
    return {n for n, text in lines.items() if text.startswith(f"{who} ")}


def test_a_hand_over_in_the_middle_of_a_game_names_each_move_by_who_made_it(new_page, api, shots):
    gid, tokens = create(api)
    ann, ben = new_page(), new_page()
    ann.goto(f"/play/{gid}#seat=0&token={tokens[0]}")
    ben.goto(f"/play/{gid}#seat=1&token={tokens[1]}")
    for page in (ann, ben):
        expect(page.locator("#log")).to_contain_text("No move yet.")
    play_turn(api, gid, tokens[0], 0)
    play_turn(api, gid, tokens[1], 1)
    handed = state(api, gid, tokens[0])["actions"]
    leave(api, gid, tokens[0], "resign", {"bot": "medium"})  # Ann hands her seat over: the bot plays her turn
    took = wait_turn(api, gid, tokens[1], 1)["actions"]
    mine, bots = set(range(1, handed + 1)), set(range(handed + 1, took + 1))
    expect(ben.locator("#log li.event-line")).to_have_text(["Ann handed the seat to a bot (medium)."])
    ben.wait_for_function("n => document.querySelector(`#log li[data-n='${n}']`)", arg=took)
    lines = movers(ben)
    assert said_by(lines, "Ann") == mine & lines.keys() and mine & lines.keys(), lines
    assert said_by(lines, BOT) == bots, lines
    # the event after the last move Ann made, before the bot's first
    order = [kind for kind, _ in ben.evaluate(LINES)]
    at = order.index("handed_over")
    assert order[at - 1] == str(handed) and order[at + 1] == str(handed + 1), order
    shots(ben, "handed-over-log")
    # Ann takes her seat back on Ben's turn, and plays her next turn herself
    leave(api, gid, tokens[0], "take-back")
    play_turn(api, gid, tokens[1], 1)
    play_turn(api, gid, tokens[0], 0)
    last = state(api, gid, tokens[0])["actions"]
    ben.wait_for_function("n => document.querySelector(`#log li[data-n='${n}']`)", arg=last)
    ann.wait_for_function("n => document.querySelector(`#log li[data-n='${n}']`)", arg=last)
    lines, own = movers(ben), movers(ann)
    later = set(lines) - mine - bots
    assert later and min(later) > took + 1  # Ben's turn came between
    assert said_by(lines, "Ann") == (mine | later) & lines.keys() and said_by(lines, BOT) == bots, lines
    # on Ann's page her moves are hers ("You"), the bot's the bot's
    assert said_by(own, "You") == (mine | later) & own.keys() and said_by(own, BOT) == bots, own
    kinds = [kind for kind, _ in ann.evaluate(LINES) if not kind.isdigit()]
    assert kinds == ["handed_over", "took_back"], kinds
    shots(ann, "taken-back-log")


def test_the_replay_shows_the_events_at_their_place_and_names_who_made_each_move(new_page, api, shots):
    from tests.server.test_replay_events import hand_over_and_back

    gid, _, (handed, took, resigned) = hand_over_and_back(api)
    page = new_page()
    page.goto(f"/replay/{gid}#n={handed - 1}")
    expect(page.locator("#log li[data-n]").last).to_have_attribute("data-n", str(handed - 1))
    assert page.locator("#log li.event-line").count() == 0
    # the next step: Ben's turn ended, and then Ann handed her seat over; the bot is to move
    page.locator("#next").click()
    expect(page.locator("#log li.event-line")).to_have_text(["Ann handed the seat to a bot (medium)."])
    assert [kind for kind, _ in page.evaluate(LINES)][-2:] == [str(handed), "handed_over"]
    expect(page.locator("#turn-banner")).to_contain_text(BOT)
    shots(page, "replay-handed-over")
    # at the start Ann was to move, by her name (the seat was hers then)
    page.locator("#first").click()
    expect(page.locator("#step")).to_have_text(f"0 / {resigned}")
    expect(page.locator("#turn-banner")).to_contain_text("Ann")
    expect(page.locator("#turn-banner")).not_to_contain_text("bot")
    # at the end: all three, each after the move it followed, and every move named by who made it then
    page.locator("#last").click()
    expect(page.locator("#log li.event-line")).to_have_text(
        ["Ann handed the seat to a bot (medium).", "Ann took the seat back.", "Ben resigned."]
    )
    order = [kind for kind, _ in page.evaluate(LINES)]
    for kind, after in (("handed_over", handed), ("took_back", took), ("resigned", resigned)):
        assert order[order.index(kind) - 1] == str(after), (kind, order)
    lines = movers(page)
    bots = set(range(handed + 1, took + 1))
    assert said_by(lines, BOT) == bots and said_by(lines, "Ann") == lines.keys() - bots, lines
    shots(page, "replay-events-at-the-end")
    # in German too
    page.goto(f"/replay/{gid}?lang=de#n={took}")
    expect(page.locator("#log li.event-line")).to_have_text(
        ["Ann hat den Platz einem Bot (mittel) übergeben.", "Ann hat den Platz zurückgenommen."]
    )
    assert said_by(movers(page), "Bot Rot (mittel)") == bots
