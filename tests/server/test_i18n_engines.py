"""The engines' own refusals in the reader's language, over real HTTP and sockets: an action text that is
not written in the game's notation, a setup the game's checks refuse, and the rarer problems of a
malformed request. Each is asked in German and in French, once by ``Accept-Language`` and once by the
account's setting, and answers with the exact text, its key and its parameters; nothing changes."""

from __future__ import annotations

import itertools

import pytest
from websockets.sync.client import connect

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
    ("build 3", "{text!r} is not a hex (expected R,C, for example 3,7)", {"text": "3"},
     "'3' ist kein Feld (erwartet R,C, zum Beispiel 3,7)", "'3' n'est pas une case (attendu R,C, par exemple 3,7)"),
    ("build 25,3", "hex {hex} is off the map", {"hex": "25,3"},
     "Feld 25,3 liegt außerhalb des Spielplans", "la case 25,3 est hors de la carte"),
    ("fly 1,1",
     '"{text}" is not an action (expected build, oracle, farm, oasis, tower, tavern, barn, harbor, paddock or end)',
     {"text": "fly 1,1"},
     "„fly 1,1“ ist keine Aktion (erwartet: build, oracle, farm, oasis, tower, tavern, barn, harbor, paddock oder end)",
     "« fly 1,1 » n'est pas une action (attendu : build, oracle, farm, oasis, tower, tavern, barn, harbor, paddock "
     "ou end)"),
    ("end now", '"end" takes nothing after it, not {rest!r}', {"rest": "now"},
     "nach „end“ kommt nichts, nicht 'now'", "« end » ne prend rien après lui, pas 'now'"),
    ("tower", '"{verb}" needs a hex: {verb} {form}', {"verb": "tower", "form": "R,C"},
     "„tower“ braucht ein Feld: tower R,C", "« tower » demande une case : tower R,C"),
    ("barn 1,1", '"{verb}" moves a settlement: {verb} R,C>R,C (from > to), not {rest!r}',
     {"verb": "barn", "rest": "1,1"},
     "„barn“ versetzt eine Siedlung: barn R,C>R,C (von > nach), nicht '1,1'",
     "« barn » déplace une cité : barn R,C>R,C (de > vers), pas '1,1'"),
    ("oracle 1,1>2,2", '"{verb}" builds on one hex: {verb} R,C, not {rest!r}', {"verb": "oracle", "rest": "1,1>2,2"},
     "„oracle“ baut auf ein Feld: oracle R,C, nicht '1,1>2,2'",
     "« oracle » construit sur une case : oracle R,C, pas '1,1>2,2'"),
]

BUILDERS = [
    ("recruit B01", "{card} is a building, not a worker", {"card": "B01"},
     "B01 ist ein Gebäude, kein Arbeiter", "B01 est un bâtiment, pas un ouvrier"),
    ("recruit M2", "{card} is a machine, not a worker", {"card": "M2"},
     "M2 ist eine Maschine, kein Arbeiter", "M2 est une machine, pas un ouvrier"),
    ("send B01 B07", "{card} is a building, not a worker or a machine", {"card": "B01"},
     "B01 ist ein Gebäude, kein Arbeiter und keine Maschine", "B01 est un bâtiment, ni un ouvrier ni une machine"),
    ("open W03", "{card} is a worker, not a building or a machine", {"card": "W03"},
     "W03 ist ein Arbeiter, kein Gebäude und keine Maschine", "W03 est un ouvrier, ni un bâtiment ni une machine"),
    ("open W99", "{text} is not a card id (workers W01-W42, buildings B01-B34, machines M1-M8)", {"text": "'W99'"},
     "'W99' ist keine Karten-ID (Arbeiter W01-W42, Gebäude B01-B34, Maschinen M1-M8)",
     "'W99' n'est pas un identifiant de carte (ouvriers W01-W42, bâtiments B01-B34, machines M1-M8)"),
    ("coins 9", "coins takes the number of actions to spend: coins 1 (1 coin), coins 2 (3 coins) or coins 3 (6 coins)",
     {}, "coins nimmt die Zahl der Aktionen, die du ausgibst: coins 1 (1 Münze), coins 2 (3 Münzen) oder coins 3 "
         "(6 Münzen)",
     "coins prend le nombre d'actions à dépenser : coins 1 (1 écu), coins 2 (3 écus) ou coins 3 (6 écus)"),
    ("open", "open takes one building or machine of the row, e.g. open B07", {},
     "open nimmt ein Gebäude oder eine Maschine der Auslage, z. B. open B07",
     "open prend un bâtiment ou une machine de la rangée, par exemple open B07"),
    ("recruit", "recruit takes one worker of the row, e.g. recruit W12", {},
     "recruit nimmt einen Arbeiter der Auslage, z. B. recruit W12",
     "recruit prend un ouvrier de la rangée, par exemple recruit W12"),
    ("send W01", "send takes a worker (or a completed machine) and one of your sites, e.g. send W12 B07", {},
     "send nimmt einen Arbeiter (oder eine fertige Maschine) und eine deiner Baustellen, z. B. send W12 B07",
     "send prend un ouvrier (ou une machine achevée) et un de vos chantiers, par exemple send W12 B07"),
    ("buy 2", "{verb} takes no argument: write just {verb}", {"verb": "buy"},
     "buy nimmt kein Argument: schreib nur buy", "buy ne prend pas d'argument : écrivez seulement buy"),
    ("dance", '"{text}" is not an action (expected open, recruit, send, coins, buy or end)', {"text": "dance"},
     "„dance“ ist keine Aktion (erwartet: open, recruit, send, coins, buy oder end)",
     "« dance » n'est pas une action (attendu : open, recruit, send, coins, buy ou end)"),
]


