"""Rated games: who may play them, ratings updated once and all together when one ends (openskill's
Plackett-Luce), the leaderboard and the player's profile."""

from __future__ import annotations

import itertools
import time

import pytest

from builders.server.ratings import ranks_of
from tests.server.test_accounts import Person, refused

_names = itertools.count(1)
CLOCK = {"kind": "live", "total": 3600, "increment": 0}


def name() -> str:
    return f"rated{next(_names)}"


def test_places_from_results():
    result = {
        "players": [
            {"seat": 0, "total": 30},
            {"seat": 1, "total": 41},
            {"seat": 2, "total": 41},
            {"seat": 3, "total": 12},
        ],
        "winners": [1, 2],
    }
    assert ranks_of(result, []) == [3, 1, 1, 4]
    # a seat whose clock ran out is last, whatever its score
    assert ranks_of(result, [1]) == [2, 4, 1, 3]


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"seats": [{"type": "human"}, {"type": "bot"}], "clock": CLOCK}, 400, "people only"),
        ({"seats": [{"type": "human"}, {"type": "human", "invite": True}]}, 400, "needs a clock"),
        ({"seats": [{"type": "human"}, {"type": "human"}], "clock": CLOCK}, 400, "exactly one seat"),
    ],
)
def test_rated_games_that_cannot_be(server, people, body, status, words):
    ada = people(name())
    before = server.app.state.store.counts()
    refused(ada.post("/api/games", json={"game": "kingdom", "rated": True, **body}), status, words)
    assert server.app.state.store.counts() == before


def test_guests_and_second_seats_are_refused(server, people):
    guest = people()
    refused(
        guest.post(
            "/api/games",
            json={
                "game": "kingdom",
                "rated": True,
                "clock": CLOCK,
                "seats": [{"type": "human"}, {"type": "human", "open": True}],
            },
        ),
        401,
        "signed-up players",
    )
    ada = people(name())
    gid = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "clock": CLOCK,
            "seats": [{"type": "human"}, {"type": "human", "open": True}, {"type": "human", "open": True}],
        },
    ).json()["id"]
    refused(guest.post(f"/api/games/{gid}/join", json={"seat": 1}), 401, "signed-up players")
    refused(ada.post(f"/api/games/{gid}/join", json={"seat": 1}), 409, "one seat each")
    bo = people(name())
    assert bo.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 200
    refused(bo.post(f"/api/games/{gid}/join", json={"seat": 2}), 409, "one seat each")


def play_to_end(players: dict[int, Person], gid: str) -> dict:
    view = players[0].get(f"/api/games/{gid}/state").json()
    for _ in range(5000):
        summary = players[0].get(f"/api/games/{gid}").json()
        if summary["status"] == "finished":
            return summary
        if summary["to_move"] not in players:  # a bot's turn
            time.sleep(0.02)
            continue
        mover = players[summary["to_move"]]
        view = mover.get(f"/api/games/{gid}/state").json()
        action = "end" if "end" in view["legal"] else view["legal"][0]
        r = mover.post(f"/api/games/{gid}/actions", json={"action": action})
        assert r.status_code == 200, r.text
    pytest.fail("the game did not end")


