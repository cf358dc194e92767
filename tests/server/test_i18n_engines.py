"""The engines' own refusals in the reader's language, over real HTTP and sockets: an action text that is
not written in the game's notation, a setup the game's checks refuse, and the rarer problems of a
malformed request. Each is asked in German and in French, once by ``Accept-Language`` and once by the
account's setting, and answers with the exact text, its key and its parameters; nothing changes."""

from __future__ import annotations

import itertools
from typing import Annotated

import pytest
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from websockets.sync.client import connect

from tests.server.conftest import make_app
from tests.server.test_i18n import ACCEPT, create, put_language, said, socket_refusal

NUMBERS = itertools.count()
SECTIONS = "oracle, farm, oasis, tower, tavern, barn, harbor, paddock"


def asker(people, api, lang, how):
    """What sends a request in ``lang``: a client by its Accept-Language header, or a signed-in account
    whose language is set (and whose browser asks for English)."""
    if how == "header":
        return api, {"Accept-Language": ACCEPT[lang]}
    person = people(f"speaker_{lang}_{next(NUMBERS)}")
    assert put_language(person, lang).status_code == 200
    return person.http, {"Accept-Language": ACCEPT["en"], "X-CSRF-Token": person.csrf}


# (action, key, params, German, French)
KINGDOM = [
    (
        "build 3",
        "{text!r} is not a hex (expected R,C, for example 3,7)",
        {"text": "3"},
        "'3' ist kein Feld (erwartet R,C, zum Beispiel 3,7)",
        "'3' n'est pas une case (attendu R,C, par exemple 3,7)",
    ),
    (
        "build 25,3",
        "hex {hex} is off the map",
        {"hex": "25,3"},
        "Feld 25,3 liegt außerhalb des Spielplans",
        "la case 25,3 est hors de la carte",
    ),
    (
        "fly 1,1",
        '"{text}" is not an action (expected build, oracle, farm, oasis, tower, tavern, barn, harbor, paddock or end)',
        {"text": "fly 1,1"},
        "„fly 1,1“ ist keine Aktion (erwartet: build, oracle, farm, oasis, tower, tavern, barn, harbor, paddock oder end)",
        "« fly 1,1 » n'est pas une action (attendu : build, oracle, farm, oasis, tower, tavern, barn, harbor, paddock "
        "ou end)",
    ),
    (
        "end now",
        '"end" takes nothing after it, not {rest!r}',
        {"rest": "now"},
        "nach „end“ kommt nichts, nicht 'now'",
        "« end » ne prend rien après lui, pas 'now'",
    ),
    (
        "tower",
        '"{verb}" needs a hex: {verb} {form}',
        {"verb": "tower", "form": "R,C"},
        "„tower“ braucht ein Feld: tower R,C",
        "« tower » demande une case : tower R,C",
    ),
    (
        "barn 1,1",
        '"{verb}" moves a settlement: {verb} R,C>R,C (from > to), not {rest!r}',
        {"verb": "barn", "rest": "1,1"},
        "„barn“ versetzt eine Siedlung: barn R,C>R,C (von > nach), nicht '1,1'",
        "« barn » déplace une cité : barn R,C>R,C (de > vers), pas '1,1'",
    ),
    (
        "oracle 1,1>2,2",
        '"{verb}" builds on one hex: {verb} R,C, not {rest!r}',
        {"verb": "oracle", "rest": "1,1>2,2"},
        "„oracle“ baut auf ein Feld: oracle R,C, nicht '1,1>2,2'",
        "« oracle » construit sur une case : oracle R,C, pas '1,1>2,2'",
    ),
]

