"""The server in English, German and French (builders.server.messages), over real HTTP and sockets:
refusals of every kind and the lines of the game log in each language, the language chosen by
``?lang=``, the ``lang`` cookie, the account's setting and ``Accept-Language`` in that order; each
refusal carries its key and parameters beside the text, the same in every language."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from builders.server.guard import Limits
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer

ACCEPT = {"en": "en-GB,en;q=0.9", "de": "de-DE,de;q=0.9,en;q=0.5", "fr": "fr-FR,fr;q=0.9,en;q=0.5"}


def said(r: httpx.Response, status: int, detail: str, code: str, params: dict) -> None:
    assert (r.status_code, r.json()) == (status, {"detail": detail, "code": code, "params": params}), r.text


def create(client, game="kingdom", seed=3, seats=None):
    """A game made by ``client`` (an httpx client, or a Person, who sends its CSRF token)."""
    r = client.post(
        "/api/games",
        json={"game": game, "seats": seats or [{"type": "human"}, {"type": "human"}], "setup": {"seed": seed}},
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], {s["seat"]: s.get("token") for s in r.json()["seats"]}


def socket_refusal(ws, token: str, action: str) -> dict:
    """The error a seat's socket ``ws`` answers ``action`` with (after its hello as ``token``)."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(ws.recv(timeout=10))["type"] == "state"
    ws.send(json.dumps({"type": "action", "action": action}))
    answer = json.loads(ws.recv(timeout=10))
    while answer["type"] != "error":
        answer = json.loads(ws.recv(timeout=10))
    return answer


# -- refusals: 400, 401, 403, 404, 409, 422, 429 -------------------------------------------------
NO_GAME = {
    "en": "there is no game 'NoSuch12'",
    "de": "es gibt keine Partie 'NoSuch12'",
    "fr": "il n'y a pas de partie 'NoSuch12'",
}


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_404_by_accept_language(api, lang):
    said(
        api.get("/api/games/NoSuch12", headers={"Accept-Language": ACCEPT[lang]}),
        404,
        NO_GAME[lang],
        "there is no game {game_id!r}",
        {"game_id": "NoSuch12"},
    )


def test_an_unknown_address_and_a_language_the_server_lacks(api):
    said(
        api.get("/api/nothing-here", headers={"Accept-Language": "de"}),
        404,
        "unter der Adresse '/api/nothing-here' gibt es nichts",
        "there is nothing at the address {path!r}",
        {"path": "/api/nothing-here"},
    )
    # Japanese first, then French: French; nothing of ours: English
    said(
        api.get("/api/games/NoSuch12", headers={"Accept-Language": "ja,fr;q=0.5"}),
        404,
        NO_GAME["fr"],
        "there is no game {game_id!r}",
        {"game_id": "NoSuch12"},
    )
    said(
        api.get("/api/games/NoSuch12", headers={"Accept-Language": "ja,es"}),
        404,
        NO_GAME["en"],
        "there is no game {game_id!r}",
        {"game_id": "NoSuch12"},
    )
    # a bad choice in ?lang= or the cookie is passed over, not an error
    said(
        api.get("/api/games/NoSuch12?lang=xx", headers={"Accept-Language": "de", "Cookie": "lang=<script>"}),
        404,
        NO_GAME["de"],
        "there is no game {game_id!r}",
        {"game_id": "NoSuch12"},
    )


@pytest.mark.parametrize(
    ("lang", "detail"),
    [
        ("en", "a password needs at least 8 characters"),
        ("de", "ein Passwort braucht mindestens 8 Zeichen"),
        ("fr", "un mot de passe compte au moins 8 caractères"),
    ],
)
def test_a_400_by_the_cookie_over_accept_language(server, lang, detail):
    with httpx.Client(base_url=server.url, cookies={"lang": lang}) as client:
        r = client.post(
            "/api/accounts",
            json={"username": "shorty", "password": "short"},
            headers={"Accept-Language": "fr" if lang != "fr" else "de"},
        )
        said(r, 400, detail, "a password needs at least {count} characters", {"count": 8})


