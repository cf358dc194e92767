"""Players, not tokens, in a real browser: two accounts in two browser contexts sign up, invite by link
and by name, claim, play turns and chat; an open seat is claimed from the lobby; one person plays two
seats on one screen with a pass-the-device screen between turns; a live clock ticks and runs out.

In friend, open-seat and pass-and-play games a scan of everything the creator's browser holds (its
localStorage, its cookies, every HTTP answer and every socket message) finds no credential and no
hidden card of another seat."""

from __future__ import annotations

import itertools
import json
import random

from playwright.sync_api import expect

from tests.server.helpers import check_hidden
from tests.web.helpers import play_kingdom_turn, wait_ready

_names = itertools.count(1)

# every answer of the page's fetch calls and every socket message, to the test (survives navigations)
RECORD = """(() => {
  const rec = (kind, text) => { try { window.__record(kind, String(text)); } catch (e) {} };
  const fetch0 = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetch0(...args);
    response.clone().text().then((t) => rec(`http ${args[0]}`, t), () => {});
    return response;
  };
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...a) { super(...a); this.addEventListener("message", (e) => rec("ws", e.data)); }
  };
})();"""


class Browser:
    """One person: a page in its own context, recording what reaches it."""

    def __init__(self, new_page):
        self.page = new_page()
        self.seen: list[tuple[str, str]] = []
        self.page.context.expose_binding("__record", lambda source, kind, text: self.seen.append((kind, text)))
        self.page.context.add_init_script(RECORD)

    def sign_up(self, name: str) -> None:
        page = self.page
        page.goto("/account")
        page.locator("#signup-name").fill(name)
        page.locator("#signup-password").fill("a good password")
        page.locator("#signup-btn").click()
        try:
            expect(page.locator("#status-text")).to_have_text(f"Signed in as {name}.", timeout=15_000)
        except AssertionError as e:  # say what the page said
            error = page.locator("#signup-error")
            raise AssertionError(
                f"signing up {name} failed: {error.inner_text() if error.is_visible() else 'no error shown'}"
            ) from e

    def cookie(self) -> str:
        return next(c["value"] for c in self.page.context.cookies() if c["name"] == "builders_session")

    def holdings(self) -> str:
        """Everything this browser holds besides the messages: localStorage and cookies."""
        storage = self.page.evaluate("JSON.stringify(Object.assign({}, localStorage))")
        return storage + json.dumps(self.page.context.cookies())


