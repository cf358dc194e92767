"""The HTTP API: creating, joining, playing, undoing, resigning, records; every refusal says why and
changes nothing."""

from __future__ import annotations

import time

import pytest

from builders.core.record import replay
from tests.server.helpers import illegal_action


def new_game(api, game="kingdom", seats=None, setup=None):
    body = {"game": game, "seats": seats or [{"type": "human"}, {"type": "human"}]}
    if setup is not None:
        body["setup"] = setup
    r = api.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {s["seat"]: s.get("token") for s in data["seats"]}


def wait_finished(api, gid, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary = api.get(f"/api/games/{gid}").json()
        if summary["status"] == "finished":
            return summary
        time.sleep(0.05)
    pytest.fail("the game did not finish")


def state(api, gid, token=None):
    headers = {"X-Seat-Token": token} if token else {}
    r = api.get(f"/api/games/{gid}/state", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def act(api, gid, token, action, version=None):
    body = {"action": action} if version is None else {"action": action, "version": version}
    return api.post(f"/api/games/{gid}/actions", json=body, headers={"X-Seat-Token": token})


@pytest.fixture
def store(server):
    return server.app.state.store


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"game": "chess", "seats": [{"type": "human"}, {"type": "human"}]}, 422, "game"),
        ({"game": "kingdom", "seats": [{"type": "human"}]}, 422, "seats"),
        ({"game": "kingdom", "seats": [{"type": "human"}] * 5}, 422, "seats"),
        ({"game": "kingdom", "seats": [{"type": "bot", "level": "genius"}] * 2}, 422, "level"),
        ({"game": "kingdom", "seats": [{"type": "human"}] * 2, "extra": 1}, 422, "extra"),
        ({"game": "kingdom", "seats": [{"type": "human"}] * 2, "setup": {"mode": "custom"}}, 400, "custom"),
        (
            {
                "game": "kingdom",
                "seats": [{"type": "human"}] * 2,
                "setup": {
                    "mode": "custom",
                    "sections": [["castle", False], ["farm", False], ["oasis", False], ["tower", False]],
                    "cards": ["fishermen", "miners", "lords"],
                },
            },
            400,
            "castle",
        ),
        (
            {
                "game": "kingdom",
                "seats": [{"type": "human"}] * 2,
                "setup": {
                    "mode": "custom",
                    "sections": [["farm", False], ["farm", True], ["oasis", False], ["tower", False]],
                    "cards": ["fishermen", "miners", "lords"],
                },
            },
            400,
            "duplicate",
        ),
        (
            {
                "game": "kingdom",
                "seats": [{"type": "human"}] * 2,
                "setup": {"mode": "first", "cards": ["fishermen", "miners", "lords"]},
            },
            400,
            "first game",
        ),
        ({"game": "middle-ages", "seats": [{"type": "human"}] * 2, "setup": {"mode": "first"}}, 400, "seed"),
    ],
)
def test_create_refusals(api, store, body, status, words):
    before = store.counts()
    r = api.post("/api/games", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]
    assert store.counts() == before