@pytest.mark.parametrize(
    ("lang", "detail"),
    [
        ("en", "wrong username or password"),
        ("de", "falscher Benutzername oder falsches Passwort"),
        ("fr", "nom d'utilisateur ou mot de passe incorrect"),
    ],
)
def test_a_401_by_the_query_over_the_cookie(server, lang, detail):
    with httpx.Client(base_url=server.url, cookies={"lang": "de" if lang != "de" else "fr"}) as client:
        r = client.post(f"/api/session?lang={lang}", json={"username": "nobody-here", "password": "whatever1"})
        said(r, 401, detail, "wrong username or password", {})


def test_a_403_and_a_409_of_a_game_in_each_language(api):
    gid, tokens = create(api)
    play = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]}).json()["legal"][0]
    turn = {
        "en": "it is seat 0's turn, not seat 1's",
        "de": "Platz 0 ist am Zug, nicht Platz 1",
        "fr": "c'est à la place 0 de jouer, pas à la place 1",
    }
    taken = {
        "en": "seat 1 is not open: it is joined by its own link",
        "de": "Platz 1 ist nicht offen: man tritt über seinen eigenen Link bei",
        "fr": "la place 1 n'est pas ouverte : on la rejoint par son propre lien",
    }
    for lang in ("en", "de", "fr"):
        r = api.post(
            f"/api/games/{gid}/actions?lang={lang}", json={"action": play}, headers={"X-Seat-Token": tokens[1]}
        )
        said(r, 403, turn[lang], "it is seat {turn}'s turn, not seat {seat}'s", {"turn": 0, "seat": 1})
        r = api.post(f"/api/games/{gid}/join", json={"seat": 1}, headers={"Accept-Language": ACCEPT[lang]})
        said(r, 409, taken[lang], "seat {seat} is not open: it is joined by its own link", {"seat": 1})
    # nothing changed
    assert api.get(f"/api/games/{gid}").json()["version"] == 0


def test_a_422_and_a_refused_text_in_each_language(people):
    ada = people("ada_i18n")
    gid, _ = create(ada)
    r = ada.http.post(f"/api/games/{gid}/chat?lang=fr", json={"text": "hi\x07"}, headers={"X-CSRF-Token": ada.csrf})
    said(
        r,
        400,
        "chat message : les caractères de contrôle ne sont pas autorisés",
        "{field}: control characters are not allowed",
        {"field": "chat message"},
    )
    r = ada.http.post(f"/api/games/{gid}/chat?lang=de", json={"text": "x" * 501}, headers={"X-CSRF-Token": ada.csrf})
    said(
        r,
        400,
        "eine Chatnachricht hat höchstens 500 Zeichen, nicht 501",
        "a chat message has at most {count} characters, not {length}",
        {"count": 500, "length": 501},
    )
    # pydantic's common problems in the language, with their key
    seats = {"game": "kingdom", "seats": "two"}
    for lang, detail in (
        ("fr", "seats : doit être une liste"),
        ("de", "seats: muss eine Liste sein"),
        ("en", "seats: must be a list"),
    ):
        said(
            ada.http.post(f"/api/games?lang={lang}", json=seats, headers={"X-CSRF-Token": ada.csrf}),
            422,
            detail,
            "{field}: {problem}",
            {"field": "seats", "problem": "must be a list"},
        )
    said(
        ada.http.post(
            "/api/games?lang=de",
            json={"game": "kingdom", "seats": [{"type": "human"}] * 9},
            headers={"X-CSRF-Token": ada.csrf},
        ),
        422,
        "seats: darf höchstens 4 Einträge haben",
        "{field}: {problem}",
        {"field": "seats", "problem": {"key": "must have at most {count} items", "params": {"count": 4}}},
    )
    # a choice among tags, with its choices
    r = ada.http.post(
        "/api/games?lang=fr",
        json={"game": "kingdom", "seats": [{"type": "robot"}] * 2},
        headers={"X-CSRF-Token": ada.csrf},
    )
    said(
        r,
        422,
        "seats.0 : type doit être l'un de 'human', 'bot', pas 'robot'",
        "{field}: {problem}",
        {
            "field": "seats.0",
            "problem": {
                "key": "{key} must be one of {expected}, not {tag}",
                "params": {"key": "type", "expected": ["'human'", "'bot'"], "tag": "'robot'"},
            },
        },
    )
    assert ada.http.get(f"/api/games/{gid}/chat").json() == []


