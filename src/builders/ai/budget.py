"""How a bot splits the time of a whole turn across the decisions of the turn.

``turn_share(state)`` gives ``(this, rest, total)`` for the decision of ``state.current_player``:
the weight of this decision, the weights of this and every later decision of the same turn, and the
weights of a whole turn. An agent that knows when its turn began gives this decision
``time left in the turn x this / rest`` (so time saved on quick decisions goes to the later ones);
one that does not (a fresh agent for each decision, as the server makes them) gives it
``turn time x this / total``, which never adds up to more than the turn.

The weights are the game's (its AI kit's ``turn_share``, :mod:`builders.ai.kit`; each kit's module
says how it weighs the decisions of a turn); a game whose kit gives none has turns of one decision.
"""

from __future__ import annotations

from builders.ai.kit import kit
from builders.core.state import GameState


def turn_share(state: GameState) -> tuple[float, float, float]:
    """``(this, rest, total)`` for the decision of the player to move (see the module docstring)."""
    return kit(state.GAME).turn_share(state)