@pytest.mark.parametrize("how", ["header", "account"])
@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize(("game", "cases"), [("kingdom", KINGDOM), ("middle-ages", BUILDERS)])
def test_an_action_not_in_the_game_s_notation_is_refused_in_the_reader_s_language(people, api, lang, how, game,
                                                                                   cases):
    client, headers = asker(people, api, lang, how)
    gid, tokens = create(client if how == "header" else _Csrf(client, headers), game=game)
    if tokens[0]:
        headers = {**headers, "X-Seat-Token": tokens[0]}
    before = client.get(f"/api/games/{gid}/state", headers=headers).json()
    for action, key, params, de, fr in cases:
        said(client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=headers), 400,
             {"de": de, "fr": fr}[lang], key, params)
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
        assert socket_refusal(ws, tokens[0], "build 25,3") == {"type": "error", "code": 400, "message": "la case 25,3 est hors de la carte",
                          "key": "hex {hex} is off the map", "params": {"hex": "25,3"}}
    assert api.get(f"/api/games/{gid}").json()["version"] == 0


# -- a setup the game's checks refuse ---------------------------------------------------------------
def custom(sections, cards):
    return {"game": "kingdom", "seats": [{"type": "human"}] * 2,
            "setup": {"mode": "custom", "sections": sections, "cards": cards}}


GOOD_SECTIONS = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
GOOD_CARDS = ["fishermen", "merchants", "knights"]
SETUPS = [
    (custom([["nowhere", False], *GOOD_SECTIONS[1:]], GOOD_CARDS),
     "unknown section name {value} in slot {slot} (the sections are {names})",
     {"value": "'nowhere'", "slot": 0, "names": SECTIONS},
     f"unbekanntes Spielplanteil 'nowhere' an Stelle 0 (die Spielplanteile sind {SECTIONS})",
     f"plateau inconnu 'nowhere' à l'emplacement 0 (les plateaux sont {SECTIONS})"),
    (custom([*GOOD_SECTIONS[:3], ["tavern", True]], GOOD_CARDS),
     "duplicate section {name!r}: the map needs 4 different sections", {"name": "tavern"},
     "doppeltes Spielplanteil 'tavern': der Spielplan braucht 4 verschiedene Teile",
     "plateau 'tavern' en double : la carte demande 4 plateaux différents"),
    (custom(GOOD_SECTIONS, ["fishermen", "wizards", "knights"]),
     "unknown card {value} (the cards are {names})",
     {"value": "'wizards'", "names": "fishermen, miners, merchants, workers, discoverers, knights, hermits, lords, "
                                     "citizens, farmers"},
     "unbekannte Karte 'wizards' (die Karten sind fishermen, miners, merchants, workers, discoverers, knights, "
     "hermits, lords, citizens, farmers)",
     "carte inconnue 'wizards' (les cartes sont fishermen, miners, merchants, workers, discoverers, knights, "
     "hermits, lords, citizens, farmers)"),
    (custom(GOOD_SECTIONS, ["knights", "fishermen", "knights"]),
     "duplicate card {name!r}: the game uses 3 different cards", {"name": "knights"},
     "doppelte Karte 'knights': die Partie nutzt 3 verschiedene Karten",
     "carte 'knights' en double : la partie utilise 3 cartes différentes"),
]


@pytest.mark.parametrize("how", ["header", "account"])
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_setup_the_game_s_checks_refuse_in_the_reader_s_language(people, api, lang, how):
    client, headers = asker(people, api, lang, how)
    before = api.get("/api/games").json()
    for body, key, params, de, fr in SETUPS:
        said(client.post("/api/games", json=body, headers=headers), 400, {"de": de, "fr": fr}[lang], key, params)
    assert api.get("/api/games").json() == before  # no game was made