def test_a_429_of_the_guard_in_each_language(tmp_path):
    app = make_app(tmp_path, limits=Limits(rates={**Limits().rates, "read": (3, 60.0)}))
    with ThreadServer(app) as srv, httpx.Client(base_url=srv.url) as client:
        for _ in range(3):
            assert client.get("/api/games").status_code == 200
        answers = {lang: client.get("/api/games", headers={"Accept-Language": ACCEPT[lang]}) for lang in ACCEPT}
        for lang, r in answers.items():
            assert r.status_code == 429 and r.headers["retry-after"].isdigit()
            wait = int(r.headers["retry-after"])
            assert r.json() == {
                "en": {"detail": f"too many read requests from your address: try again in {wait} s"},
                "de": {"detail": f"zu viele Leseanfragen von deiner Adresse: versuche es in {wait} s wieder"},
                "fr": {"detail": f"trop de requêtes de lecture depuis votre adresse : réessayez dans {wait} s"},
            }[lang] | {
                "code": "too many {kind} requests from your address: try again in {seconds} s",
                "params": {"kind": "read", "seconds": wait},
            }


# -- the account's language ---------------------------------------------------------------------
def put_language(person, language, **kw):
    headers = {"X-CSRF-Token": person.csrf} if person.csrf else {}
    return person.http.put("/api/account/language", json={"language": language}, headers=headers, **kw)


def test_the_account_setting_comes_after_the_query_and_the_cookie_and_before_accept_language(people):
    bea = people("bea_i18n")
    assert bea.get("/api/session").json()["account"]["language"] is None
    r = put_language(bea, "fr")
    assert r.status_code == 200 and r.json()["account"]["language"] == "fr"
    assert bea.get("/api/session").json()["account"]["language"] == "fr"
    no_token = {
        "en": "you have no API token 99999",
        "de": "du hast kein API-Token 99999",
        "fr": "vous n'avez pas de jeton d'API 99999",
    }

    def revoke(path="/api/account/tokens/99999", **headers):
        return bea.http.delete(path, headers={"X-CSRF-Token": bea.csrf, **headers})

    code, params = "you have no API token {token_id}", {"token_id": 99999}
    said(revoke(**{"Accept-Language": "de"}), 404, no_token["fr"], code, params)
    said(
        revoke(path="/api/account/tokens/99999?lang=en", **{"Accept-Language": "de"}), 404, no_token["en"], code, params
    )
    bea.http.cookies.set("lang", "de")
    said(revoke(), 404, no_token["de"], code, params)
    bea.http.cookies.delete("lang")
    # signing in again keeps it
    again = people()
    again.post("/api/session", json={"username": "bea_i18n", "password": "correct horse"})
    assert again.get("/api/session").json()["account"]["language"] == "fr"
    # back to the browser's
    assert put_language(bea, None).json()["account"]["language"] is None
    said(revoke(**{"Accept-Language": "de"}), 404, no_token["de"], code, params)
    said(revoke(), 404, no_token["en"], code, params)


def test_a_bad_language_or_a_request_without_an_account_or_csrf_changes_nothing(people, server):
    cy = people("cy_i18n")
    assert put_language(cy, "de").status_code == 200
    r = put_language(cy, "xx")
    assert r.status_code == 422 and r.json()["params"]["field"] == "language"
    r = cy.http.put("/api/account/language?lang=fr", json={"language": "en"})  # no CSRF token
    said(
        r,
        403,
        "cette requête doit porter le jeton CSRF de votre session dans l'en-tête X-CSRF-Token",
        "this request needs your session's CSRF token in the X-CSRF-Token header",
        {},
    )
    assert cy.get("/api/session").json()["account"]["language"] == "de"
    with httpx.Client(base_url=server.url) as nobody:
        said(
            nobody.put("/api/account/language", json={"language": "fr"}, headers={"Accept-Language": "fr"}),
            401,
            "connectez-vous ou jouez d'abord en invité",
            "sign in or play as a guest first",
            {},
        )
    # a guest keeps one too
    guest = people()
    assert put_language(guest, "fr").json()["account"] == {
        **guest.get("/api/session").json()["account"],
        "language": "fr",
    }