def test_a_rated_game_moves_ratings_once_and_shows_on_profiles(server, people):
    ada_name, bo_name = name(), name()
    ada, bo = people(ada_name), people(bo_name)
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
    assert ada.get(f"/api/games/{gid}").json()["rated"] is True
    summary = play_to_end({0: ada, 1: bo}, gid)
    result = summary["result"]
    totals = {p["seat"]: p["total"] for p in result["players"]}

    board = {x["username"]: x for x in ada.get("/api/leaderboard/kingdom").json()}
    assert board[ada_name]["games"] == board[bo_name]["games"] == 1
    a, b = board[ada_name], board[bo_name]
    if result["winners"] == [0]:
        assert a["mu"] > 25 > b["mu"] and a["rank"] < b["rank"]
    elif result["winners"] == [1]:
        assert b["mu"] > 25 > a["mu"]
    else:
        assert a["mu"] == pytest.approx(b["mu"])
    # the familiar scale: 60 times mu, 1500 for a new player; provisional after one game
    assert a["sigma"] < 25 / 3 and a["rating"] == round(60 * a["mu"]) and a["provisional"] is True
    if result["winners"] == [0]:
        assert a["rating"] > 1500 > b["rating"]
    # the game-over screen's numbers: each player's rating after the game and the change it made
    changes = {c["seat"]: c for c in ada.get(f"/api/games/{gid}").json()["rating_changes"]}
    assert changes[0] == {"seat": 0, "rating": a["rating"], "change": a["rating"] - 1500, "provisional": True}
    assert changes[1] == {"seat": 1, "rating": b["rating"], "change": b["rating"] - 1500, "provisional": True}

    # only once: rating the same game again changes nothing
    ratings = server.app.state.ratings
    live = server.app.state.service.get(gid)
    assert ratings.rate(live) is False
    assert {x["username"]: x["games"] for x in ada.get("/api/leaderboard/kingdom").json()}[ada_name] == 1

    profile = bo.get(f"/api/players/{ada_name.upper()}").json()
    assert profile["username"] == ada_name
    assert profile["games_played"] == profile["rated_games"] == 1
    assert profile["wins"] == (0 in result["winners"]) and profile["win_rate"] == float(0 in result["winners"])
    assert profile["mean_score"] == totals[0]
    assert profile["favourite_cards"] == [{"game": "kingdom", "card": card} for card in live.setup["cards"]]
    assert [h["game_id"] for h in profile["history"]] == [gid]
    assert profile["history"][0]["rating"] == a["rating"]
    assert profile["history"][0]["change"] == a["rating"] - 1500 and profile["history"][0]["provisional"]
    assert profile["ratings"]["kingdom"]["rating"] == a["rating"]
    assert profile["games"][0]["replay"] == f"/replay/{gid}" and profile["games"][0]["rated"] is True
    assert profile["ratings"]["kingdom"]["games"] == 1
    stored = {
        row["id"]: row for row in server.app.state.store.games_of(server.app.state.accounts.by_username(ada_name).id)
    }
    assert stored[gid]["options"].rated_done is True  # stored as rated: never rated again after a restart
    refused(bo.get("/api/players/nobody_at_all"), 404, "no player named")


def both_games_won(ada: Person, bo: Person, bo_name: str) -> tuple[list[str], str]:
    """Ada against Bo in a game of each: she opens a building in The Builders, then Bo resigns both.
    Returns the three cards of Kingdom Builder's game and the building opened."""
    seats = [{"type": "human"}, {"type": "human", "user": bo_name}]
    ma = ada.post("/api/games", json={"game": "middle-ages", "seats": seats}).json()["id"]
    kb = ada.post("/api/games", json={"game": "kingdom", "seats": seats}).json()["id"]
    opened = next(a for a in ada.get(f"/api/games/{ma}/state").json()["legal"] if a.startswith("open B"))
    assert ada.post(f"/api/games/{ma}/actions", json={"action": opened}).status_code == 200
    for gid in (ma, kb):
        assert bo.post(f"/api/games/{gid}/resign").json()["status"] == "finished"
    return bo.get(f"/api/games/{kb}/record").json()["setup"]["cards"], opened.split()[1]


def test_the_favourite_cards_of_a_profile_say_their_game(server, people):
    """Each favourite card comes with its game: a player of both games has those of each, a game's own
    in the registry's order (Kingdom Builder's three cards, then the building opened in The Builders); a
    player who opened no building has only Kingdom Builder's, a player with no finished game none, and
    others do not see the cards of a private game."""
    ada_name, bo_name, cy_name = name(), name(), name()
    ada, bo, cy = people(ada_name), people(bo_name), people(cy_name)
    cards, building = both_games_won(ada, bo, bo_name)
    kingdom = [{"game": "kingdom", "card": card} for card in cards]
    assert cy.get(f"/api/players/{ada_name}").json()["favourite_cards"] == [
        *kingdom,
        {"game": "middle-ages", "card": building},
    ]
    assert cy.get(f"/api/players/{bo_name}").json()["favourite_cards"] == kingdom
    assert ada.get(f"/api/players/{cy_name}").json()["favourite_cards"] == []
    # a private game's cards count for the player only: another building, opened in private, is not
    # shown to others
    seats = [{"type": "human"}, {"type": "human", "user": bo_name}]
    secret = ada.post("/api/games", json={"game": "middle-ages", "seats": seats, "private": True}).json()["id"]
    legal = ada.get(f"/api/games/{secret}/state").json()["legal"]
    hidden = next(a for a in legal if a.startswith("open B") and a != f"open {building}").split()[1]
    assert ada.post(f"/api/games/{secret}/actions", json={"action": f"open {hidden}"}).status_code == 200
    assert bo.post(f"/api/games/{secret}/resign").json()["status"] == "finished"
    builders = [{"game": "middle-ages", "card": card} for card in (building, hidden)]
    own = ada.get(f"/api/players/{ada_name}").json()["favourite_cards"]
    assert own[:3] == kingdom and sorted(own[3:], key=str) == sorted(builders, key=str)  # played as often
    assert cy.get(f"/api/players/{ada_name}").json()["favourite_cards"] == [*kingdom, builders[0]]
    # the API's description says what a favourite is
    schema = ada.get("/openapi.json").json()["components"]["schemas"]
    assert schema["FavouriteCard"]["required"] == ["game", "card"]
    assert schema["Profile"]["properties"]["favourite_cards"]["items"] == {"$ref": "#/components/schemas/FavouriteCard"}


