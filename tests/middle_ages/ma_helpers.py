"""Helpers of the Middle Ages tests: explicit setups with chosen top cards, and edited positions."""

from __future__ import annotations

import random
from typing import Any

from builders.middle_ages.cards import APPRENTICES, BUILDING_DECK, IDS, WORKERS
from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState

GAME = MiddleAges()


def setup_with(
    players: int = 2,
    buildings: list[str] = (),
    workers: list[str] = (),
    apprentices: list[str] | None = None,
    start_player: int = 0,
) -> dict[str, Any]:
    """An explicit setup: the given cards on top of each deck (top first), the others after them in id
    order; apprentices W01, W02, ... unless given."""
    if apprentices is None:
        apprentices = [IDS[a] for a in APPRENTICES[:players]]
    bdeck = list(buildings) + [IDS[c] for c in BUILDING_DECK if IDS[c] not in buildings]
    wdeck = list(workers) + [IDS[c] for c in WORKERS if IDS[c] not in workers and IDS[c] not in apprentices]
    return {
        "players": players,
        "start_player": start_player,
        "buildings": bdeck,
        "workers": wdeck,
        "apprentices": list(apprentices),
    }


def new_state(**kwargs: Any) -> MiddleAgesState:
    return GAME.new_state(setup_with(**kwargs))


def play(state: MiddleAgesState, *actions: str) -> MiddleAgesState:
    for text in actions:
        state.apply(state.parse_action(text))
    return state


def strings(state: MiddleAgesState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def random_game(players: int, seed: int, stop: int | None = None) -> MiddleAgesState:
    """A random game (random legal actions), to its end or ``stop`` actions."""
    state = GAME.new_state(GAME.random_setup(players, seed))
    rnd = random.Random(seed)
    n = 0
    while not state.is_over() and (stop is None or n < stop):
        actions = state.legal_actions()
        state.apply(actions[rnd.randrange(len(actions))])
        n += 1
    return state


def position(
    players: int = 2,
    crews: list[list[str]] | None = None,
    sites: list[dict[str, list[str]]] | None = None,
    completed: list[list[str]] | None = None,
    coins: list[int] | None = None,
    building_row: list[str] | None = None,
    worker_row: list[str] | None = None,
    building_deck: list[str] | None = None,
    worker_deck: list[str] | None = None,
    current: int = 0,
    actions: int = 3,
    turn: int | None = None,
    sent: dict[str, int] | None = None,
    final_round: bool = False,
    start_player: int = 0,
) -> MiddleAgesState:
    """A position built from what is given; every other card goes to its deck in id order (and, when the
    row is not given, the first 5 of them to the row)."""
    crews = crews or [[] for _ in range(players)]
    sites = sites or [{} for _ in range(players)]
    completed = completed or [[] for _ in range(players)]
    coins = coins or [10] * players
    sent = sent or {}
    used = set()
    for p in range(players):
        used |= set(crews[p]) | set(completed[p]) | set(sites[p])
        for workers in sites[p].values():
            used |= set(workers)
    for group in (building_row, worker_row, building_deck, worker_deck):
        used |= set(group or ())
    rest_b = [IDS[c] for c in BUILDING_DECK if IDS[c] not in used]
    rest_w = [IDS[c] for c in WORKERS if IDS[c] not in used]
    if building_row is None:
        building_row, rest_b = rest_b[:5], rest_b[5:]
    if worker_row is None:
        worker_row, rest_w = rest_w[:5], rest_w[5:]
    building_deck = rest_b if building_deck is None else building_deck
    worker_deck = rest_w if worker_deck is None else worker_deck
    players_json = []
    for p in range(players):
        players_json.append(
            {
                "seat": p,
                "coins": coins[p],
                "crew": crews[p],
                "completed": completed[p],
                "sites": [{"card": s, "workers": w, "sent_this_turn": sent.get(s, 0)} for s, w in sites[p].items()],
            }
        )
    pos = {
        "game": "middle-ages",
        "players": players_json,
        "building_row": building_row,
        "building_deck": building_deck,
        "worker_row": worker_row,
        "worker_deck": worker_deck,
        "start_player": start_player,
        "current_player": current,
        "actions_left": actions,
        "turn": (current - start_player) % players if turn is None else turn,
        "final_round": final_round,
        "over": False,
    }
    return MiddleAgesState.from_json(pos, setup_with(players, start_player=start_player))