# -- the log ------------------------------------------------------------------------------------
TERRAIN = {
    "de": {"grass": "Gras", "canyon": "Schlucht", "desert": "Wüste", "flower": "Blumenfeld", "forest": "Wald"},
    "fr": {"grass": "prairie", "canyon": "canyon", "desert": "désert", "flower": "champ de fleurs", "forest": "forêt"},
}


def expected_kingdom(entry, lang):
    key, p = entry["key"], entry["params"]
    if key == "built a settlement on {hex}":
        return {
            "en": f"built a settlement on {p['hex']}",
            "de": f"baute eine Siedlung auf {p['hex']}",
            "fr": f"a construit une cité sur {p['hex']}",
        }[lang]
    if key == "ended the turn; seat {next} plays {terrain}":
        if lang == "en":
            return f"ended the turn; seat {p['next']} plays {p['terrain']}"
        return {
            "de": f"hat den Zug beendet; Platz {p['next']} spielt {TERRAIN['de'][p['terrain']]}",
            "fr": f"a fini son tour ; la place {p['next']} joue {TERRAIN['fr'][p['terrain']]}",
        }[lang]
    raise AssertionError(entry)


def play(api, gid, tokens, count):
    for _ in range(count):
        view = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]}).json()
        token = tokens[view["to_move"]]
        legal = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()["legal"]
        move = next((a for a in legal if a.startswith("build")), legal[0])
        assert (
            api.post(f"/api/games/{gid}/actions", json={"action": move}, headers={"X-Seat-Token": token}).status_code
            == 200
        )


def test_the_kingdom_builder_log_in_each_language_over_http_and_the_socket(api, server):
    gid, tokens = create(api, seed=11)
    play(api, gid, tokens, 8)  # two turns of three builds and an end
    logs = {
        lang: api.get(f"/api/games/{gid}/state", headers={"Accept-Language": ACCEPT[lang]}).json()["log"]
        for lang in ACCEPT
    }
    keys = [e["key"] for e in logs["en"]]
    assert (
        keys.count("built a settlement on {hex}") == 6
        and keys.count("ended the turn; seat {next} plays {terrain}") == 2
    )
    for lang, log in logs.items():
        # the same keys and parameters in every language, the text in the reader's
        assert [(e["n"], e["seat"], e["action"], e["key"], e["params"]) for e in log] == [
            (e["n"], e["seat"], e["action"], e["key"], e["params"]) for e in logs["en"]
        ]
        assert [e["text"] for e in log] == [expected_kingdom(e, lang) for e in log]
    end = next(e for e in logs["en"] if e["action"] == "end")
    assert end["params"]["next"] == 1 and end["params"]["terrain"] in TERRAIN["de"]
    # a socket in German gets the same German log, and its errors in German with their key
    with connect(f"{server.ws_url}/ws/games/{gid}?lang=de") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        state = json.loads(ws.recv(timeout=10))
        assert state["type"] == "state" and state["log"] == logs["de"]
        ws.send("not json")
        assert json.loads(ws.recv(timeout=10)) == {
            "type": "error",
            "code": 400,
            "message": 'eine Nachricht muss ein JSON-Objekt sein, zum Beispiel {"type": "ping"}',
            "key": 'a message must be a JSON object, for example {{"type": "ping"}}',
            "params": {},
        }
    with connect(f"{server.ws_url}/ws/games/{gid}", additional_headers={"Accept-Language": "fr"}) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=10))["log"] == logs["fr"]
        ws.send(json.dumps({"type": "action", "action": "end"}))
        assert (
            json.loads(ws.recv(timeout=10))["message"]
            == "un spectateur ne peut pas jouer : envoyez d'abord hello avec un jeton de place"
        )


def test_the_builders_log_in_each_language(api):
    gid, tokens = create(api, game="middle-ages", seed=4)
    headers = {"X-Seat-Token": tokens[0]}
    for action in ("coins 1", "coins 2"):
        assert api.post(f"/api/games/{gid}/actions", json={"action": action}, headers=headers).status_code == 200
    texts = {lang: [e["text"] for e in api.get(f"/api/games/{gid}/state?lang={lang}").json()["log"]] for lang in ACCEPT}
    assert texts == {
        "en": ["took 1 coins for 1 action", "took 3 coins for 2 actions"],
        "de": ["nahm 1 Münze für 1 Aktion", "nahm 3 Münzen für 2 Aktionen"],
        "fr": ["a pris 1 écu pour 1 action", "a pris 3 écus pour 2 actions"],
    }
    log = api.get(f"/api/games/{gid}/state").json()["log"]
    assert [(e["key"], e["params"]) for e in log] == [
        ("took {coins} coins for 1 action", {"coins": 1}),
        ("took {coins} coins for {actions} actions", {"coins": 3, "actions": 2}),
    ]


