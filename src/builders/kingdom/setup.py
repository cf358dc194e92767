"""Setups (rules.md, "Components and setup"): the recommended first game, a random one from a seed,
or any explicit choice; validation with precise errors; the initial state.

A setup is JSON::

    {"players": 2, "sections": [["tavern", false], ["paddock", false], ["oasis", false], ["farm", false]],
     "cards": ["fishermen", "merchants", "knights"], "start_player": 0,
     "deck": ["grass", ...25 terrain names, top first...],   # optional
     "seed": 0}                                               # optional
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from builders.core.errors import InvalidSetup
from builders.core.messages import msg
from builders.core.rng import Rng, seed_from
from builders.kingdom.board import get_board
from builders.kingdom.checks import (  # noqa: F401  (check_* are part of this module's interface)
    check_cards,
    check_deck,
    check_players,
    check_sections,
    check_seed,
    is_int,
    shown,
)
from builders.kingdom.data import CARDS, FIRST_GAME_CARDS, FIRST_GAME_SECTIONS, SECTION_NAMES, TERRAINS
from builders.kingdom.state import KingdomState

SETUP_KEYS = ("players", "sections", "cards", "start_player", "deck", "seed")
FULL_DECK = [t for t in TERRAINS for _ in range(5)]


def normalize_setup(setup: Any) -> dict[str, Any]:
    """A checked copy of ``setup`` with every default filled in but the deck; InvalidSetup if wrong."""
    if not isinstance(setup, Mapping):
        raise InvalidSetup(msg("a setup is a JSON object with keys players, sections and cards"))
    for key in setup:
        if key not in SETUP_KEYS:
            raise InvalidSetup(
                msg("unknown setup key {value} (the keys are {names})", value=shown(key), names=", ".join(SETUP_KEYS))
            )
    for key in ("players", "sections", "cards"):
        if key not in setup:
            raise InvalidSetup(msg("the setup has no {key!r}", key=key))
    players = check_players(setup["players"])
    sections = check_sections(setup["sections"])
    cards = check_cards(setup["cards"])
    start = setup.get("start_player", 0)
    if not is_int(start) or not 0 <= start < players:
        raise InvalidSetup(
            msg("start_player must be a seat from 0 to {last}, not {value}", last=players - 1, value=shown(start))
        )
    out: dict[str, Any] = {
        "players": players,
        "sections": [[n, t] for n, t in sections],
        "cards": list(cards),
        "start_player": start,
    }
    if "deck" in setup:
        out["deck"] = check_deck(setup["deck"])
    out["seed"] = check_seed(setup.get("seed", 0))
    return out


def first_game_setup(players: int = 2) -> dict[str, Any]:
    """The recommended first game: tavern, paddock, oasis, farm unturned; fishermen, merchants, knights.
    The deck is shuffled from seed 0 when the game starts."""
    check_players(players)
    return {
        "players": players,
        "sections": [[n, t] for n, t in FIRST_GAME_SECTIONS],
        "cards": list(FIRST_GAME_CARDS),
        "start_player": 0,
        "seed": 0,
    }


def random_setup(players: int, seed: int | str) -> dict[str, Any]:
    """4 distinct sections in random slots and orientations, 3 random cards and the shuffled deck,
    all drawn from ``Rng(seed)``."""
    check_players(players)
    rng = Rng(check_seed(seed))
    names = list(SECTION_NAMES)
    rng.shuffle(names)
    sections = [[name, rng.randbelow(2) == 1] for name in names[:4]]
    cards = list(CARDS)
    rng.shuffle(cards)
    deck = FULL_DECK[:]
    rng.shuffle(deck)
    return {
        "players": players,
        "sections": sections,
        "cards": cards[:3],
        "start_player": 0,
        "deck": deck,
        "seed": seed_from(seed),
    }


_CODE = {t: i for i, t in enumerate(TERRAINS)}


def new_state(setup: Any) -> KingdomState:
    """The initial state of a setup: each player draws 1 card, in seat order from the start player."""
    norm = normalize_setup(setup)
    return start_state(norm)


def start_state(norm: dict[str, Any]) -> KingdomState:
    """The initial state of an already normalized setup."""
    board = get_board(norm["sections"])
    rng = Rng(norm["seed"])
    if "deck" in norm:
        deck = [_CODE[t] for t in norm["deck"]]
    else:
        deck = [_CODE[t] for t in FULL_DECK]
        rng.shuffle(deck)
    deck.reverse()  # top card last
    players = norm["players"]
    start = norm["start_player"]
    st = KingdomState.blank(board, players, tuple(norm["cards"]), norm, start, rng)
    st.deck = deck
    for i in range(players):
        st.hand[(start + i) % players] = deck.pop()
    return st