def fresh(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


def record_of(server, game_id: str) -> dict:
    service = server.app.state.service
    return service.record(service.get(game_id))


def scan(server, person: Browser, game_id: str, own_seats: set[int], secrets_of_others: list[str]) -> int:
    """No credential of another seat and no hidden card of another seat anywhere in ``person``'s
    browser; returns the number of views checked."""
    record = record_of(server, game_id)
    held = person.holdings()
    for secret in secrets_of_others:
        assert secret not in held
    views = 0
    for kind, text in person.seen:
        for secret in secrets_of_others:
            assert secret not in text, kind
        try:
            msg = json.loads(text)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        if msg.get("type") == "chat":
            continue
        for seat in msg.get("seats", []) if isinstance(msg.get("seats"), list) else []:
            if isinstance(seat, dict):
                assert seat.get("token") is None, kind
        if msg.get("id") == game_id and "view" in msg and "log" in msg:
            assert msg["seat"] is None or msg["seat"] in own_seats, (kind, msg["seat"])
            check_hidden(record, msg["seat"], text)
            views += 1
    return views


def invite_from_lobby(page, seat1: str, user: str | None = None) -> None:
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator("#seat-1").select_option(seat1)
    if user:
        page.locator("#seat-user-1").fill(user)
    page.locator("#start").click()


def test_two_accounts_invite_play_chat_and_nothing_leaks(new_page, server, shots):
    ada, bo = Browser(new_page), Browser(new_page)
    ada_name, bo_name = fresh("Ada"), fresh("Bo")
    ada.sign_up(ada_name)
    bo.sign_up(bo_name)
    shots(bo.page, "signed-up")

    # Ada invites Blue by link: the dialog holds a one-time link, no seat token
    invite_from_lobby(ada.page, "friend")
    link_input = ada.page.locator('#invite-dialog input[data-seat="1"]')
    link_input.wait_for()
    link = link_input.input_value()
    assert "#invite=" in link and "token" not in link
    shots(ada.page, "invite-link")
    ada.page.locator("#go-to-table").click()
    ada.page.wait_for_url("**/play/**")
    game_id = ada.page.url.rstrip("/").split("/")[-1]

    # Bo opens it: the seat is his, the code leaves the address
    bo.page.goto(link)
    expect(bo.page.locator("#seat-chip")).to_have_text("you: Blue")
    assert "invite" not in bo.page.url
    # the link is dead now: a third person is told so and only watches
    eve = Browser(new_page)
    eve.page.goto(link)
    expect(eve.page.locator("#invite-notice")).to_contain_text("This invitation was already used.")
    expect(eve.page.locator("#seat-chip")).to_have_text("watching")

    # they play two turns each
    rng = random.Random(5)
    players = {0: ada.page, 1: bo.page}
    for _ in range(2):
        for seat in (0, 1):
            wait_ready(players[seat])
            play_kingdom_turn(players[seat], rng, {})
    shots(ada.page, "after-turns")

    # chat: text only (an XSS attempt renders literally), in the players' channel
    attack = '<img src=x onerror="window.__xss=1">hello'
    ada.page.locator("#chat-input").fill(attack)
    ada.page.locator("#chat-send").click()
    line = bo.page.locator("#chat-log li .chat-text").last
    expect(line).to_have_text(attack)
    assert bo.page.locator("#chat-log img").count() == 0
    assert bo.page.evaluate("window.__xss") is None
    expect(bo.page.locator("#chat-log li b").last).to_have_text(f"{ada_name}: ")
    # spectators have their own channel: Eve does not see the players' chat
    assert eve.page.locator("#chat-log li").count() == 0
    too_long = "x" * 501
    bo.page.locator("#chat-input").evaluate("(el, v) => { el.removeAttribute('maxlength'); el.value = v; }", too_long)
    bo.page.locator("#chat-send").click()
    expect(bo.page.locator(".toast").last).to_contain_text("at most 500 characters")
    shots(bo.page, "chat")

    # the scan: nothing of Bo's seat in anything Ada's browser holds or received
    views = scan(server, ada, game_id, {0}, [bo.cookie()])
    assert views >= 8

    # invite by name: the game waits for Bo in his "your turn" list once Ada has played
    invite_from_lobby(ada.page, "user", bo_name)
    ada.page.wait_for_url("**/play/**")
    second = ada.page.url.rstrip("/").split("/")[-1]
    wait_ready(ada.page)
    play_kingdom_turn(ada.page, rng, {})
    bo.page.goto("/")
    expect(bo.page.locator(f'#waiting-list li[data-id="{second}"]')).to_have_count(1)
    expect(bo.page.locator("#waiting-count")).not_to_have_text("0")
    assert bo.page.title().startswith("(")
    shots(bo.page, "waiting-for-you")
    scan(server, ada, second, {0}, [bo.cookie()])


def test_an_open_seat_claimed_from_the_lobby_leaks_nothing(new_page, server, shots):
    ada, bo = Browser(new_page), Browser(new_page)
    invite_from_lobby(ada.page, "open")  # Ada plays as a guest
    ada.page.wait_for_url("**/play/**")
    game_id = ada.page.url.rstrip("/").split("/")[-1]
    bo.page.goto("/")
    join = bo.page.locator(f'#open-games li[data-id="{game_id}"] button.join')
    join.click()
    bo.page.wait_for_url(f"**/play/{game_id}")
    expect(bo.page.locator("#seat-chip")).to_have_text("you: Blue")
    rng = random.Random(8)
    for seat, page in ((0, ada.page), (1, bo.page), (0, ada.page)):
        wait_ready(page)
        play_kingdom_turn(page, rng, {})
    assert scan(server, ada, game_id, {0}, [bo.cookie()]) >= 4


def test_pass_and_play_hides_each_card_until_its_player_is_there(new_page, server, shots):
    ada = Browser(new_page)
    page = ada.page
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator('#players button[data-n="3"]').click()
    page.locator("#seat-1").select_option("you")
    page.locator("#seat-2").select_option("bot-easy")
    page.locator("#start").click()
    page.wait_for_url("**/play/**")
    game_id = page.url.rstrip("/").split("/")[-1]

    rng = random.Random(2)
    for expected in (0, 1, 0):
        screen = page.locator("#pass-screen")
        expect(screen).to_be_visible()
        expect(screen.locator("h2")).to_have_text(f"Pass the device to {['Red', 'Blue'][expected]}")
        # while the screen is up, no card of anyone is on the page
        assert page.locator(".terrain-card").count() == 0
        assert page.locator("#table").is_hidden()
        if expected == 0 and rng.random() < 2:
            shots(page, f"pass-to-{expected}")
        page.locator("#pass-ready").click()
        expect(page.locator("#seat-chip")).to_have_text(f"you: {['Red', 'Blue'][expected]}")
        wait_ready(page)
        play_kingdom_turn(page, rng, {})
    # the bot's card never reached this browser
    assert scan(server, ada, game_id, {0, 1}, []) >= 6


def test_a_live_clock_ticks_and_hands_the_seat_to_a_bot_when_it_runs_out(new_page, server, shots):
    ada = Browser(new_page)
    page = ada.page
    page.goto("/account")
    created = page.evaluate("""async () => {
        const s = await fetch('/api/session/guest', {method: 'POST'}).then(r => r.json());
        return fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf},
          body: JSON.stringify({game: 'kingdom', seats: [{type: 'human'}, {type: 'bot', level: 'easy'}],
                                clock: {kind: 'live', total: 4, bot: 'easy'}})}).then(r => r.json());
    }""")
    page.goto(f"/play/{created['id']}")
    # nobody's clock runs before the first move of the game (as on lichess)
    expect(page.locator('#clocks .clock[data-seat="0"]')).to_be_visible()
    expect(page.locator("#clocks .clock.running")).to_have_count(0)
    page.evaluate(
        """async (id) => {
        const s = await fetch('/api/session').then(r => r.json());
        const view = await fetch(`/api/games/${id}/state`).then(r => r.json());
        await fetch(`/api/games/${id}/actions`, {method: 'POST', headers: {'Content-Type': 'application/json',
          'X-CSRF-Token': s.csrf}, body: JSON.stringify({action: view.legal.find((a) => a !== 'end')})});
    }""",
        created["id"],
    )
    running = page.locator('#clocks .clock.running[data-seat="0"]')
    expect(running).to_be_visible()
    first = float(running.get_attribute("data-left"))
    page.wait_for_timeout(1200)
    later = page.locator('#clocks .clock[data-seat="0"]').get_attribute("data-left")
    assert later is not None and float(later) < first - 0.5
    shots(page, "clock-ticking")
    # the clock runs out: a bot takes the seat over and plays on
    expect(page.locator("#seat-chip")).to_contain_text("easy bot", timeout=15000)
    expect(page.locator('#clocks .clock[data-seat="0"]')).to_contain_text("out")
    shots(page, "clock-out")


def test_ratings_move_and_the_profile_shows_the_game(new_page, server, shots):
    from tests.server.test_accounts import Person
    from tests.server.test_ratings import CLOCK, play_to_end

    ada_name, bo_name = fresh("Rater"), fresh("Rater")
    ada, bo = Person(server.url), Person(server.url)
    try:
        ada.sign_up(ada_name)
        bo.sign_up(bo_name)
        created = ada.post(
            "/api/games",
            json={
                "game": "kingdom",
                "rated": True,
                "clock": CLOCK,
                "seats": [{"type": "human"}, {"type": "human", "user": bo_name}],
            },
        )
        assert created.status_code == 201, created.text
        gid = created.json()["id"]
        result = play_to_end({0: ada, 1: bo}, gid)["result"]
        profile = ada.get(f"/api/players/{ada_name}").json()
    finally:
        ada.close()
        bo.close()

    page = new_page()
    page.goto("/")
    expect(page.locator(f'#leaderboard-kingdom li[data-user="{ada_name}"]')).to_have_count(1)
    expect(page.locator(f'#leaderboard-kingdom li[data-user="{bo_name}"]')).to_have_count(1)
    page.locator(f'#leaderboard-kingdom li[data-user="{ada_name}"] a').click()
    page.wait_for_url(f"**/players/{ada_name}")
    expect(page.locator("#games-played")).to_have_text("1")
    expect(page.locator("#win-rate")).to_have_text("100%" if 0 in result["winners"] else "0%")
    # a whole number on the familiar scale, marked provisional after one rated game
    expect(page.locator('.rating[data-game="kingdom"]')).to_contain_text(f"{profile['ratings']['kingdom']['rating']}?")
    expect(page.locator(f'.rating-point[data-game-id="{gid}"]')).to_have_count(1)
    expect(page.locator(f'#profile-games li[data-id="{gid}"] a')).to_have_attribute("href", f"/replay/{gid}")
    shots(page, "profile")


def test_the_profile_names_each_game_s_favourite_cards_in_the_page_s_language(new_page, server, shots):
    """Each game's favourite cards under its title, named by the game's own web module: Kingdom Builder's
    cards, then the building Ada opened in The Builders, in French on a French page and in English on an
    English one (the server sends each card's game and id); a player with none sees a dash."""
    from tests.server.test_accounts import Person
    from tests.server.test_ratings import both_games_won
    from tests.web.test_languages import CATALOGUES

    ada_name, bo_name, cy_name = fresh("Fan"), fresh("Fan"), fresh("Fan")
    ada, bo, cy = Person(server.url), Person(server.url), Person(server.url)
    try:
        ada.sign_up(ada_name)
        bo.sign_up(bo_name)
        cy.sign_up(cy_name)
        cards, building = both_games_won(ada, bo, bo_name)
        favourites = ada.get(f"/api/players/{ada_name}").json()["favourite_cards"]
    finally:
        ada.close()
        bo.close()
        cy.close()
    # each with its game, the games in the registry's order
    assert favourites == [
        *({"game": "kingdom", "card": card} for card in cards),
        {"game": "middle-ages", "card": building},
    ]
    french = CATALOGUES["fr"]
    assert french[f"ma.card.{building}"] != CATALOGUES["en"][f"ma.card.{building}"]

    page = new_page()
    for lang in ("fr", "en"):
        words = CATALOGUES[lang]
        page.goto(f"/players/{ada_name}?lang={lang}")
        shown = page.locator("#favourite-cards .favourite-game")
        expect(shown).to_have_count(2)
        kingdom, builders = shown.nth(0), shown.nth(1)
        expect(kingdom).to_have_attribute("data-game", "kingdom")
        expect(kingdom.locator("b")).to_have_text(words["game.kingdom"])
        expect(kingdom.locator(".favourite-names")).to_have_text(", ".join(words[f"kb.card.{c}"] for c in cards))
        expect(builders).to_have_attribute("data-game", "middle-ages")
        expect(builders.locator("b")).to_have_text(words["game.middle_ages"])
        expect(builders.locator(".favourite-names")).to_have_text(words[f"ma.card.{building}"])
        shots(page, f"profile-favourites-{lang}")
    page.goto(f"/players/{cy_name}?lang=fr")
    expect(page.locator("#favourite-cards")).to_have_text("–")
    expect(page.locator("#favourite-cards .favourite-game")).to_have_count(0)


NOTIFY = """(() => {
  window.__notes = [];
  window.__beeps = 0;
  window.Notification = class {
    constructor(title, options) { window.__notes.push([title, (options || {}).body || ""]); }
    static get permission() { return "granted"; }
    static requestPermission() { return Promise.resolve("granted"); }
  };
  const Ctx = window.AudioContext;
  window.AudioContext = class extends Ctx {
    createOscillator() { window.__beeps += 1; return super.createOscillator(); }
  };
})();"""


def test_an_opt_in_alert_when_it_becomes_your_turn(new_page, server, shots):
    ada, bo = Browser(new_page), Browser(new_page)
    bo_name = fresh("Alert")
    bo.sign_up(bo_name)
    bo.page.context.add_init_script(NOTIFY)
    bo.page.goto("/")
    alerts = bo.page.locator("#notify-btn")
    expect(alerts).to_have_text("Alerts: off")
    alerts.click()
    expect(alerts).to_have_text("Alerts: on")
    expect(alerts).to_have_attribute("aria-pressed", "true")

    invite_from_lobby(ada.page, "user", bo_name)
    ada.page.wait_for_url("**/play/**")
    game_id = ada.page.url.rstrip("/").split("/")[-1]
    # nothing yet: it is Ada's turn
    bo.page.wait_for_timeout(500)
    assert bo.page.evaluate("window.__notes") == []
    wait_ready(ada.page)
    play_kingdom_turn(ada.page, random.Random(4), {})
    # within one look at the server (every 10 s), Bo is told: a notification and a sound
    bo.page.wait_for_function("() => window.__notes.length > 0", timeout=20000)
    title, body = bo.page.evaluate("window.__notes[0]")
    assert title == "Your turn" and "Kingdom Builder" in body
    assert bo.page.evaluate("window.__beeps") >= 1
    expect(bo.page.locator(f'#waiting-list li[data-id="{game_id}"]')).to_have_count(1)
    shots(bo.page, "alerted")


def test_the_account_forms_send_nothing_before_their_script_runs(browser, server):
    """A button pressed before the page's script has put its handlers on (a slow connection, a quick
    hand) does nothing: the forms' buttons are off until then, and a form would never go to the page's
    address with the password in it."""
    context = browser.new_context(base_url=server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.goto("/account")
        for button in ("#signup-btn", "#signin-btn", "#password-btn", "#token-btn"):
            assert page.locator(button).is_disabled(), button
        page.locator("#signin-name").fill("someone")
        page.locator("#signin-password").fill("a secret password")
        page.locator("#signin-password").press("Enter")  # the form's own submission, were it on
        page.wait_for_timeout(500)
        assert page.url == f"{server.url}/account"
        assert not [url for url in asked if "password" in url], asked
    finally:
        context.close()
    # with the script, the buttons are on
    page = browser.new_context(base_url=server.url).new_page()
    try:
        page.goto("/account")
        expect(page.locator("#signup-btn")).to_be_enabled()
        expect(page.locator("#signin-btn")).to_be_enabled()
    finally:
        page.context.close()
