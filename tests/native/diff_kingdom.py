"""The differential check of Kingdom Builder's native core against the Python engine: both play the
same games side by side, and every decision's legal actions (in order), the whole state (every field,
the generator and the history included), the scores with their breakdown, and at the end the record
must be the same. Used by tests/native/test_kingdom_diff.py and benchmarks/native.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from builders.kingdom.game import KingdomBuilder
from builders.kingdom.native import from_python
from builders.kingdom.state import KingdomState

FIELDS = (
    "num_players",
    "cards",
    "start_player",
    "to_move",
    "own",
    "occ",
    "near",
    "supply",
    "hand",
    "deck",
    "discard",
    "removed",
    "held",
    "used",
    "new",
    "taken",
    "left",
    "built",
    "final_round",
    "over",
    "turn",
    "history",
    "legacy",
)


def state_difference(py: KingdomState, native_py: KingdomState) -> str | None:
    """The first field in which two Python states differ (the second made from a native state)."""
    for name in FIELDS:
        if getattr(py, name) != getattr(native_py, name):
            return f"{name}: {getattr(py, name)!r} != {getattr(native_py, name)!r}"
    if py.rng.state != native_py.rng.state:
        return "rng"
    return None


@dataclass
class Tally:
    decisions: int = 0
    games: int = 0
    disagreements: list[str] = field(default_factory=list)
    tiles_used: set[int] = field(default_factory=set)
    cards_seen: set[str] = field(default_factory=set)
    players_seen: set[int] = field(default_factory=set)


Policy = Callable[[KingdomState, list[int]], int]


def random_policy(seed: int) -> Policy:
    rnd = random.Random(seed)
    return lambda state, legal: legal[rnd.randrange(len(legal))]


def play_both(
    setup: dict, policy: Policy, tally: Tally, check_every: int = 1, scores_every: int = 1, legacy: bool = False
) -> None:
    """Play one game on both cores with ``policy`` choosing from the Python state, comparing as it goes
    (under the rules of record format 1 if ``legacy``)."""
    game = KingdomBuilder()
    py = game.state_for_record(setup, 1) if legacy else game.new_state(setup)
    native = from_python(py)
    tally.games += 1
    tally.players_seen.add(py.num_players)
    tally.cards_seen.update(py.cards)
    where = f"setup {setup.get('seed')!r} ({py.num_players} players)"
    step = 0
    while True:
        legal = py.legal_actions()
        if native.legal_actions() != legal:
            tally.disagreements.append(f"{where}, decision {step}: legal actions differ")
            return
        if step % check_every == 0 or py.is_over():
            diff = state_difference(py, native.to_python())
            if diff:
                tally.disagreements.append(f"{where}, decision {step}: {diff}")
                return
        if step % scores_every == 0 and py.score_breakdown() != native.score_breakdown():
            tally.disagreements.append(f"{where}, decision {step}: scores differ")
            return
        if py.is_over() or native.is_over():
            break
        action = policy(py, legal)
        if action >= 1 << 18 and action >> 18 < 9:
            tally.tiles_used.add((action >> 18) - 1)
        py.apply(action)
        native.apply(action)
        tally.decisions += 1
        step += 1
    if py.is_over() != native.is_over():
        tally.disagreements.append(f"{where}: one core ended the game and the other did not")
    elif py.to_record() != native.to_record():
        tally.disagreements.append(f"{where}: the records differ")
    elif py.result() != native.result():
        tally.disagreements.append(f"{where}: the results differ")


def random_games(first_seed: int, games: int, tally: Tally, **checks) -> None:
    """Random setups (sections, turns, cards, deck) from consecutive seeds, 2-4 players, random play;
    every tenth game under the rules of record format 1."""
    game = KingdomBuilder()
    for g in range(games):
        seed = first_seed + g
        setup = game.random_setup(2 + seed % 3, seed)
        play_both(setup, random_policy(seed), tally, legacy=seed % 10 == 9, **checks)
