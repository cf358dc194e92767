"""A first game (from the guide) is the person's, not the browser's: one of each game at a time per
account (a guest's too), found again from any browser of the account, private, with one seat of theirs
and bots. Issue: a first game was kept in one browser's storage, so a second browser made another."""

from __future__ import annotations

FIRST = {
    "game": "kingdom",
    "private": True,
    "first_game": True,
    "setup": {"mode": "first"},
    "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
}


def refused(r, status: int, detail: str) -> None:
    assert (r.status_code, r.json()["detail"]) == (status, detail), r.text


def second_browser(people, server, name: str):
    """Another browser of the account ``name`` (signed in there too)."""
    other = people()
    r = other.post("/api/session", json={"username": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    return other


def test_a_first_game_is_found_again_from_another_browser_and_not_made_twice(people, server):
    ada = people("firstada")
    assert ada.get("/api/account/first-game/kingdom").json() == {"id": None}
    made = ada.post("/api/games", json=FIRST)
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert made.json()["seats"][0].get("token") is None  # the account's seat: no token to keep
    assert ada.get(f"/api/games/{gid}/state").json()["first_game"] is True
    # the same person on a second browser: the same game, and no second one
    laptop = second_browser(people, server, "firstada")
    assert laptop.get("/api/account/first-game/kingdom").json() == {"id": gid}
    before = server.app.state.store.counts()
    refused(
        laptop.post("/api/games", json=FIRST), 409, f"you have a first game of this game going on already: /play/{gid}"
    )
    refused(
        laptop.post("/api/games?lang=de", json=FIRST),
        409,
        f"du hast schon ein erstes Spiel dieses Spiels am Laufen: /play/{gid}",
    )
    assert server.app.state.store.counts() == before
    view = laptop.get(f"/api/games/{gid}/state").json()
    assert (view["seat"], view["first_game"]) == (0, True)
    # another game's first game, and another person's, are their own
    assert laptop.get("/api/account/first-game/middle-ages").json() == {"id": None}
    assert people("firstbo").get("/api/account/first-game/kingdom").json() == {"id": None}
    # an ordinary game is not a first game
    other = ada.post("/api/games", json={**FIRST, "first_game": False}).json()["id"]
    assert ada.get(f"/api/games/{other}/state").json()["first_game"] is False
    assert ada.get("/api/account/first-game/kingdom").json() == {"id": gid}
    # once it is over, the next "First game" makes a new one
    assert ada.post(f"/api/games/{gid}/resign").status_code == 200
    assert laptop.get("/api/account/first-game/kingdom").json() == {"id": None}
    again = laptop.post("/api/games", json=FIRST)
    assert again.status_code == 201, again.text
    assert ada.get("/api/account/first-game/kingdom").json() == {"id": again.json()["id"]}


def test_a_guests_first_game_is_the_guests(people):
    guest, stranger = people(), people()
    gid = guest.post("/api/games", json={**FIRST, "game": "middle-ages", "setup": None}).json()["id"]
    assert guest.get("/api/account/first-game/middle-ages").json() == {"id": gid}
    assert stranger.get("/api/account/first-game/middle-ages").json() == {"id": None}


def test_a_first_game_is_private_one_persons_against_bots_and_an_accounts(people, server, api):
    ada = people("firstcy")
    before = server.app.state.store.counts()
    shape = "a first game is private, with one seat of yours and bots in the others"
    refused(ada.post("/api/games", json={**FIRST, "private": False}), 400, shape)
    refused(ada.post("/api/games", json={**FIRST, "seats": [{"type": "human"}, {"type": "human"}]}), 400, shape)
    refused(
        ada.post("/api/games", json={**FIRST, "seats": [{"type": "human"}, {"type": "human", "invite": True}]}),
        400,
        shape,
    )
    refused(ada.post("/api/games", json={**FIRST, "seats": [{"type": "bot"}, {"type": "bot"}]}), 400, shape)
    refused(
        ada.post("/api/games", json={**FIRST, "seats": [{"type": "human", "user": "firstcy"}, {"type": "bot"}]}),
        400,
        shape,
    )
    # a program without an account has nothing to keep it in
    refused(
        api.post("/api/games", json=FIRST), 401, "a first game is kept for an account: sign in or play as a guest first"
    )
    refused(
        api.post("/api/games", json=FIRST, headers={"Accept-Language": "fr"}),
        401,
        "une première partie est liée à un compte : connectez-vous ou jouez d'abord en invité",
    )
    assert server.app.state.store.counts() == before
    # nobody signed in has no first game; an unknown game is refused
    assert api.get("/api/account/first-game/kingdom").json() == {"id": None}
    unknown = api.get("/api/account/first-game/chess")
    assert unknown.status_code == 422
    assert unknown.json()["detail"].startswith("path.game: unknown game 'chess' (the games are ")
    assert ada.get("/api/account/first-game/kingdom").json() == {"id": None}