def test_malformed_and_oversized_bodies(api, store):
    before = store.counts()
    r = api.post("/api/games", content=b'{"game": "kingdom", "seats": [', headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["detail"]
    r = api.post("/api/games", content=b"x" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]
    gid, tokens = new_game(api)
    after_create = store.counts()
    r = api.post(
        f"/api/games/{gid}/actions", json={"action": "build 1,1" + " " * 50_000}, headers={"X-Seat-Token": tokens[0]}
    )
    assert r.status_code == 413
    assert store.counts() == after_create == {"games": before["games"] + 1, "actions": before["actions"]}


def test_custom_and_first_setups(api):
    sections = [["oracle", True], ["harbor", False], ["barn", True], ["paddock", False]]
    gid, tokens = new_game(
        api, setup={"mode": "custom", "sections": sections, "cards": ["lords", "hermits", "farmers"], "seed": 11}
    )
    view = state(api, gid, tokens[0])
    assert view["view"]["sections"] == sections and view["view"]["cards"] == ["lords", "hermits", "farmers"]
    assert len(view["board"]["rows"]) == 20 and all(len(r) == 20 for r in view["board"]["rows"])
    kinds = {loc["kind"] for loc in view["board"]["locations"]}
    assert kinds == {"oracle", "harbor", "barn", "paddock"}
    gid2, tokens2 = new_game(
        api, setup={"mode": "custom", "sections": sections, "cards": ["lords", "hermits", "farmers"], "seed": 11}
    )
    # the same seed deals the same cards
    assert state(api, gid2, tokens2[0])["view"]["players"][0]["terrain"] == view["view"]["players"][0]["terrain"]
    gid3, tokens3 = new_game(api, setup={"mode": "first"})
    assert state(api, gid3)["view"]["cards"] == ["fishermen", "merchants", "knights"]


def test_tokens_turns_and_illegal_actions(api, store):
    gid, tokens = new_game(api)
    before = store.counts()
    view = state(api, gid, tokens[0])
    assert view["seat"] == 0 and view["to_move"] == 0 and view["legal"] and view["version"] == 0
    assert state(api, gid, tokens[1])["legal"] == []
    spectator = state(api, gid)
    assert spectator["seat"] is None and spectator["legal"] == []
    assert all(p["terrain"] is None for q, p in enumerate(spectator["view"]["players"]) if q != 0)
    cases = [
        (None, view["legal"][0], None, 401, "token"),
        ("not-a-token", view["legal"][0], None, 401, "token"),
        ("x" * 500, view["legal"][0], None, 401, "token"),
        (tokens[1], view["legal"][0], None, 403, "turn"),
        (tokens[0], illegal_action("kingdom", view["legal"]), None, 400, "hex"),
        (tokens[0], "fly 3,4", None, 400, "not an action"),
        (tokens[0], view["legal"][0], 7, 409, "version"),
    ]
    for token, action, version, status, words in cases:
        headers = {"X-Seat-Token": token} if token else {}
        body = {"action": action} if version is None else {"action": action, "version": version}
        r = api.post(f"/api/games/{gid}/actions", json=body, headers=headers)
        assert r.status_code == status, (token, action, r.text)
        assert words in r.json()["detail"] and r.json()["detail"]
        assert tokens[0] not in r.text and tokens[1] not in r.text
    assert api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": "wrong"}).status_code == 401
    assert api.get("/api/games/nosuchgame/state").status_code == 404
    assert (
        api.post(
            "/api/games/nosuchgame/actions", json={"action": "end"}, headers={"X-Seat-Token": tokens[0]}
        ).status_code
        == 404
    )
    assert api.get("/api/games/bad%20id!/state").status_code == 422
    assert store.counts() == before
    assert state(api, gid, tokens[0]) == view
    # a legal action with the right version goes through
    r = act(api, gid, tokens[0], view["legal"][0], version=0)
    assert r.status_code == 200 and r.json()["version"] == 1 and r.json()["log"][0]["action"] == view["legal"][0]


def test_undo_within_the_turn_only(api):
    gid, tokens = new_game(api, setup={"mode": "random", "seed": 4})
    start = state(api, gid, tokens[0])
    assert not start["can_undo"]
    r = api.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 409 and "nothing to undo" in r.json()["detail"]
    seen = [start]
    for _ in range(3):
        view = act(api, gid, tokens[0], seen[-1]["legal"][0]).json()
        assert "drew" not in view["log"][-1]["text"]
        assert view["can_undo"]
        seen.append(view)
    # the other seat cannot undo for seat 0
    r = api.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[1]})
    assert r.status_code == 409
    # back to the start of the turn, one action at a time
    for expected in reversed(seen[:-1]):
        r = api.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[0]})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["view"] == expected["view"] and got["legal"] == expected["legal"]
        assert got["actions"] == expected["actions"]
        assert got["version"] > expected["version"]
    assert not got["can_undo"]
    # play the turn and end it: the card drawn at the end cannot be undone
    view = got
    for _ in range(3):
        view = act(api, gid, tokens[0], view["legal"][0]).json()
    while "end" not in view["legal"]:
        view = act(api, gid, tokens[0], view["legal"][0]).json()
    view = act(api, gid, tokens[0], "end").json()
    assert view["to_move"] == 1 and not view["can_undo"]
    r = api.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 409
    assert state(api, gid, tokens[0])["actions"] == view["actions"]


def test_middle_ages_undo_stops_at_a_draw(api):
    gid, tokens = new_game(api, "middle-ages")
    view = state(api, gid, tokens[0])
    assert view["legal_costs"]["coins 1"] == {"actions": 1, "coins": -1}
    opening = next(a for a in view["legal"] if a.startswith("open "))
    assert view["legal_costs"][opening] == {"actions": 1, "coins": 0}
    view = act(api, gid, tokens[0], "coins 1").json()
    assert view["can_undo"]
    view = act(api, gid, tokens[0], opening).json()
    assert not view["can_undo"] and "came into the building row" in view["log"][-1]["text"]
    r = api.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 409 and "drawn" in r.json()["detail"]
    assert state(api, gid, tokens[0])["actions"] == 2


