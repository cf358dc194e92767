"""The RL kit of The Builders: Middle Ages (its plugin's ``rl``): the codec of
:mod:`builders.rl.middle_ages`, one index an action (the rules set no bound on a game's length), and
:func:`middle_ages_env`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from builders.middle_ages import native
from builders.rl.kit import RlKit
from builders.rl.middle_ages import MiddleAgesCodec, action_to_index, index_to_action
from builders.rl.pettingzoo_env import env
from builders.rl.spiel_middle_ages import PARTS


def _action(prefix: Sequence[int]) -> int:
    return index_to_action(prefix[0])


def _indices(action: int) -> tuple[int, ...]:
    return (action_to_index(action),)


#: the Gymnasium id of its single-learner environment (:mod:`builders.rl.solo`)
MIDDLE_AGES_SOLO = "builders.rl.MiddleAgesSolo-v0"
KIT = RlKit(
    codec=MiddleAgesCodec,
    index_to_action=_action,
    action_to_index=_indices,
    bounded=False,
    solo_id=MIDDLE_AGES_SOLO,
    spiel=PARTS,
    to_native=native.from_python if native.available() else None,
)


def middle_ages_env(
    num_players: int = 2,
    setup: Any = None,
    reward: str = "win",
    render_mode: str | None = None,
    observation: str = "flat",
    max_rounds: int | None = None,
    core: str = "auto",
) -> OrderEnforcingWrapper:
    """The Builders: Middle Ages as a PettingZoo AEC environment (``setup``: None for a random setup
    from each reset's seed, or a setup dict). The rules set no bound on a game's length: after
    ``max_rounds`` rounds (default 100) every agent is truncated. ``core`` as for ``kingdom_env``."""
    return env("middle-ages", num_players, setup, reward, render_mode, observation, max_rounds, core)