BUILDERS = [
    (
        "recruit B01",
        "{card} is a building, not a worker",
        {"card": "B01"},
        "B01 ist ein Gebäude, kein Arbeiter",
        "B01 est un bâtiment, pas un ouvrier",
    ),
    (
        "recruit M2",
        "{card} is a machine, not a worker",
        {"card": "M2"},
        "M2 ist eine Maschine, kein Arbeiter",
        "M2 est une machine, pas un ouvrier",
    ),
    (
        "send B01 B07",
        "{card} is a building, not a worker or a machine",
        {"card": "B01"},
        "B01 ist ein Gebäude, kein Arbeiter und keine Maschine",
        "B01 est un bâtiment, ni un ouvrier ni une machine",
    ),
    (
        "open W03",
        "{card} is a worker, not a building or a machine",
        {"card": "W03"},
        "W03 ist ein Arbeiter, kein Gebäude und keine Maschine",
        "W03 est un ouvrier, ni un bâtiment ni une machine",
    ),
    (
        "open W99",
        "{text} is not a card id (workers W01-W42, buildings B01-B34, machines M1-M8)",
        {"text": "'W99'"},
        "'W99' ist keine Karten-ID (Arbeiter W01-W42, Gebäude B01-B34, Maschinen M1-M8)",
        "'W99' n'est pas un identifiant de carte (ouvriers W01-W42, bâtiments B01-B34, machines M1-M8)",
    ),
    (
        "coins 9",
        "coins takes the number of actions to spend: coins 1 (1 coin), coins 2 (3 coins) or coins 3 (6 coins)",
        {},
        "coins nimmt die Zahl der Aktionen, die du ausgibst: coins 1 (1 Münze), coins 2 (3 Münzen) oder coins 3 "
        "(6 Münzen)",
        "coins prend le nombre d'actions à dépenser : coins 1 (1 écu), coins 2 (3 écus) ou coins 3 (6 écus)",
    ),
    (
        "open",
        "open takes one building or machine of the row, e.g. open B07",
        {},
        "open nimmt ein Gebäude oder eine Maschine der Auslage, z. B. open B07",
        "open prend un bâtiment ou une machine de la rangée, par exemple open B07",
    ),
    (
        "recruit",
        "recruit takes one worker of the row, e.g. recruit W12",
        {},
        "recruit nimmt einen Arbeiter der Auslage, z. B. recruit W12",
        "recruit prend un ouvrier de la rangée, par exemple recruit W12",
    ),
    (
        "send W01",
        "send takes a worker (or a completed machine) and one of your sites, e.g. send W12 B07",
        {},
        "send nimmt einen Arbeiter (oder eine fertige Maschine) und eine deiner Baustellen, z. B. send W12 B07",
        "send prend un ouvrier (ou une machine achevée) et un de vos chantiers, par exemple send W12 B07",
    ),
    (
        "buy 2",
        "{verb} takes no argument: write just {verb}",
        {"verb": "buy"},
        "buy nimmt kein Argument: schreib nur buy",
        "buy ne prend pas d'argument : écrivez seulement buy",
    ),
    (
        "dance",
        '"{text}" is not an action (expected open, recruit, send, coins, buy or end)',
        {"text": "dance"},
        "„dance“ ist keine Aktion (erwartet: open, recruit, send, coins, buy oder end)",
        "« dance » n'est pas une action (attendu : open, recruit, send, coins, buy ou end)",
    ),
]


@pytest.mark.parametrize("how", ["header", "account"])
@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize(("game", "cases"), [("kingdom", KINGDOM), ("middle-ages", BUILDERS)])
def test_an_action_not_in_the_game_s_notation_is_refused_in_the_reader_s_language(people, api, lang, how, game, cases):
    client, headers = asker(people, api, lang, how)
    gid, tokens = create(client if how == "header" else _Csrf(client, headers), game=game)
    if tokens[0]:
        headers = {**headers, "X-Seat-Token": tokens[0]}
    before = client.get(f"/api/games/{gid}/state", headers=headers).json()
    for action, key, params, de, fr in cases:
        said(
            client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=headers),
            400,
            {"de": de, "fr": fr}[lang],
            key,
            params,
        )
    assert client.get(f"/api/games/{gid}/state", headers=headers).json() == before  # nothing changed


class _Csrf:
    """A signed-in person's client that sends its CSRF token with each change."""

    def __init__(self, client, headers):
        self.client, self.headers = client, headers

    def post(self, path, json=None):
        return self.client.post(path, json=json, headers=self.headers)


def test_a_malformed_action_on_a_seat_s_socket_in_french(api, server):
    gid, tokens = create(api)
    with connect(f"{server.ws_url}/ws/games/{gid}", additional_headers={"Accept-Language": ACCEPT["fr"]}) as ws:
        assert socket_refusal(ws, tokens[0], "build 25,3") == {
            "type": "error",
            "code": 400,
            "message": "la case 25,3 est hors de la carte",
            "key": "hex {hex} is off the map",
            "params": {"hex": "25,3"},
        }
    assert api.get(f"/api/games/{gid}").json()["version"] == 0


# -- a setup the game's checks refuse ---------------------------------------------------------------
def custom(sections, cards):
    return {
        "game": "kingdom",
        "seats": [{"type": "human"}] * 2,
        "setup": {"mode": "custom", "sections": sections, "cards": cards},
    }