def test_open_seats_join_and_lobby(api):
    r = api.post(
        "/api/games",
        json={
            "game": "middle-ages",
            "name": "Friday",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "open": True}],
        },
    )
    created = r.json()
    gid = created["id"]
    assert "token" not in created["seats"][1] or created["seats"][1]["token"] is None
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["status"] == "open" and summary["seats"][1]["claimed"] is False
    assert any(g["id"] == gid for g in api.get("/api/games", params={"status": "open"}).json())
    assert not any(g["id"] == gid for g in api.get("/api/games", params={"status": "running"}).json())
    assert api.post(f"/api/games/{gid}/join", json={"seat": 0}).status_code == 409
    assert api.post(f"/api/games/{gid}/join", json={"seat": 3}).status_code == 409
    r = api.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Bea"})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["link"] == f"/play/{gid}#seat=1&token={joined['token']}"
    assert api.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 409
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["status"] == "running" and summary["seats"][1]["name"] == "Bea"
    assert state(api, gid, joined["token"])["seat"] == 1
    assert api.get("/api/games", params={"status": "closed"}).status_code == 422


def test_resign_hands_the_seat_to_a_bot(api):
    gid, tokens = new_game(api, "middle-ages")
    r = api.post(f"/api/games/{gid}/resign", json={"bot": "easy"}, headers={"X-Seat-Token": tokens[1]})
    assert r.status_code == 200
    assert r.json()["seats"][1] == {**r.json()["seats"][1], "type": "bot", "level": "easy", "resigned": False}
    r = api.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": tokens[1]})
    assert r.status_code == 409
    assert api.post(f"/api/games/{gid}/resign", headers={}).status_code == 401
    # seat 0 plays a turn; the bot answers for seat 1
    view = state(api, gid, tokens[0])
    for action in ("coins 1", "coins 1", "coins 1", "end"):
        view = act(api, gid, tokens[0], action).json()
    deadline = time.monotonic() + 10
    while view["to_move"] != 0 and time.monotonic() < deadline:
        time.sleep(0.02)
        view = state(api, gid, tokens[0])
    assert view["to_move"] == 0 and any(e["seat"] == 1 for e in view["log"])
    # seat 0 resigns: one player is left (seat 1, played by its bot), so the game ends and seat 1 wins
    r = api.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 200 and r.json()["seats"][0]["resigned"] is True
    summary = r.json()
    assert summary["status"] == "finished" and summary["to_move"] is None
    assert summary["result"]["winners"] == [1] and summary["result"]["resigned"] == [0]
    assert act(api, gid, tokens[0], "coins 1").status_code == 409


def test_records_and_replays_of_finished_games(api):
    gid, _ = new_game(api, "kingdom", seats=[{"type": "bot", "level": "easy"}] * 3)
    assert api.get(f"/api/games/{gid}/record").status_code in (200, 409)
    wait_finished(api, gid)
    record = api.get(f"/api/games/{gid}/record").json()
    final = replay(record)
    assert final.is_over() and record["result"] == final.result().to_json()
    total = len(final.player_actions())
    start = api.get(f"/api/games/{gid}/replay/0").json()
    assert start["total"] == total and start["actions"] == 0 and start["log"] == []
    end = api.get(f"/api/games/{gid}/replay/{total}").json()
    assert end["view"] == final.to_json() and len(end["log"]) == total
    middle = api.get(f"/api/games/{gid}/replay/{total // 2}").json()
    assert middle["view"] == replay(record, until=total // 2).to_json()
    assert api.get(f"/api/games/{gid}/replay/{total + 1}").status_code == 404
    assert any(g["id"] == gid for g in api.get("/api/games", params={"status": "finished"}).json())
    # an unfinished game has neither
    gid2, _ = new_game(api)
    assert api.get(f"/api/games/{gid2}/record").status_code == 409
    assert api.get(f"/api/games/{gid2}/replay/0").status_code == 409


def test_openapi_and_pages(api):
    spec = api.get("/openapi.json").json()
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/state",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/resign",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/replay/{n}",
    ):
        assert path in spec["paths"]
    assert api.get("/").status_code in (200, 404)
    assert api.get("/no/such/page").json()["detail"]