def test_favourite_cards_of_the_builders_are_the_buildings_a_player_opened():
    from builders.core.plugins import part
    from builders.server.store import StoredStep

    steps = [
        StoredStep(0, "open B04", [], False),
        StoredStep(1, "open B31", [], False),
        StoredStep(0, "recruit W01", [], False),
        StoredStep(0, "open B04", [], False),
        StoredStep(0, "end", [], False),
    ]
    favourites = part("middle-ages", "profile")  # the game's plugin brings its profile statistics
    assert favourites({}, lambda: steps, [0]) == ["B04", "B04"]  # by id, named by the game's web module
    assert favourites({}, lambda: steps, [1]) == ["B31"]
    assert part("kingdom", "profile")({"cards": ["lords", "miners", "farmers"]}, lambda: steps, [0]) == [
        "lords",
        "miners",
        "farmers",
    ]


def test_the_rating_scale_and_the_changes_it_shows():
    """Issue: profiles showed -1.8 and 3.4. A rating is shown as 60 times openskill's mu (1500 for a new
    player), provisional while sigma is above 5; a profile's history has one point per rated game with
    the change that game made, each game's first point measured from 1500."""
    from types import SimpleNamespace

    from builders.server.ratings import _history, provisional, shown

    assert shown(25.0) == 1500 and shown(25.24) == 1514 and shown(24.85) == 1491
    assert provisional(25 / 3) and provisional(5.01) and not provisional(5.0)
    points = [
        SimpleNamespace(game_id="g1", game="kingdom", mu=26.0, sigma=7.0, rank=1, at=1.0, private=False),
        SimpleNamespace(game_id="g2", game="middle-ages", mu=24.0, sigma=7.0, rank=2, at=2.0, private=False),
        SimpleNamespace(game_id="g3", game="kingdom", mu=25.5, sigma=4.9, rank=2, at=3.0, private=True),
    ]
    assert [(p["game_id"], p["rating"], p["change"], p["provisional"]) for p in _history(points, False, 25.0)] == [
        ("g1", 1560, 60, True),
        ("g2", 1440, -60, True),
        (None, 1530, -30, False),
    ]


def _body(**kw):
    from builders.server.schemas import CreateGame

    seats = kw.pop("seats", [{"type": "human"}, {"type": "human", "open": True}])
    return CreateGame.model_validate({"game": "kingdom", "rated": True, "clock": CLOCK, "seats": seats, **kw})


def _refusal(call) -> tuple[int, str]:
    from builders.server.games import ApiError

    with pytest.raises(ApiError) as e:
        call()
    return e.value.status, e.value.detail


def test_each_refusal_of_a_rated_game_in_its_exact_words():
    from types import SimpleNamespace

    from builders.server.ratings import check_rated

    ada = SimpleNamespace(guest=False, username="Ada")
    signed_up = "a rated game is for signed-up players: sign up or sign in first"
    assert _refusal(lambda: check_rated(_body(), None)) == (401, signed_up)
    assert _refusal(lambda: check_rated(_body(), SimpleNamespace(guest=True, username=None))) == (401, signed_up)
    assert _refusal(lambda: check_rated(_body(private=True), ada)) == (
        400,
        "a rated game is public (its result moves ratings everyone sees): leave private out or make the game unrated",
    )
    assert _refusal(lambda: check_rated(_body(seats=[{"type": "human"}, {"type": "bot"}]), ada)) == (
        400,
        "a rated game has people only, no bots",
    )
    assert _refusal(lambda: check_rated(_body(clock=None), ada)) == (400, "a rated game needs a clock")
    assert _refusal(lambda: check_rated(_body(setup={"seed": 7}), ada)) == (
        400,
        "a rated game is dealt from a secret seed: leave the seed out",
    )
    one_seat = (400, "in a rated game you play exactly one seat")
    assert _refusal(lambda: check_rated(_body(seats=[{"type": "human"}, {"type": "human"}]), ada)) == one_seat
    assert (
        _refusal(
            lambda: check_rated(_body(seats=[{"type": "human", "open": True}, {"type": "human", "invite": True}]), ada)
        )
        == one_seat
    )
    every = (400, "in a rated game every player has one seat")
    assert (
        _refusal(
            lambda: check_rated(
                _body(seats=[{"type": "human"}, {"type": "human", "user": "bob"}, {"type": "human", "user": "BOB"}]),
                ada,
            )
        )
        == every
    )
    assert (
        _refusal(lambda: check_rated(_body(seats=[{"type": "human"}, {"type": "human", "user": "ADA"}]), ada)) == every
    )
    # what may be: one own seat, others open, invited or named once; a setup without a seed
    assert (
        check_rated(
            _body(
                seats=[
                    {"type": "human"},
                    {"type": "human", "user": "bob"},
                    {"type": "human", "invite": True},
                    {"type": "human", "open": True},
                ]
            ),
            ada,
        )
        is None
    )
    assert check_rated(_body(setup={}), SimpleNamespace(guest=False, username=None)) is None
    # an unrated game is not checked at all
    assert (
        check_rated(_body(rated=False, private=True, clock=None, seats=[{"type": "bot"}, {"type": "bot"}]), None)
        is None
    )


