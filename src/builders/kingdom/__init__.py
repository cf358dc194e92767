"""Kingdom Builder: an exact, fast rules engine.

>>> from builders.kingdom import KingdomBuilder
>>> state = KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))
>>> state.current_player, state.supply
(0, [40, 40])
"""

from builders.kingdom.game import KingdomBuilder
from builders.kingdom.position import dump_position, load_position, observation
from builders.kingdom.state import KingdomState

__all__ = ["KingdomBuilder", "KingdomState", "dump_position", "load_position", "observation"]
