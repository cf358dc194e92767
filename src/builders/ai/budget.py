"""How a bot splits the time of a whole turn across the decisions of the turn.

``turn_share(state)`` gives ``(this, rest, total)`` for the decision of ``state.current_player``:
the weight of this decision, the weights of this and every later decision of the same turn, and the
weights of a whole turn. An agent that knows when its turn began gives this decision
``time left in the turn x this / rest`` (so time saved on quick decisions goes to the later ones);
one that does not (a fresh agent for each decision, as the server makes them) gives it
``turn time x this / total``, which never adds up to more than the turn.

- Kingdom Builder: the three builds of the mandatory build weigh 0.40, 0.20 and 0.15 (the first
  build shapes the turn, and the later ones reuse its search), and the tiles and ``end`` share the
  last 0.25: each of them gets ``0.25 / (tiles usable this turn + 1)``.
- The Builders: every action of the turn weighs 1 and ``end`` (or buying an action) 1; a turn is
  three actions and the end, and up to one bought action: total 5.
"""

from __future__ import annotations

from builders.core.state import GameState

KB_BUILDS = (0.40, 0.20, 0.15)
KB_AFTER = 0.25
MA_TOTAL = 5.0


def _kingdom(st) -> tuple[float, float, float]:
    p = st.to_move
    built = st.built
    supply = st.supply[p]
    if built < 3 and supply and st.hand[p] >= 0:
        last = min(3, built + supply)
        return KB_BUILDS[built], sum(KB_BUILDS[built:last]) + KB_AFTER, 1.0
    usable = (st.held[p] & ~st.new[p]).bit_count()
    ready = (st.held[p] & ~st.used[p] & ~st.new[p]).bit_count()
    each = KB_AFTER / (usable + 1)
    return each, each * (ready + 1), 1.0


def _middle_ages(st) -> tuple[float, float, float]:
    return 1.0, float(st.actions + 1), MA_TOTAL


def turn_share(state: GameState) -> tuple[float, float, float]:
    """``(this, rest, total)`` for the decision of the player to move (see the module docstring)."""
    if state.GAME == "kingdom":
        return _kingdom(state)
    if state.GAME == "middle-ages":
        return _middle_ages(state)
    return 1.0, 1.0, 1.0