GOOD_SECTIONS = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
GOOD_CARDS = ["fishermen", "merchants", "knights"]
SETUPS = [
    (
        custom([["nowhere", False], *GOOD_SECTIONS[1:]], GOOD_CARDS),
        "unknown section name {value} in slot {slot} (the sections are {names})",
        {"value": "'nowhere'", "slot": 0, "names": SECTIONS},
        f"unbekanntes Spielplanteil 'nowhere' an Stelle 0 (die Spielplanteile sind {SECTIONS})",
        f"plateau inconnu 'nowhere' à l'emplacement 0 (les plateaux sont {SECTIONS})",
    ),
    (
        custom([*GOOD_SECTIONS[:3], ["tavern", True]], GOOD_CARDS),
        "duplicate section {name!r}: the map needs 4 different sections",
        {"name": "tavern"},
        "doppeltes Spielplanteil 'tavern': der Spielplan braucht 4 verschiedene Teile",
        "plateau 'tavern' en double : la carte demande 4 plateaux différents",
    ),
    (
        custom(GOOD_SECTIONS, ["fishermen", "wizards", "knights"]),
        "unknown card {value} (the cards are {names})",
        {
            "value": "'wizards'",
            "names": "fishermen, miners, merchants, workers, discoverers, knights, hermits, lords, citizens, farmers",
        },
        "unbekannte Karte 'wizards' (die Karten sind fishermen, miners, merchants, workers, discoverers, knights, "
        "hermits, lords, citizens, farmers)",
        "carte inconnue 'wizards' (les cartes sont fishermen, miners, merchants, workers, discoverers, knights, "
        "hermits, lords, citizens, farmers)",
    ),
    (
        custom(GOOD_SECTIONS, ["knights", "fishermen", "knights"]),
        "duplicate card {name!r}: the game uses 3 different cards",
        {"name": "knights"},
        "doppelte Karte 'knights': die Partie nutzt 3 verschiedene Karten",
        "carte 'knights' en double : la partie utilise 3 cartes différentes",
    ),
]


@pytest.mark.parametrize("how", ["header", "account"])
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_setup_the_game_s_checks_refuse_in_the_reader_s_language(people, api, lang, how):
    client, headers = asker(people, api, lang, how)
    before = api.get("/api/games").json()
    for body, key, params, de, fr in SETUPS:
        said(client.post("/api/games", json=body, headers=headers), 400, {"de": de, "fr": fr}[lang], key, params)
    assert api.get("/api/games").json() == before  # no game was made


# -- the rarer problems of a malformed request --------------------------------------------------------
TWO = [{"type": "human"}, {"type": "human"}]
# (method, path, raw JSON body, status, field, key, params, German problem, French problem)
MALFORMED = [
    (
        "post",
        "/api/games",
        {"game": "kingdom", "seats": [{"type": "robot"}] * 2},
        422,
        "seats.0",
        "{key} must be one of {expected}, not {tag}",
        {"key": "type", "expected": ["'human'", "'bot'"], "tag": "'robot'"},
        "type muss eines von 'human', 'bot' sein, nicht 'robot'",
        "type doit être l'un de 'human', 'bot', pas 'robot'",
    ),
    (
        "post",
        "/api/games",
        {"game": "kingdom", "seats": [{}, {}]},
        422,
        "seats.0",
        "needs the field {key}",
        {"key": "type"},
        "braucht das Feld type",
        "demande le champ type",
    ),
    (
        "post",
        "/api/games",
        {"game": "kingdom", "seats": TWO, "resign_bot": "lazy"},
        422,
        "resign_bot",
        "must be one of {expected}",
        {"expected": ["'easy'", "'medium'", "'hard'", "'expert'"]},
        "muss eines von 'easy', 'medium', 'hard', 'expert' sein",
        "doit être l'un de 'easy', 'medium', 'hard', 'expert'",
    ),
    (
        "post",
        "/api/games",
        {"game": "chess", "seats": TWO},
        422,
        "game",
        "unknown game {game} (the games are {games})",
        {"game": "'chess'", "games": "kingdom, middle-ages"},
        "unbekanntes Spiel 'chess' (die Spiele sind kingdom, middle-ages)",
        "jeu inconnu 'chess' (les jeux sont kingdom, middle-ages)",
    ),
    (
        "post",
        "/api/games",
        '{"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}], "name": "\\udc00"}',
        422,
        "name",
        "must be valid Unicode text",
        {},
        "muss gültiger Unicode-Text sein",
        "doit être un texte Unicode valide",
    ),
    (
        "get",
        "/api/games/bad.id",
        None,
        422,
        "path.game_id",
        "does not have the expected form {pattern}",
        {"pattern": "^[A-Za-z0-9_-]{1,40}$"},
        "hat nicht die erwartete Form ^[A-Za-z0-9_-]{1,40}$",
        "n'a pas la forme attendue ^[A-Za-z0-9_-]{1,40}$",
    ),
    (
        "get",
        "/api/games?status=later",
        None,
        422,
        "query.status",
        "must be one of {expected}",
        {"expected": ["'open'", "'running'", "'finished'"]},
        "muss eines von 'open', 'running', 'finished' sein",
        "doit être l'un de 'open', 'running', 'finished'",
    ),
    # a setup's form is checked with the game's schema, and refused with 400
    (
        "post",
        "/api/games",
        {"game": "kingdom", "seats": TWO, "setup": {"mode": "chosen"}},
        400,
        "setup.mode",
        "must be one of {expected}",
        {"expected": ["'first'", "'random'", "'custom'"]},
        "muss eines von 'first', 'random', 'custom' sein",
        "doit être l'un de 'first', 'random', 'custom'",
    ),
    (
        "post",
        "/api/games",
        {
            "game": "kingdom",
            "seats": TWO,
            "setup": {"mode": "custom", "sections": [1, 2, 3, 4], "cards": ["a", "b", "c"]},
        },
        400,
        "setup.sections.0",
        "must be a list",
        {},
        "muss eine Liste sein",
        "doit être une liste",
    ),
    (
        "post",
        "/api/games",
        {"game": "kingdom", "seats": TWO, "setup": {"seed": -1}},
        400,
        "setup.seed",
        "must be at least {limit}",
        {"limit": 0},
        "muss mindestens 0 sein",
        "doit valoir au moins 0",
    ),
]


