"""Pig's RL kit (its plugin's ``rl``): two indices (0 hold, 1 roll), an observation of the banks (seat
to observe first), the pot, the target and whether the turn has rolled; a roll is a chance node of
OpenSpiel (outcome 0-5: a die showing 1-6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from builders.rl.kit import RlKit, SpielParts
from builders.rl.encoding import Layout
from tests.thirdgame.game import MAX_TURNS, NAMES, ROLL, Pig, PigState


class PigCodec(Layout):
    game = "pig"
    num_actions = 2

    def __init__(self, num_players: int):
        self.num_players = num_players
        self.size = num_players + 4

    def layout(self) -> tuple[tuple[str, tuple[int, ...], Any], ...]:
        return (
            ("banked", (self.num_players,), 255),
            ("pot", (1,), 255),
            ("target", (1,), 50),
            ("rolled", (1,), 1),
            ("to_move", (1,), 1),
        )

    def encode(self, state: PigState, seat: int, prefix: Sequence[int]) -> np.ndarray:
        n = self.num_players
        banks = [min(state.banked[(seat + k) % n], 255) for k in range(n)]
        to_move = int(state.current_player == seat and not state.is_over())
        return np.array([*banks, min(state.pot, 255), state.target, int(state.rolled), to_move], dtype=np.uint8)

    @staticmethod
    def mask(legal: Sequence[int], prefix: Sequence[int]) -> np.ndarray:
        out = np.zeros(2, dtype=np.int8)
        out[list(legal)] = 1
        return out

    @staticmethod
    def needs_more(prefix: Sequence[int]) -> bool:
        return False

    @staticmethod
    def describe(index: int, prefix: Sequence[int]) -> str:
        return NAMES[index] if 0 <= index < 2 else f"index {index}"

    @staticmethod
    def why_not(state: PigState, index: int, prefix: Sequence[int]) -> str:
        return "a turn starts with a roll"

    def new_state(self, setup: Any, seed: int) -> PigState:
        if setup is None or setup == "random":
            return Pig().new_state(Pig().random_setup(self.num_players, seed))
        if isinstance(setup, dict):
            return Pig().new_state({"players": self.num_players, "seed": seed, **setup})
        raise ValueError(f"setup must be None, 'random' or a setup dict, not {setup!r}")

    @staticmethod
    def render(state: PigState) -> str:
        return f"banked {state.banked}, pot {state.pot}, seat {state.current_player} to move"

    @staticmethod
    def render_rgb(state: PigState) -> np.ndarray:
        from builders.rl.render import text_picture

        return text_picture(PigCodec.render(state))

    @staticmethod
    def score_margins(state: PigState) -> list[float]:
        b = state.banked
        return [float(v - max(x for q, x in enumerate(b) if q != p)) for p, v in enumerate(b)]


def _apply_roll(state: PigState, pending: int, drawn: list[int]) -> bool:
    state.forced = [str(drawn[-1] + 1)]
    state.apply(pending)
    return True


SPIEL = SpielParts(
    long_name="Pig (tests)",
    max_length=lambda players, params: MAX_TURNS * 26,
    max_chance_outcomes=6,
    outcome_string=lambda c: f"rolls {c + 1}",
    pool=lambda st, pending, drawn: Counter(range(6)),
    apply_chance=_apply_roll,
    draws=lambda st, action: int(action == ROLL),
)
KIT = RlKit(
    codec=PigCodec,
    index_to_action=lambda prefix: prefix[0],
    action_to_index=lambda action: (action,),
    bounded=True,
    solo_id="builders.rl.PigSolo-v0",
    spiel=SPIEL,
)
