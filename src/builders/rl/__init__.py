"""The research kit: Kingdom Builder and The Builders: Middle Ages as PettingZoo, Gymnasium and
OpenSpiel environments (``pip install '.[rl]'`` in a clone; the distribution is builders-games). See docs/rl.md.

Importing this package registers the Gymnasium ids ``builders.rl.KingdomSolo-v0`` and
``builders.rl.MiddleAgesSolo-v0``. The engines, the server and the command line never import it.
"""

from __future__ import annotations

from builders.rl.base import IllegalIndex, Match
from builders.rl.encoding import ENCODING_VERSION
from builders.rl.pettingzoo_env import BuildersAEC, kingdom_env, middle_ages_env
from builders.rl.solo import KINGDOM_SOLO, MIDDLE_AGES_SOLO, SoloEnv, register

register()

__all__ = [
    "ENCODING_VERSION", "BuildersAEC", "IllegalIndex", "KINGDOM_SOLO", "MIDDLE_AGES_SOLO", "Match", "SoloEnv", "kingdom_env",
    "middle_ages_env", "register",
]
