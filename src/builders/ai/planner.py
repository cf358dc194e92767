"""What the turn planners share (:class:`Planner`): settings, clock, time budget, generators and
statistics. Each game's planner (the hard and expert levels) is part of its AI kit
(:mod:`builders.ai.kit`, ``planner``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from builders.ai.mcts import CLOCKS
from builders.core.games import on_python
from builders.core.rng import Rng
from builders.core.state import Action, Chance, GameState

#: the share of the turn time the planner plans to use (the rest: the turn's other actions, a busy machine)
TURN_MARGIN = 0.9
#: the share of the planning time for finding the plans (the rest looks ahead); after it the beam is 1
PLAN_SHARE = 0.4
#: the share of the turn time for a plan made again in a turn by a planner that did not see its start
REPLAN_SHARE = 0.2
#: ... and the least share a planner that saw the start gives a plan made again late in the turn
LAST_SHARE = 0.05
#: the planners' own clock "count": time counted in positions evaluated, this many a second (about
#: what a planner evaluates in a second of one core), so that a budget gives the same plans on every
#: machine and every run (the analysis's hard bot uses it)
COUNT_RATE = 40_000
#: the clocks of the planners: the search's (wall, cpu) and the count of positions evaluated
PLANNER_CLOCKS = (*CLOCKS, "count")
#: the plans that end the game or start its final round looked ahead beyond the best ``plans``
ENDING_PLANS = 4


class PlannerError(ValueError):
    """A planner that cannot be made (a setting out of range) or a game it does not play."""


def first_decision(state: GameState, end: Action) -> bool:
    """Whether the seat to move has not acted yet in its turn (the last action of the history, past
    the cards drawn, is ``end``, or there is none)."""
    for entry in reversed(state.history):
        if not isinstance(entry, Chance):
            return entry == end
    return True


class Planner(ABC):
    """What the turn planners of the games share: their settings (checked: PlannerError saying
    which is out of range), clock, time budget, generators and statistics."""

    #: the game's end-of-turn action (each game's planner sets its own)
    END: Action = 0
    #: the share of the turn time for the plan made at the first decision of a turn (the rest is
    #: kept for plans made again after a card drawn in the turn)
    FIRST_SHARE = 1.0
    #: the depths of look-ahead the planner knows
    DEPTHS: tuple[int, ...] = (1, 2)

    def __init__(
        self,
        seed: int | None,
        turn_time: float | None,
        beam: int,
        plans: int,
        reply: int,
        depth: int,
        clock: str,
        name: str | None,
    ):
        if turn_time is not None and not turn_time > 0:
            raise PlannerError(f"turn time must be positive, not {turn_time}")
        for key, value, low in (("beam", beam, 1), ("plans", plans, 0), ("reply", reply, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise PlannerError(f"{key} must be a whole number of at least {low}, not {value!r}")
        if depth not in self.DEPTHS or isinstance(depth, bool):
            allowed = ", ".join(str(d) for d in self.DEPTHS[:-1]) + f" or {self.DEPTHS[-1]}"
            raise PlannerError(f"depth must be {allowed}, not {depth!r}")
        if clock not in PLANNER_CLOCKS:
            raise PlannerError(f"clock must be one of {', '.join(PLANNER_CLOCKS)}, not {clock!r}")
        self.seed = seed
        self.turn_time = turn_time
        self.beam = beam
        self.plans = plans
        self.reply = reply
        self.depth = depth
        self.clock = clock
        self._now = self._counted if clock == "count" else CLOCKS[clock]
        self.random = random.Random(seed)
        self.rng = Rng(self.random.getrandbits(64))
        self.name = name or "planner"
        self.last_stats: dict[str, float] = {}
        #: the share of the turn time of a plan made in the middle of a turn by a planner that did
        #: not see the turn start (a server bot made for one decision); a hint, asked once and
        #: waited for, gives it ``FIRST_SHARE``, as at the start of a turn
        self.replan_share = REPLAN_SHARE
        self._evals = 0
        #: the positions evaluated by the plans before the current one (the clock "count")
        self._evals_before = 0
        #: ((seat, turn), the time its first plan started) of the last turn planned
        self._turn_started: tuple[tuple[int, int], float] | None = None

    def _counted(self) -> float:
        """The clock "count": the positions this planner has evaluated, in seconds of ``COUNT_RATE``."""
        return (self._evals_before + self._evals) / COUNT_RATE

    def _now_after(self, extra: int) -> float:
        """The planner's clock once ``extra`` more positions are evaluated (a search inside the native
        core asks it with the positions it has valued so far)."""
        if self.clock == "count":
            return (self._evals_before + self._evals + extra) / COUNT_RATE
        return self._now()

    def _planned_on(self, state: GameState) -> GameState:
        """The position the searches run on: the Python engine's (``on_python``), unless the game's
        planner searches inside the native core."""
        return on_python(state)

    @property
    def evaluated(self) -> int:
        """The positions this planner has evaluated, all its plans together."""
        return self._evals_before + self._evals

    @staticmethod
    @abstractmethod
    def _cards_left(state: GameState) -> int:
        """The cards left in the game's hidden decks (a draw changes it): each game's planner says."""

    def _mark(self, state: GameState) -> tuple[int, int]:
        """Where ``state`` is in its game, as the plan being played expects it: the player actions
        played and the cards left to draw. The same for the true state and any state drawn from a
        seat's observation (``resample_hidden`` keeps no drawn card in its history, so the
        history's length would differ), so that a plan is played through, or made again after a
        card drawn, alike in both."""
        return len(state.player_actions()), self._cards_left(state)

    def forget(self) -> None:
        """Drop the plan being played (the game left it: the next ``act`` plans again)."""
        self._plan = None

    def _budget(self, state: GameState, now: float) -> float | None:
        """The seconds a plan made now may take: at the first decision of a turn ``FIRST_SHARE`` of
        the turn time; when a card drawn in the turn makes the planner plan again, what is left of
        the turn (at least ``LAST_SHARE`` of it), or ``replan_share`` of it for a planner that did
        not see the turn start (the server makes one for each decision); None without a limit."""
        if self.turn_time is None:
            return None
        key = (state.current_player, state.turn)
        if first_decision(state, self.END):
            self._turn_started = (key, now)
            return self.turn_time * self.FIRST_SHARE
        if self._turn_started is not None and self._turn_started[0] == key:
            left = self.turn_time - (now - self._turn_started[1])
            return max(left, self.turn_time * LAST_SHARE)
        return self.turn_time * self.replan_share

    def _begin(self, state: GameState) -> tuple[float, float | None, float | None, GameState]:
        """The start of a turn's planning: the time now, the plan's deadline (``_budget``, less a
        margin), the plan search's (``PLAN_SHARE`` of the time), and the position planned on, drawn
        from what the seat to move sees."""
        start = self._now()
        budget = self._budget(state, start)
        if budget is not None:
            budget *= TURN_MARGIN
        self._evals_before += self._evals
        self._evals = 0
        det = self._planned_on(state).resample_hidden(state.current_player, self.rng)
        if budget is None:
            return start, None, None, det
        return start, start + budget, start + PLAN_SHARE * budget, det


def with_ending_plans(found: list, plans: int, final_round: bool, at: int) -> list:
    """The plans to look ahead, of either game's planner: the ``plans`` best by the evaluation, then
    the best ``ENDING_PLANS`` of the others whose position (``plan[at]``) ends the game or starts
    its final round (rules.md of either game, "End of the game"). The evaluation often ranks those
    below the best: it values a game's end at the points alone, while plans that keep the game
    going count what the turns to come may bring, though ending it while ahead denies the other
    seats their turns."""
    extra = [f for f in found[plans:] if f[at].is_over() or (f[at].final_round and not final_round)]
    return found[:plans] + extra[:ENDING_PLANS]