# -- the engines' own refusals --------------------------------------------------------------------
def test_an_illegal_kingdom_builder_action_is_refused_in_each_language_over_http_and_the_socket(api, server):
    gid, tokens = create(api, seed=3)
    seat0 = {"X-Seat-Token": tokens[0]}
    wrong_terrain = {
        "en": "hex 0,0 is not grass (the played terrain)",
        "de": "Feld 0,0 hat nicht das gespielte Gelände Gras",
        "fr": "la case 0,0 n'est pas du terrain joué (prairie)",
    }
    too_early = {
        "en": "you must build 3 settlements before ending the turn",
        "de": "du musst 3 Siedlungen bauen, bevor du den Zug beendest",
        "fr": "vous devez construire 3 cités avant de finir le tour",
    }
    no_tile = {
        "en": "you have no paddock tile",
        "de": "du hast kein Koppel-Plättchen",
        "fr": "vous n'avez pas de tuile Enclos",
    }
    for lang in ("en", "de", "fr"):
        headers = {**seat0, "Accept-Language": ACCEPT[lang]}
        said(
            api.post(f"/api/games/{gid}/actions", json={"action": "build 0,0"}, headers=headers),
            400,
            wrong_terrain[lang],
            "hex {hex} is not {terrain} (the played terrain)",
            {"hex": "0,0", "terrain": "grass"},
        )
        said(
            api.post(f"/api/games/{gid}/actions?lang={lang}", json={"action": "end"}, headers=seat0),
            400,
            too_early[lang],
            "you must build {need} settlements before ending the turn",
            {"need": 3},
        )
        said(
            api.post(f"/api/games/{gid}/actions", json={"action": "paddock 1,1>1,3"}, headers=headers),
            400,
            no_tile[lang],
            "you have no {tile} tile",
            {"tile": "paddock"},
        )
    # a seat's socket in German: the same refusal, in German, with its key
    with connect(f"{server.ws_url}/ws/games/{gid}?lang=de") as ws:
        assert socket_refusal(ws, tokens[0], "build 0,0") == {
            "type": "error",
            "code": 400,
            "message": wrong_terrain["de"],
            "key": "hex {hex} is not {terrain} (the played terrain)",
            "params": {"hex": "0,0", "terrain": "grass"},
        }
    # nothing changed
    assert api.get(f"/api/games/{gid}").json()["version"] == 0


def test_an_illegal_action_of_the_builders_is_refused_in_each_language(api):
    gid, tokens = create(api, game="middle-ages", seed=3)
    seat0 = {"X-Seat-Token": tokens[0]}
    row = api.get(f"/api/games/{gid}/state", headers=seat0).json()
    remaining = {
        "en": "you must spend your 3 remaining actions before ending the turn",
        "de": "du musst deine 3 verbleibenden Aktionen ausgeben, bevor du den Zug beendest",
        "fr": "il vous faut dépenser 3 actions restantes avant de finir le tour",
    }
    crew = {
        "en": "W01 is not in your crew",
        "de": "W01 gehört nicht zu deiner Mannschaft",
        "fr": "W01 n'est pas dans votre équipe",
    }
    for lang in ("en", "de", "fr"):
        said(
            api.post(f"/api/games/{gid}/actions?lang={lang}", json={"action": "end"}, headers=seat0),
            400,
            remaining[lang],
            "you must spend your {actions} before ending the turn",
            {"actions": {"key": "{n} remaining actions", "params": {"n": 3}}},
        )
        said(
            api.post(f"/api/games/{gid}/actions?lang={lang}", json={"action": "send W01 B01"}, headers=seat0),
            400,
            crew[lang],
            "{card} is not in your crew",
            {"card": "W01"},
        )
    assert api.get(f"/api/games/{gid}/state", headers=seat0).json() == row  # nothing changed
    # a site opened and every action spent: sending a worker there lacks an action
    site, worker = row["view"]["building_row"][0], row["view"]["players"][0]["crew"][0]
    for action in (f"open {site}", "coins 2"):
        assert api.post(f"/api/games/{gid}/actions", json={"action": action}, headers=seat0).status_code == 200
    send = f"send {worker} {site}"
    lacking = {
        "en": f"{send} costs 1 action and 2 coins; you have 0 actions",
        "de": f"{send} kostet 1 Aktion und 2 Münzen; du hast 0 Aktionen",
        "fr": f"{send} coûte 1 action et 2 écus ; vous avez 0 actions",
    }
    for lang in ("en", "de", "fr"):
        said(
            api.post(f"/api/games/{gid}/actions?lang={lang}", json={"action": send}, headers=seat0),
            400,
            lacking[lang],
            "{action} costs {actions} and {coins}; you have {lacking}",
            {
                "action": send,
                "actions": {"key": "{n} action", "params": {"n": 1}},
                "coins": {"key": "{n} coins", "params": {"n": 2}},
                "lacking": {"key": "{n} actions", "params": {"n": 0}},
            },
        )


