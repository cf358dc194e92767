"""The research kit: every registered game with an RL kit (Kingdom Builder and The Builders: Middle
Ages) as PettingZoo, Gymnasium and OpenSpiel environments (``pip install '.[rl]'`` in a clone; the
distribution is builders-games). See docs/rl.md.

Importing this package registers the Gymnasium id of each game's single-learner environment
(``builders.rl.KingdomSolo-v0``, ``builders.rl.MiddleAgesSolo-v0``). The engines, the server and the
command line never import it. The games' own shorthands are re-exported from their RL kits.
"""

from __future__ import annotations

from builders.rl.base import IllegalIndex, Match
from builders.rl.encoding import ENCODING_VERSION
from builders.rl.kit_kingdom import KINGDOM_SOLO, kingdom_env
from builders.rl.kit_middle_ages import MIDDLE_AGES_SOLO, middle_ages_env
from builders.rl.pettingzoo_env import BuildersAEC, env
from builders.rl.solo import SoloEnv, register

register()

__all__ = [
    "ENCODING_VERSION",
    "BuildersAEC",
    "IllegalIndex",
    "KINGDOM_SOLO",
    "MIDDLE_AGES_SOLO",
    "Match",
    "SoloEnv",
    "env",
    "kingdom_env",
    "middle_ages_env",
    "register",
]