def send(client, method, path, body, headers):
    if isinstance(body, str):  # raw JSON, as a program may write it
        return client.request(
            method, path, content=body.encode(), headers={**headers, "Content-Type": "application/json"}
        )
    return client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize("how", ["header", "account"])
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_rarer_problems_of_a_request_in_the_reader_s_language(people, api, lang, how):
    client, headers = asker(people, api, lang, how)
    before = api.get("/api/games").json()
    frame = {"de": "{field}: {problem}", "fr": "{field} : {problem}"}[lang]
    for method, path, body, status, field, key, params, de, fr in MALFORMED:
        problem = {"key": key, "params": params} if params else key
        if status == 422:
            said(
                send(client, method, path, body, headers),
                422,
                frame.format(field=field, problem={"de": de, "fr": fr}[lang]),
                "{field}: {problem}",
                {"field": field, "problem": problem},
            )
        else:  # the setup's refusal is the message itself, its problem nested
            r = send(client, method, path, body, headers)
            assert (r.status_code, r.json()["detail"]) == (
                400,
                frame.format(field=field, problem={"de": de, "fr": fr}[lang]),
            )
            assert (r.json()["code"], r.json()["params"]) == (
                "{field}: {problem}",
                {"field": field, "problem": problem},
            )
    assert api.get("/api/games").json() == before  # no game was made


