"""The AI kit of Kingdom Builder (its plugin's ``ai``): the evaluation (:mod:`builders.ai.eval_kingdom`),
the turn planner (:mod:`builders.ai.planner_kingdom`) and the split of a turn's time.

The split of a turn's time (``builders.ai.budget``):

- Kingdom Builder: the three builds of the mandatory build weigh 0.40, 0.20 and 0.15 (the first
  build shapes the turn, and the later ones reuse its search), and the tiles and ``end`` after them
  share the last 0.25: each gets ``0.25 / (tiles usable this turn + 1)``. Tiles used before the
  first build share its 0.40 the same way. A turn with no tile to use (none ready and none used in
  it: most turns) has nothing to decide after the builds (``end`` is
  forced): its builds share the whole turn (0.40, 0.20 and 0.15 of a total of 0.76, with a token
  0.01 for ``end``).

The options of its planner (``plan``, hard and expert of :mod:`builders.ai.agents`): ``turn``,
``beam``, ``plans``, ``reply`` (default 30, 16, 4), ``depth`` (1, the next turns valued from the plan's
end, or 2, the next seat's best turn applied before the seat's own; default 1), ``clock``, ``ahead``,
``block`` (the weights of the next turns, default 1, 1), ``rollouts`` (the most rounds of games played
out to the end from the ``finalists`` best plans, in the turn's time left; ``plan`` 0, hard 64, expert
100), ``finalists`` (default 4, expert 6), ``rbeam`` (the beam of the turns played out, default 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from builders.ai import eval_kingdom
from builders.ai.kit import AiKit
from builders.ai.planner_kingdom import LEVEL_SETTINGS, ROLLOUT_SETTINGS, TurnPlanner

KB_BUILDS = (0.40, 0.20, 0.15)
KB_AFTER = 0.25
#: the weight of a forced ``end`` in a turn with no tile to use
KB_END = 0.01
#: the planner options of Kingdom Builder's planner (of ``builders.ai.agents.OPTIONS["plan"]``)
PLANNER_OPTIONS = (
    "turn",
    "beam",
    "plans",
    "reply",
    "ahead",
    "block",
    "depth",
    "clock",
    "rollouts",
    "finalists",
    "rbeam",
)


def _tile_used_this_turn(st) -> bool:
    """Whether the player to move used a tile in this turn (its actions since the last ``end``; a
    tile used may be lost in the same move, so the state's tile masks cannot tell)."""
    from builders.kingdom.notation import END

    for e in reversed(st.history):
        if isinstance(e, str):  # a chance outcome
            continue
        if e == END:
            return False
        if e >= 400:  # a tile's action (plain builds are hex numbers)
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
        if built == 0:  # tiles may be used before the first build: they share its weight
            this = KB_BUILDS[0] / (usable + 1)
            return this, this * (ready + 1) + sum(KB_BUILDS[1:last]) + after * (ready + 1), 1.0
        return KB_BUILDS[built], sum(KB_BUILDS[built:last]) + after * (ready + 1), 1.0
    return after, after * (ready + 1), 1.0


def turn_share(st) -> tuple[float, float, float]:
    """``(this, rest, total)`` of the decision of the player to move (the module docstring)."""
    return _kingdom(st)


def make_planner(seed: int | None, level: str, turn_time: float, **options: Any) -> TurnPlanner:
    """The turn planner at ``level`` (hard or expert): ``LEVEL_SETTINGS`` and ``ROLLOUT_SETTINGS``,
    with ``options`` in their place."""
    beam, plans, reply = LEVEL_SETTINGS[level]
    rollouts, finalists = ROLLOUT_SETTINGS[level]
    return TurnPlanner(
        seed,
        turn_time=turn_time,
        **{"beam": beam, "plans": plans, "reply": reply, "rollouts": rollouts, "finalists": finalists, **options},
    )


def check_planner(kind: str, options: Mapping[str, Any]) -> None:
    """ValueError for a depth of a planner spec (``plan``, hard, expert) the planner does not know."""
    depth = options.get("depth")
    if depth is not None and depth not in TurnPlanner.DEPTHS:
        allowed = " or ".join(str(d) for d in TurnPlanner.DEPTHS)
        raise ValueError(f"option depth of {kind} must be {allowed} in Kingdom Builder, not {depth}")


KIT = AiKit(
    values=eval_kingdom.values,
    weights=eval_kingdom.weights,
    win_scale=8.0,
    move_values=eval_kingdom.move_values,
    decision_key=eval_kingdom.decision_key,
    turn_share=turn_share,
    planner=make_planner,
    planner_options=PLANNER_OPTIONS,
    options_owner="Kingdom Builder's",
    check_planner=check_planner,
    search={"c": 0.3, "scale": 4.0, "widen": 2.0, "top": 0},
    # the core's search values positions and orders moves with an agent's weights too
    native_search=lambda weights: () if weights is None else (eval_kingdom.native_weights(weights),),
    calibration={"analysis": (0.388, -0.230)},
)
