"""The RL kit of Kingdom Builder (its plugin's ``rl``): the codec of :mod:`builders.rl.kingdom` (a tile is
a pick of two or three indices), and :func:`kingdom_env`."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from builders.kingdom import native
from builders.rl.kingdom import KingdomCodec, action_to_index, index_to_action
from builders.rl.kit import RlKit
from builders.rl.pettingzoo_env import env
from builders.rl.spiel_kingdom import PARTS

#: the Gymnasium id of its single-learner environment (:mod:`builders.rl.solo`)
KINGDOM_SOLO = "builders.rl.KingdomSolo-v0"
KIT = RlKit(
    codec=KingdomCodec,
    index_to_action=index_to_action,
    action_to_index=action_to_index,
    bounded=True,
    solo_id=KINGDOM_SOLO,
    spiel=PARTS,
    to_native=native.from_python if native.available() else None,
)


def kingdom_env(
    num_players: int = 2,
    setup: Any = None,
    reward: str = "win",
    render_mode: str | None = None,
    observation: str = "flat",
    core: str = "auto",
) -> OrderEnforcingWrapper:
    """Kingdom Builder as a PettingZoo AEC environment.

    ``setup``: None or "random" (a random map, cards and deck from each reset's seed), "first" (the
    recommended first game, deck from the seed) or a setup dict (its deck from the seed unless it
    gives one). ``core``: "auto" (the native core when it is built, unless ``BUILDERS_CORE=python``),
    "python" or "native"."""
    return env("kingdom", num_players, setup, reward, render_mode, observation, core=core)