def _routes(routes):
    """The API routes of an application, those of its included routers too."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _routes(inner.routes)
        elif isinstance(route, APIRoute):
            yield route


#: values of every JSON type and shape, and a few texts, numbers and objects that are wrong in some place
PROBES = [
    None,
    True,
    0,
    -1,
    2**70,
    1.5,
    float("inf"),
    "",
    "x",
    "-",
    "!!",
    "2",
    "1.5",
    "x" * 5000,
    "\ud800",
    [],
    [1],
    [{}],
    ["a"] * 9,
    [["a", "b", "c"]],
    [{"type": "robot"}],
    {},
    {"a": 1},
    {"type": "robot"},
]


def test_every_problem_a_client_can_cause_in_a_request_has_its_own_message(tmp_path):
    """Each field of each request body, path and query parameter and game setup, given every probe: every
    error pydantic finds is one the messages name (none is left as pydantic's English, nor only "is not
    valid")."""
    from builders.core.games import game_names
    from builders.server.messages import validation_problem
    from builders.server.schemas import setup_model

    app = make_app(tmp_path)
    found: dict[str, str] = {}

    def look(validate, where):
        for value in PROBES:
            try:
                validate(value)
            except ValidationError as e:
                for error in e.errors():
                    found.setdefault(error["type"], where)
                    problem = validation_problem(error)
                    assert problem.key != "is not valid", (where, value, error)

    def fields(model, where):
        look(model.model_validate, where)
        for name in model.model_fields:
            look(lambda value, name=name: model.model_validate({name: value}), f"{where}.{name}")

    for route in _routes(app.routes):
        if route.body_field is not None and hasattr(route.body_field.field_info.annotation, "model_fields"):
            fields(route.body_field.field_info.annotation, route.path)
        for param in route.dependant.query_params + route.dependant.path_params:
            info = param.field_info
            kind = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
            look(TypeAdapter(kind).validate_python, f"{route.path} {param.name}")
    for game in game_names():
        fields(setup_model(game), f"setup of {game}")
    # the probes reach the kinds of problem the models have (a new kind of field adds its own)
    assert {
        "missing",
        "extra_forbidden",
        "literal_error",
        "union_tag_invalid",
        "union_tag_not_found",
        "string_pattern_mismatch",
        "too_long",
        "too_short",
        "less_than_equal",
        "greater_than_equal",
        "finite_number",
        "string_unicode",
        "tuple_type",
        "unknown_game",
    } <= set(found), found


# -- numbers, durations and moments in the reader's locale ---------------------------------------------
@pytest.mark.parametrize(
    ("lang", "detail"),
    [
        ("en", "the request body is too large: at most 16384 bytes"),
        ("de", "der Inhalt der Anfrage ist zu groß: höchstens 16.384 Bytes"),
        ("fr", "le corps de la requête est trop grand : au plus 16\u202f384 octets"),  # a narrow no-break space
    ],
)
def test_a_number_in_a_refusal_is_written_the_reader_s_way(api, lang, detail):
    before = api.get("/api/games").json()
    for how in ({"Accept-Language": ACCEPT[lang]}, {"Cookie": f"lang={lang}"}):
        r = api.post("/api/games", content=b"x" * (16 * 1024 + 1), headers={"Content-Type": "application/json", **how})
        said(r, 413, detail, "the request body is too large: at most {count} bytes", {"count": 16384})
    assert api.get("/api/games").json() == before


@pytest.mark.parametrize(
    ("lang", "bound"),
    [("de", "4.611.686.018.427.387.904"), ("fr", "4\u202f611\u202f686\u202f018\u202f427\u202f387\u202f904")],
)
def test_a_bound_of_a_request_is_written_the_way_of_the_account_s_language(people, lang, bound):
    person = people(f"bound_{lang}_{next(NUMBERS)}")
    assert put_language(person, lang).status_code == 200
    r = person.post("/api/games", json={"game": "kingdom", "seats": TWO, "setup": {"seed": 2**63}})
    field = {"de": "setup.seed: darf höchstens {bound} sein", "fr": "setup.seed : doit valoir au plus {bound}"}[lang]
    assert (r.status_code, r.json()["detail"]) == (400, field.format(bound=bound))
    assert r.json()["params"]["problem"] == {"key": "must be at most {limit}", "params": {"limit": 2**62}}


def test_durations_moments_and_identifiers_in_each_language():
    from builders.core.messages import Message, duration, moment
    from builders.server.messages import translate

    said = Message(
        "{who} waited {wait} until {at}: {count} points, {share:g} each, token {token_id}, version {version}",
        {
            "who": "Ada",
            "wait": duration(90),
            "at": moment(1796051040),
            "count": 12345,
            "share": 2.5,
            "token_id": 99999,
            "version": 1234,
        },
    )
    assert str(said) == (
        "Ada waited 90 s until 2026-11-30 15:04:00 UTC: 12345 points, 2.5 each, token 99999, version 1234"
    )
    assert translate(said, "en") == (
        "Ada waited 2 minutes until Nov 30, 2026, 3:04:00\u202fPM: 12345 points, 2.5 each, token 99999, version 1234"
    )
    assert translate(said, "de") == (
        "Ada waited 2 Minuten until 30.11.2026, 15:04:00: 12.345 points, 2,5 each, token 99999, version 1234"
    )
    assert translate(said, "fr") == (
        "Ada waited 2 minutes until 30 nov. 2026, 15:04:00: 12\u202f345 points, 2,5 each, token 99999, version 1234"
    )
    # programs get the numbers themselves
    assert said.data()["params"] == {
        "who": "Ada",
        "wait": 90,
        "at": 1796051040,
        "count": 12345,
        "share": 2.5,
        "token_id": 99999,
        "version": 1234,
    }