def test_each_refusal_of_a_rated_seat_in_its_exact_words(server, people):
    from types import SimpleNamespace

    from builders.server.ratings import check_claim

    ada_name = name()
    ada = people(ada_name)
    gid = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "clock": CLOCK,
            "seats": [{"type": "human"}, {"type": "human", "open": True}],
        },
    ).json()["id"]
    service = server.app.state.service
    live = service.get(gid)
    account = server.app.state.accounts.by_username(ada_name)
    signed_up = (401, "a rated game is for signed-up players: sign up or sign in first")
    assert _refusal(lambda: check_claim(live, None, service)) == signed_up
    assert _refusal(lambda: check_claim(live, SimpleNamespace(guest=True, id=10**9), service)) == signed_up
    assert _refusal(lambda: check_claim(live, account, service)) == (
        409,
        "you have a seat in this rated game already: one seat each",
    )
    assert check_claim(live, SimpleNamespace(guest=False, id=10**9), service) is None
    unrated = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    ).json()["id"]
    assert check_claim(service.get(unrated), None, service) is None


def test_places_share_ties_and_put_the_flagged_and_resigned_last():
    result = {
        "players": [{"seat": 0, "total": 20}, {"seat": 1, "total": 20}, {"seat": 2, "total": 20}],
        "winners": [0, 1],
    }
    assert ranks_of(result, []) == [1, 1, 3]
    assert ranks_of(result, [0]) == [3, 1, 2]
    assert ranks_of(result, [0, 2]) == [2, 1, 3]
    assert ranks_of({"players": [{"seat": 0, "total": 5}, {"seat": 1, "total": 9}], "winners": None}, []) == [2, 1]
    assert ranks_of({"players": [{"seat": 0, "total": 5}, {"seat": 1, "total": 9}]}, []) == [2, 1]


def test_the_leaderboard_puts_established_ratings_first_then_by_rating_then_by_name(tmp_path):
    from sqlalchemy import insert

    from builders.server.models import AccountRow, RatingRow
    from tests.server.conftest import make_app

    app = make_app(tmp_path)
    ratings = app.state.ratings
    rows = [
        ("zed", 30.0, 4.0, 12),
        ("amy", 30.0, 4.9, 11),
        ("Bob", 31.0, 8.0, 1),
        ("cal", 20.0, 5.0, 20),
        ("dan", 31.0, 5.1, 2),
        (None, 40.0, 1.0, 50),
    ]
    with app.state.store.engine.begin() as conn:
        for i, (user, mu, sigma, games) in enumerate(rows, start=1):
            conn.execute(
                insert(AccountRow).values(id=1000 + i, username=user, username_key=user and user.lower(), created=0.0)
            )
            conn.execute(insert(RatingRow).values(account_id=1000 + i, game="kingdom", mu=mu, sigma=sigma, games=games))
    board = ratings.leaderboard("kingdom")
    assert [(x["rank"], x["username"], x["rating"], x["provisional"], x["games"]) for x in board] == [
        (1, "amy", 1800, False, 11),
        (2, "zed", 1800, False, 12),
        (3, "cal", 1200, False, 20),
        (4, "Bob", 1860, True, 1),
        (5, "dan", 1860, True, 2),
    ]
    assert (board[0]["mu"], board[0]["sigma"]) == (30.0, 4.9)
    assert [x["username"] for x in ratings.leaderboard("kingdom", limit=2)] == ["amy", "zed"]
    assert ratings.leaderboard("middle-ages") == []
    assert len(ratings.leaderboard("kingdom", limit=50)) == 5


def test_the_leaderboard_and_profile_refusals_in_their_exact_words(server, api):
    for r, status, detail in [
        (api.get("/api/leaderboard/chess"), 404, "there is no game named 'chess'"),
        (api.get("/api/players/nobody_here"), 404, "there is no player named 'nobody_here'"),
    ]:
        assert (r.status_code, r.json()["detail"]) == (status, detail)
    assert api.get("/api/leaderboard/middle-ages").status_code == 200
