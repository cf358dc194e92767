"""How a bot splits the time of a whole turn across the decisions of the turn.

``turn_share(state)`` gives ``(this, rest, total)`` for the decision of ``state.current_player``:
the weight of this decision, the weights of this and every later decision of the same turn, and the
weights of a whole turn. An agent that knows when its turn began gives this decision
``time left in the turn x this / rest`` (so time saved on quick decisions goes to the later ones);
one that does not (a fresh agent for each decision, as the server makes them) gives it
``turn time x this / total``, which never adds up to more than the turn.

- Kingdom Builder: the three builds of the mandatory build weigh 0.40, 0.20 and 0.15 (the first
  build shapes the turn, and the later ones reuse its search), and the tiles and ``end`` after them
  share the last 0.25: each gets ``0.25 / (tiles usable this turn + 1)``. Tiles used before the
  first build share its 0.40 the same way. A turn with no tile to use (none ready and none used in
  it: most turns) has nothing to decide after the builds (``end`` is
  forced): its builds share the whole turn (0.40, 0.20 and 0.15 of a total of 0.76, with a token
  0.01 for ``end``).
- The Builders: the turn's first decision weighs 2 (one ``coins 3`` may spend the whole turn, and
  later decisions search on in its subtree), a later decision with actions left 1, the one with
  none left (``end`` or ``buy``) 0.5; a whole turn is taken as 6.5 (the first decision, at most four
  more actions, one of them bought, and the end). The first decision counts the whole turn as still
  to come, so a searching agent that follows its turn plans to the turn's end; a later decision
  keeps for the end of the turn 0.5 when the seat can buy (``end`` or ``buy`` is then a real
  choice, which gets two thirds of what is left) and almost nothing when it cannot (``end`` alone
  is played at once). Before, a turn without a bought action planned 3.5 / 5.5 of the turn and the
  hard level used about 60% of its 2 s; a fresh agent for each decision still gets ``this / 6.5``.
"""

from __future__ import annotations

from builders.core.state import Chance, GameState
from builders.middle_ages.codes import ACTION_PRICE, FREE_ACTIONS

KB_BUILDS = (0.40, 0.20, 0.15)
KB_AFTER = 0.25
#: the weight of a forced ``end`` in a turn with no tile to use
KB_END = 0.01
#: The Builders: the turn's first decision (a single "coins 3" may spend the whole turn) and a whole
#: turn: the first decision, at most four more actions (one bought) and the end
MA_FIRST = 2.0
MA_TOTAL = 6.5
#: The Builders: the weight kept, at a decision with actions left, for the end of the turn when the
#: seat can buy an action (a real choice), and when it cannot ("end" alone, played at once); and, at
#: the "end" or "buy" decision, for the action a buy would give
MA_END = 0.5
MA_FORCED_END = 0.05
MA_AFTER_BUY = 0.25


def _tile_used_this_turn(st) -> bool:
    """Whether the player to move used a tile in this turn (its actions since the last ``end``; a
    tile used may be lost in the same move, so the state's tile masks cannot tell)."""
    from builders.kingdom.notation import END

    for e in reversed(st.history):
        if isinstance(e, str):      # a chance outcome
            continue
        if e == END:
            return False
        if e >= 400:                # a tile's action (plain builds are hex numbers)
            return True
    return False


def _kingdom(st) -> tuple[float, float, float]:
    p = st.to_move
    built = st.built
    supply = st.supply[p]
    # the tiles that may be used this turn, counted so that the number never changes during a turn
    # (every location taken from before this turn: some of those tiles may be lost or used up)
    usable = (st.taken[p] & ~st.new[p]).bit_count()
    ready = (st.held[p] & ~st.used[p] & ~st.new[p]).bit_count()
    building = built < 3 and supply and st.hand[p] >= 0
    if not ready and not _tile_used_this_turn(st):  # no tile this turn: the builds share it, ``end`` is forced
        last = min(3, built + supply) if building else built
        total = sum(KB_BUILDS[:last]) + KB_END
        if building:
            return KB_BUILDS[built], sum(KB_BUILDS[built:last]) + KB_END, total
        return KB_END, KB_END, total
    after = KB_AFTER / (usable + 1)
    if building:
        last = min(3, built + supply)
        if built == 0:      # tiles may be used before the first build: they share its weight
            this = KB_BUILDS[0] / (usable + 1)
            return this, this * (ready + 1) + sum(KB_BUILDS[1:last]) + after * (ready + 1), 1.0
        return KB_BUILDS[built], sum(KB_BUILDS[built:last]) + after * (ready + 1), 1.0
    return after, after * (ready + 1), 1.0


def _middle_ages(st) -> tuple[float, float, float]:
    first = True
    for entry in reversed(st.history):
        if not isinstance(entry, Chance):
            first = entry == 0          # the last action was "end": this seat's turn begins
            break
    if first:
        # the whole turn lies ahead (the deadline is the turn's end); "coins 3" may spend it at once
        return MA_FIRST, MA_TOTAL, MA_TOTAL
    if st.actions:
        return 1.0, st.actions + (MA_END if st.coins[st.cur] >= ACTION_PRICE else MA_FORCED_END), MA_TOTAL
    # no action left: "end" or "buy" (with fewer than 5 coins "end" is the only action, played at once)
    return 0.5, 0.5 + MA_AFTER_BUY, MA_TOTAL


def turn_share(state: GameState) -> tuple[float, float, float]:
    """``(this, rest, total)`` for the decision of the player to move (see the module docstring)."""
    if state.GAME == "kingdom":
        return _kingdom(state)
    if state.GAME == "middle-ages":
        return _middle_ages(state)
    return 1.0, 1.0, 1.0
