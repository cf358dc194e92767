"""Setups of The Builders: Middle Ages: random ones drawn from a seed, and checks of explicit ones.

A setup is JSON::

    {"players": 2, "start_player": 0,
     "buildings": [42 ids, top of the building deck first],
     "workers": [the worker deck: 42 - players ids, top first],
     "apprentices": [one apprentice id per seat],
     "seed": 7}                       # optional: the seed it was drawn from

The top 5 cards of each deck are dealt to their row when the game starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from builders.core.errors import InvalidSetup, shown
from builders.core.messages import msg
from builders.core.rng import Rng
from builders.middle_ages.cards import APPRENTICES, BUILDING_DECK, CARDS, IDS, INDEX, WORKERS

MIN_PLAYERS = 2
MAX_PLAYERS = 4
_DECK_SET = frozenset(BUILDING_DECK)
_WORKER_SET = frozenset(WORKERS)
SETUP_KEYS = ("players", "start_player", "buildings", "workers", "apprentices", "seed")
#: what a card among the apprentices that is not one says, by the card's kind
_NOT_AN_APPRENTICE = {
    "labourer": lambda card: msg("{card} in apprentices is a labourer, not an apprentice (W01-W06)", card=card),
    "craftsman": lambda card: msg("{card} in apprentices is a craftsman, not an apprentice (W01-W06)", card=card),
    "master": lambda card: msg("{card} in apprentices is a master, not an apprentice (W01-W06)", card=card),
    "building": lambda card: msg("{card} in apprentices is a building, not an apprentice (W01-W06)", card=card),
    "machine": lambda card: msg("{card} in apprentices is a machine, not an apprentice (W01-W06)", card=card),
}


def random_setup(players: int, seed: int | str, random_start: bool = False) -> dict[str, Any]:
    """A complete setup drawn from ``Rng(seed)``.

    Draw order: the building deck is shuffled; the six apprentices are shuffled and seat ``i`` gets the
    ``i``-th; the other apprentices and the 36 other workers are shuffled into the worker deck; with
    ``random_start`` the start player is drawn last (otherwise it is seat 0).
    """
    check_players(players)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidSetup(msg("a seed is an integer or a string, not {value}", value=shown(seed)))
    rng = Rng(seed)
    buildings = [IDS[i] for i in BUILDING_DECK]
    rng.shuffle(buildings)
    apprentices = [IDS[i] for i in APPRENTICES]
    rng.shuffle(apprentices)
    dealt, rest = apprentices[:players], apprentices[players:]
    workers = rest + [IDS[i] for i in WORKERS if i not in APPRENTICES]
    rng.shuffle(workers)
    start = rng.randbelow(players) if random_start else 0
    return {
        "players": players,
        "start_player": start,
        "buildings": buildings,
        "workers": workers,
        "apprentices": dealt,
        "seed": seed,
    }


def check_players(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidSetup(
            msg(
                "players must be a whole number from {low} to {high}, not {value}",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                value=shown(players),
            )
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup(msg("The Builders: Middle Ages is for 2 to 4 players, not {value}", value=shown(players)))


def _ids(setup: Mapping[str, Any], key: str) -> list[int]:
    value = setup.get(key)
    if type(value) is list:
        try:
            fast = [INDEX[item] for item in value]
        except (KeyError, TypeError):
            pass
        else:
            if len(set(fast)) == len(fast):
                return fast
    if value is None:
        raise InvalidSetup(msg("the setup has no {key!r} list", key=key))
    if not isinstance(value, list):
        raise InvalidSetup(msg("{key} must be a list of card ids, not {type}", key=key, type=type(value).__name__))
    out = []
    seen: set[int] = set()
    for item in value:
        if not isinstance(item, str):
            raise InvalidSetup(
                msg('{key} must hold card ids (strings like "W07"), not {value}', key=key, value=shown(item))
            )
        index = INDEX.get(item)
        if index is None:
            raise InvalidSetup(msg("unknown card id {value} in {key}", value=shown(item), key=key))
        if index in seen:
            raise InvalidSetup(msg("{card} appears twice in {key}", card=item, key=key))
        seen.add(index)
        out.append(index)
    return out


def _missing(expected: set[int], got: list[int]) -> str:
    return ", ".join(IDS[i] for i in sorted(expected - set(got)))


def check_setup(setup: Any) -> dict[str, Any]:
    """Validate an explicit setup; returns it normalised (start_player filled in). Raises InvalidSetup."""
    if not isinstance(setup, Mapping):
        raise InvalidSetup(
            msg("a setup is a JSON object with keys players, start_player, buildings, workers and apprentices")
        )
    for key in setup:
        if key not in SETUP_KEYS:
            raise InvalidSetup(
                msg("unknown setup key {value} (expected {names})", value=shown(key), names=", ".join(SETUP_KEYS))
            )
    if "players" not in setup:
        raise InvalidSetup(msg("the setup has no 'players' count"))
    players = setup["players"]
    check_players(players)
    start = setup.get("start_player", 0)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players:
        raise InvalidSetup(
            msg("start_player must be a seat from 0 to {last}, not {value}", last=players - 1, value=shown(start))
        )
    seed = setup.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise InvalidSetup(msg("seed must be an integer or a string, not {value}", value=shown(seed)))

    buildings = _ids(setup, "buildings")
    for i in buildings if not _DECK_SET.issuperset(buildings) else ():
        if i not in BUILDING_DECK:
            raise InvalidSetup(msg("{card} in buildings is a worker, not a building or a machine", card=IDS[i]))
    if len(buildings) != len(BUILDING_DECK):
        raise InvalidSetup(
            msg(
                "buildings must hold all 42 buildings and machines; missing {cards}",
                cards=_missing(set(BUILDING_DECK), buildings),
            )
        )

    apprentices = _ids(setup, "apprentices")
    for i in apprentices:
        if i not in APPRENTICES:
            raise InvalidSetup(_NOT_AN_APPRENTICE[CARDS[i].kind](IDS[i]))
    if len(apprentices) != players:
        raise InvalidSetup(
            msg(
                "apprentices must give one apprentice to each of the {players} seats, not {count}",
                players=players,
                count=len(apprentices),
            )
        )

    workers = _ids(setup, "workers")
    for i in workers if not _WORKER_SET.issuperset(workers) or not set(apprentices).isdisjoint(workers) else ():
        if i not in WORKERS:
            raise InvalidSetup(msg("{card} in workers is not a worker", card=IDS[i]))
        if i in apprentices:
            raise InvalidSetup(msg("{card} is both a seat's apprentice and in the worker deck", card=IDS[i]))
    expected = set(WORKERS) - set(apprentices)
    if len(workers) != len(expected):
        raise InvalidSetup(
            msg(
                "workers must hold the {count} workers not dealt to a seat; missing {cards}",
                count=len(expected),
                cards=_missing(expected, workers),
            )
        )

    out: dict[str, Any] = {
        "players": players,
        "start_player": start,
        "buildings": [IDS[i] for i in buildings],
        "workers": [IDS[i] for i in workers],
        "apprentices": [IDS[i] for i in apprentices],
    }
    if seed is not None:
        out["seed"] = seed
    return out
