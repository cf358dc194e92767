"""An address no route answers (404) and a method a route lacks (405), over real HTTP: refused like
every other request, with a message of the server's catalogues (its key and parameters) in the
reader's language, the address said back quoted on one line and cut when long."""

from __future__ import annotations

import pytest

from tests.server.test_i18n import ACCEPT, said

NOTHING = {
    "en": "there is nothing at the address '/api/nothing-here'",
    "de": "unter der Adresse '/api/nothing-here' gibt es nichts",
    "fr": "il n'y a rien à l'adresse '/api/nothing-here'",
}
NOT_TAKEN = {
    "en": "the address '/api/games/{id}/chat' does not take PUT requests, only {allowed}",
    "de": "die Adresse '/api/games/{id}/chat' nimmt keine PUT-Anfragen an, nur {allowed}",
    "fr": "l'adresse '/api/games/{id}/chat' n'accepte pas les requêtes PUT, seulement {allowed}",
}


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_an_unknown_address_is_a_404_in_the_readers_language(api, lang):
    r = api.get("/api/nothing-here", headers={"Accept-Language": ACCEPT[lang]})
    said(r, 404, NOTHING[lang], "there is nothing at the address {path!r}", {"path": "/api/nothing-here"})
    assert api.get("/api/nothing-here?lang=" + lang).json()["detail"] == NOTHING[lang]


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_method_the_route_lacks_is_a_405_in_the_readers_language(api, lang):
    created = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    r = api.put(f"/api/games/{game_id}/chat", headers={"Accept-Language": ACCEPT[lang]}, json={"text": "hi"})
    allowed = r.headers["Allow"]
    assert r.status_code == 405 and allowed, r.text
    said(
        r,
        405,
        NOT_TAKEN[lang].format(id=game_id, allowed=allowed),
        "the address {path!r} does not take {method} requests, only {allowed}",
        {"path": f"/api/games/{game_id}/chat", "method": "PUT", "allowed": allowed},
    )
    assert api.get(f"/api/games/{game_id}/chat").json() == []


def test_a_long_address_is_said_back_cut(api):
    """An address of 2,000 characters is said back by its first 120 and "..."."""
    r = api.get("/api/" + "x" * 2000)
    path = "/api/" + "x" * 115 + "..."
    said(
        r, 404, f"there is nothing at the address {path!r}", "there is nothing at the address {path!r}", {"path": path}
    )