# -- the reasons a socket is closed -------------------------------------------------------------
def closed_reason(ws) -> tuple[int, str]:
    """The code and reason of the server's close of ``ws``."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None, "the socket was not closed by the server"
    return closed.value.rcvd.code, closed.value.rcvd.reason


def hello_as_seat_0(ws) -> None:
    ws.send(json.dumps({"type": "hello", "token": None}))
    assert json.loads(ws.recv(timeout=10))["seat"] == 0


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("?lang=de", "du hast dich abgemeldet"),
        ("account fr", "vous vous êtes déconnecté"),
        ("", "you signed out"),
    ],
)
def test_signing_out_closes_the_socket_with_its_reason_in_the_socket_s_language(people, server, how, reason):
    dee = people(f"dee_close_{len(how)}")
    if how == "account fr":
        assert put_language(dee, "fr").status_code == 200
    gid, _ = create(dee)
    cookie = "; ".join(f"{name}={value}" for name, value in dee.http.cookies.items())
    query = how if how.startswith("?") else ""
    with connect(f"{server.ws_url}/ws/games/{gid}{query}", additional_headers={"Cookie": cookie}) as ws:
        hello_as_seat_0(ws)
        assert dee.delete("/api/session").status_code == 204
        assert closed_reason(ws) == (4401, reason)


def test_revoking_a_token_closes_its_socket_in_german(people, server):
    eve = people("eve_close")
    r = eve.post("/api/account/tokens", json={"name": "bot"})
    assert r.status_code == 201, r.text
    token, token_id = r.json()["token"], r.json()["id"]
    gid, _ = create(eve)
    with connect(
        f"{server.ws_url}/ws/games/{gid}",
        additional_headers={"Authorization": f"Bearer {token}", "Accept-Language": "de"},
    ) as ws:
        hello_as_seat_0(ws)
        assert eve.delete(f"/api/account/tokens/{token_id}").status_code == 204
        assert closed_reason(ws) == (4401, "das persönliche API-Token wurde widerrufen")


def test_a_close_reason_is_cut_to_whole_characters_within_the_frame():
    from builders.core.messages import verbatim
    from builders.server.ws import MAX_REASON, close_reason

    long = verbatim("é" * 100)  # 200 bytes
    assert close_reason(long, "fr") == "é" * 61 and len(close_reason(long, "fr").encode()) <= MAX_REASON
    assert close_reason(None, "de") == ""


def test_a_setup_the_game_refuses_in_each_language(api):
    needs = {
        "en": "the custom setup needs 4 sections and 3 cards",
        "de": "der Modus „custom“ (Auswählen) braucht 4 Spielplanteile und 3 Karten",
        "fr": "le mode « custom » (Choisir) demande 4 plateaux et 3 cartes",
    }
    before = api.get("/api/games").json()
    for lang in ("en", "de", "fr"):
        r = api.post(
            f"/api/games?lang={lang}",
            json={"game": "kingdom", "seats": [{"type": "human"}] * 2, "setup": {"mode": "custom", "seed": 1}},
        )
        said(r, 400, needs[lang], "the custom setup needs 4 sections and 3 cards", {})
    assert api.get("/api/games").json() == before  # no game was made
