"""The AI kit of The Builders: Middle Ages (its plugin's ``ai``): the evaluation
(:mod:`builders.ai.eval_middle_ages`), the turn planner (:mod:`builders.ai.planner_middle_ages`) and the
split of a turn's time.

The split of a turn's time (``builders.ai.budget``):

- The Builders: the turn's first decision weighs 2 (one ``coins 3`` may spend the whole turn, and
  later decisions search on in its subtree), a later decision with actions left 1, the one with
  none left (``end`` or ``buy``) 0.5; a whole turn is taken as 6.5 (the first decision, at most four
  more actions, one of them bought, and the end). The first decision counts the whole turn as still
  to come, so a searching agent that follows its turn plans to the turn's end; a later decision
  keeps for the end of the turn 0.5 when the seat can buy (``end`` or ``buy`` is then a real
  choice, which gets two thirds of what is left) and almost nothing when it cannot (``end`` alone
  is played at once). Before, a turn without a bought action planned 3.5 / 5.5 of the turn and the
  hard level used about 60% of its 2 s; a fresh agent for each decision still gets ``this / 6.5``.

The options of its planner (``plan``, hard and expert of :mod:`builders.ai.agents`): ``turn``,
``beam``, ``plans``, ``reply`` (default 30, 20, 6), ``depth`` (1, the other seats' answers, 2, then
the seat's next turn, or 3, then the answers to it; default 2), ``clock``, ``samples``
(determinizations the turn is planned on, default 1, expert 6), ``staffed`` and ``horizon`` (the
evaluation's ``MA_STAFFED`` and ``MA_HORIZON`` for the planner's valuations; default the
evaluation's, 0.4 and 2.5, expert 0.6 and 4.5). ``mcts:turn=2:prior=fast:reuse=1`` (with ``top=3``,
the kit's search default) was the hard level before the planner.
"""

from __future__ import annotations

from typing import Any

from builders.ai import eval_middle_ages
from builders.ai.kit import AiKit
from builders.ai.planner_middle_ages import LEVEL_DEPTH, LEVEL_SETTINGS, LEVEL_WEIGHTS, MiddleAgesPlanner
from builders.core.state import Chance
from builders.middle_ages.codes import ACTION_PRICE

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
#: the planner options of The Builders' planner (of ``builders.ai.agents.OPTIONS["plan"]``)
PLANNER_OPTIONS = ("turn", "beam", "plans", "reply", "depth", "samples", "clock", "staffed", "horizon")


def _middle_ages(st) -> tuple[float, float, float]:
    first = True
    for entry in reversed(st.history):
        if not isinstance(entry, Chance):
            first = entry == 0  # the last action was "end": this seat's turn begins
            break
    if first:
        # the whole turn lies ahead (the deadline is the turn's end); "coins 3" may spend it at once
        return MA_FIRST, MA_TOTAL, MA_TOTAL
    if st.actions:
        return 1.0, st.actions + (MA_END if st.coins[st.cur] >= ACTION_PRICE else MA_FORCED_END), MA_TOTAL
    # no action left: "end" or "buy" (with fewer than 5 coins "end" is the only action, played at once)
    return 0.5, 0.5 + MA_AFTER_BUY, MA_TOTAL


def turn_share(st) -> tuple[float, float, float]:
    """``(this, rest, total)`` of the decision of the player to move (the module docstring)."""
    return _middle_ages(st)


def values(st, turn_over: int | None = None, weights=None) -> list[float]:
    """Per-seat estimates of the final VP (``weights``: ``eval_middle_ages.weights(...)``, or None)."""
    return eval_middle_ages.values(st, weights)


def make_planner(seed: int | None, level: str, turn_time: float, **options: Any) -> MiddleAgesPlanner:
    """The turn planner at ``level`` (hard or expert): ``LEVEL_SETTINGS``, ``LEVEL_DEPTH`` and
    ``LEVEL_WEIGHTS``, with ``options`` in their place (``weights``: over the level's, by name)."""
    beam, plans, reply, samples = LEVEL_SETTINGS[level]
    weights = options.pop("weights", None)
    if isinstance(weights, eval_middle_ages.MiddleAgesSettings):
        own: Any = weights
    else:
        own = {**LEVEL_WEIGHTS[level], **(weights or {})}
    return MiddleAgesPlanner(
        seed,
        turn_time=turn_time,
        **{
            "beam": beam,
            "plans": plans,
            "reply": reply,
            "samples": samples,
            "depth": LEVEL_DEPTH[level],
            "weights": own,
            **options,
        },
    )


KIT = AiKit(
    values=values,
    weights=eval_middle_ages.weights,
    win_scale=2.5,
    win_margin=0.02,
    end_margin=0.002,
    end_triggered=eval_middle_ages.end_triggered,
    late_factor=eval_middle_ages.late_factor,
    decision_key=lambda st: (*st.brow, -1, *st.wrow),
    turn_share=turn_share,
    planner=make_planner,
    planner_options=PLANNER_OPTIONS,
    options_owner="The Builders'",
    search={"c": 0.5, "scale": 2.5, "widen": 2.0, "top": 3},
    # the core's search values positions with an agent's weights too
    native_search=lambda weights: (
        eval_middle_ages.native_weights(eval_middle_ages.DEFAULT if weights is None else weights),
    ),
    calibration={"analysis": (0.521, -0.200)},
)