def test_finished_games_leave_memory_and_come_back(tmp_path, monkeypatch):
    import asyncio

    import builders.server.games as games
    from builders.server.schemas import CreateGame
    from tests.server.conftest import make_app

    monkeypatch.setattr(games, "KEEP_FINISHED", 2)
    app = make_app(tmp_path)
    service = app.state.service

    async def main():
        ids = []
        for _ in range(4):
            created = service.create(
                CreateGame.model_validate({"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 2})
            )
            ids.append(created["id"])
            await service.idle()
        in_memory = [i for i in ids if i in service.live]
        assert len(in_memory) == 2 and in_memory == ids[2:]
        # a forgotten game is loaded again from the database, whole
        again = service.get(ids[0])
        assert again.over and service.finished_record(ids[0])["result"]["winners"]
        assert ids[0] in service.live
        await service.stop()
        app.state.store.close()

    asyncio.run(main())


def test_a_failed_save_changes_nothing(tmp_path):
    import asyncio

    from sqlalchemy.exc import OperationalError

    from builders.server.games import ApiError
    from builders.server.schemas import CreateGame
    from tests.server.conftest import make_app

    app = make_app(tmp_path)
    service = app.state.service

    async def main():
        created = service.create(CreateGame.model_validate({"game": "middle-ages", "seats": [{"type": "human"}] * 2}))
        gid, token = created["id"], created["seats"][0]["token"]
        live = service.get(gid)
        before = service.view_text(live, 0)

        def broken(*args, **kwargs):
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

        service.store.append = broken
        try:
            await service.act(gid, token, "coins 1")
        except ApiError as e:
            assert e.status == 503 and "nothing changed" in e.detail
        else:
            raise AssertionError("the action was accepted without being saved")
        assert service.view_text(live, 0) == before and live.steps == []
        assert service.store.steps(gid) == []
        del service.store.append  # the real method again
        await service.act(gid, token, "coins 1")
        assert len(service.store.steps(gid)) == 1 and live.version == 1
        await service.stop()
        app.state.store.close()

    asyncio.run(main())


def test_the_game_types_name_each_games_web_modules_colour_and_players(api):
    """The web client learns the games from the server (their plugins), never from a list of its own."""
    types = api.get("/api/game-types").json()
    assert types == [
        {
            "name": "kingdom",
            "title": "Kingdom Builder",
            "table": "games/kingdom/kingdom.js",
            "guide": "games/kingdom/kingdom_guide.js",
            "rules": "games/kingdom/kingdom_rules.js",
            "lobby": "games/kingdom/kingdom_lobby.js",
            "style": "games/kingdom/kingdom.css",
            "colour": "#2f6fdb",
            "min_players": 2,
            "max_players": 4,
        },
        {
            "name": "middle-ages",
            "title": "The Builders: Middle Ages",
            "table": "games/middle-ages/middle_ages.js",
            "guide": "games/middle-ages/middle_ages_guide.js",
            "rules": "games/middle-ages/middle_ages_rules.js",
            "lobby": "games/middle-ages/middle_ages_lobby.js",
            "style": "games/middle-ages/middle_ages.css",
            "colour": "#e0512b",
            "min_players": 2,
            "max_players": 4,
        },
    ]
    made = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}).json()
    view = api.get(f"/api/games/{made['id']}/state", headers={"X-Seat-Token": made["seats"][0]["token"]}).json()
    assert (view["table"], view["guide"]) == ("games/kingdom/kingdom.js", "games/kingdom/kingdom_guide.js")
    # each module is served from its game's own folder, and the shared folder has none of them
    for game in types:
        for module in (game["table"], game["guide"], game["rules"], game["lobby"]):
            served = api.get(f"/static/{module}")
            assert served.status_code == 200 and "export " in served.text, module
            assert served.headers["content-type"].startswith("text/javascript"), module
            assert api.get(f"/static/{module.rpartition('/')[2]}").status_code == 404, module
        # its stylesheet too: served as CSS from its folder, not the shared one
        served = api.get(f"/static/{game['style']}")
        assert served.status_code == 200 and served.headers["content-type"].startswith("text/css"), game["style"]
        assert served.text.lstrip().startswith("/*") and "{" in served.text, game["style"]
        assert api.get(f"/static/{game['style'].rpartition('/')[2]}").status_code == 404, game["style"]
