"""The turn planner of The Builders: Middle Ages: the hard and expert levels of that game.

A turn of The Builders is a few actions (three, more when bought with coins) that work together:
open a site, recruit, send the crew, take coins to pay them. The planner chooses the whole turn at
once and looks at what the other seats answer:

1. **Plans.** A beam search over the turn's actions (``beam`` positions kept at each step; the same
   actions in another order kept once) lists the ways the seat can play out its turn, each valued by
   the evaluation (``builders.ai.evaluate.win_value`` of the seat's lead, as the medium level
   values a single action).
2. **Look-ahead.** The ``plans`` best of them, and the best ``planner.ENDING_PLANS`` of the others that end
   the game or start its final round, are played on: each other seat in turn plays its own
   best turn (a beam of ``reply`` positions, valued for that seat), with ``depth`` 2 the seat then
   plays its best next turn, and with 3 the other seats answer that too; the plan's value is the
   seat's win value at the end. This is what
   one action at a time misses: sites opened with no crew to finish them, workers recruited with no
   coins to pay them, and cards left in the rows for the next seat.
3. The turn is then played action by action; after a card is drawn into a row (opening a site,
   recruiting: the card was hidden), a new plan is made from what the seat now sees.
4. With ``samples`` above 1 (expert) the turn is planned on that many determinizations and the
   plans are compared by their start up to the first card drawn (see ``plan``).

The planner sees only what its seat may see: it plans on ``state.resample_hidden(seat, rng)`` (deck
orders drawn anew from what is visible). With ``turn_time`` the look-ahead stops when the turn's
time is spent (the best plans first); without it the planner does all its work and, with a seed,
always plays the same.

Handed a native state (``builders.middle_ages.native``), the planner searches inside the core: the
beam search of a turn (``ma_plan_turn``) and the look-ahead of a plan (``ma_plan_answered``) run there
with the planner's weights and a native copy of its generator, valuing the same positions with the
same numbers (tests/native/test_middle_ages_bots.py), so that it chooses the same actions for the same
budget of positions (the clock ``count``), many more of them in a turn of time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from builders.ai.eval_middle_ages import DEFAULT, MiddleAgesSettings, native_weights
from builders.ai.eval_middle_ages import values as eval_values
from builders.ai.eval_middle_ages import weights as eval_weights
from builders.ai.evaluate import advantages, win_value
from builders.ai.planner import PLAN_SHARE, Planner, PlannerError, with_ending_plans
from builders.ai.planner_kingdom import _give_back, _native_random
from builders.core.state import Action, GameState
from builders.middle_ages.codes import END

#: per level: (beam, plans, reply, samples)
LEVEL_SETTINGS = {"hard": (30, 20, 6, 1), "expert": (40, 24, 8, 6)}
#: per level: the depth of the look-ahead
LEVEL_DEPTH = {"hard": 2, "expert": 2}
#: per level: the evaluation's weights of its own (names of ``eval_middle_ages.WEIGHT_NAMES`` -> values;
#: the others, and all of hard's, those of the medium level), found by self-play of the planner
#: (docs/ai.md, "Weights of the planner's own")
LEVEL_WEIGHTS: dict[str, dict[str, float]] = {"hard": {}, "expert": {"MA_STAFFED": 0.6, "MA_HORIZON": 4.5}}
#: the planner's options that set one of its weights, with their bounds
WEIGHT_OPTIONS = {"staffed": ("MA_STAFFED", 1.0), "horizon": ("MA_HORIZON", 50.0)}


def _value(state: GameState, seat: int, w: MiddleAgesSettings | None = None) -> float:
    """The win value of ``seat`` in ``state`` (its true return once the game is over), with the
    evaluation's weights ``w`` (None: its own)."""
    if state.is_over():
        return state.returns()[seat]
    if w is None or w is DEFAULT:
        return win_value(state, advantages(state)[seat])
    v = eval_values(state, w)
    return win_value(state, v[seat] - max(x for q, x in enumerate(v) if q != seat), weights=w)


def _rows(state: GameState) -> tuple:
    native = getattr(state, "ma_rows", None)
    return native() if native is not None else (tuple(state.brow), tuple(state.wrow))


def _drawn_start(det: GameState, actions: list[Action]) -> tuple[Action, ...]:
    """The actions of a plan up to the first that draws a card into a row (included), or all."""
    sim = det.copy()
    rows = _rows(sim)
    for i, a in enumerate(actions):
        sim.apply(a)
        if _rows(sim) != rows:
            return tuple(actions[: i + 1])
    return tuple(actions)


class MiddleAgesPlanner(Planner):
    """Plans each turn of The Builders whole (module docstring); the defaults are the hard level's.

    - ``turn_time``: seconds for a whole turn (None: no limit): the first plan takes at most
      ``FIRST_SHARE`` of it, a plan made again after a draw what is left (``Planner._budget``);
    - ``beam``: the positions kept at each step of the plan search (at least 1);
    - ``plans``: the best plans looked ahead (0: none, the best plan by the evaluation is played);
    - ``reply``: the positions kept at each step of a look-ahead turn (at least 1);
    - ``depth``: 1, the other seats' answers; 2, then the seat's own next turn; 3, then the other
      seats' answers to that;
    - ``samples``: the determinizations each turn is planned on (at least 1);
    - ``weights``: the evaluation's weights for this planner's valuations (names of
      ``eval_middle_ages.WEIGHT_NAMES`` -> values, the others the evaluation's defaults; or a
      ``MiddleAgesSettings``; ``LEVEL_WEIGHTS``); ``staffed`` and ``horizon`` set ``MA_STAFFED`` and
      ``MA_HORIZON`` among them (None: as ``weights`` has it);
    - ``clock``: ``wall``, ``cpu`` or ``count`` (positions evaluated: the same plans on every run).
    """

    END = END
    DEPTHS = (1, 2, 3)
    #: a turn often draws a card or two (opening a site, recruiting), each followed by a new plan
    FIRST_SHARE = 0.6

    def __init__(
        self,
        seed: int | None = None,
        turn_time: float | None = 2.0,
        beam: int = LEVEL_SETTINGS["hard"][0],
        plans: int = LEVEL_SETTINGS["hard"][1],
        reply: int = LEVEL_SETTINGS["hard"][2],
        depth: int = 2,
        samples: int = LEVEL_SETTINGS["hard"][3],
        clock: str = "wall",
        name: str | None = None,
        staffed: float | None = None,
        horizon: float | None = None,
        weights: Mapping[str, float] | None = None,
    ):
        super().__init__(seed, turn_time, beam, plans, reply, depth, clock, name)
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise PlannerError(f"samples must be a whole number of at least 1, not {samples!r}")
        self.samples = samples
        if isinstance(weights, MiddleAgesSettings):
            own = {f: v for f, v in vars(weights).items() if v != getattr(DEFAULT, f)}
        else:
            own = dict(weights or {})
        for key, value in (("staffed", staffed), ("horizon", horizon)):
            name, top = WEIGHT_OPTIONS[key]
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top:
                raise PlannerError(f"{key} must be a number from 0 to {top:g}, not {value!r}")
            own[name] = value
        try:
            #: the weights of the planner's valuations (a settings object, pickled with the planner)
            self.settings = eval_weights(own)
        except ValueError as e:
            raise PlannerError(str(e)) from None
        #: the planner's own weights, those that differ from the evaluation's defaults
        self.weights = own
        self.staffed, self.horizon = own.get("MA_STAFFED"), own.get("MA_HORIZON")
        self.last_rows: list[tuple] = []
        #: (the mark the next planned action expects: ``Planner._mark``, the actions left, each
        #: with the rows the plan expects before it)
        self._plan: tuple[tuple[int, int], list[tuple[Action, tuple]]] | None = None

    @staticmethod
    def _cards_left(state: GameState) -> int:
        return len(state.bdeck) + len(state.wdeck)

    def _planned_on(self, state: GameState) -> GameState:
        """A native state as it is: its searches run inside the core (``ma_plan_turn``, ``ma_plan_answered``)."""
        return state if hasattr(state, "ma_plan_turn") else super()._planned_on(state)

    # -- playing ------------------------------------------------------------------------------
    def act(self, state: GameState) -> Action:
        if state.GAME != "middle-ages":
            raise PlannerError(f"this turn planner plays The Builders, not {state.GAME}")
        legal = state.legal_actions()
        plan = self._plan
        mark = self._mark(state)
        if plan is not None:
            expected, rest = plan
            if expected == mark and rest and rest[0][1] == _rows(state) and rest[0][0] in legal:
                self._plan = ((mark[0] + 1, mark[1]), rest[1:])
                return rest[0][0]
        if len(legal) == 1:
            self._plan = None
            return legal[0]
        actions = self.plan(state)
        self._plan = ((mark[0] + 1, mark[1]), list(zip(actions[1:], self.last_rows[1:])))
        return actions[0]

    def planned(self, state: GameState, action: Action) -> list[Action]:
        """After ``act(state)`` returned ``action``: the actions of the plan that follow it in this
        turn, up to ``end`` or to the first action after a card was drawn into a row (what comes
        after a draw depends on the hidden card). For a caller that makes a new planner for each
        decision (the server); empty when ``action`` did not come from a plan of this state."""
        plan = self._plan
        mark = self._mark(state)
        if plan is None or plan[0] != (mark[0] + 1, mark[1]):
            return []
        seat = state.current_player
        sim = state.copy()
        rows = _rows(sim)
        sim.apply(action)
        out: list[Action] = []
        for a, _ in plan[1]:
            if _rows(sim) != rows or sim.is_over() or sim.current_player != seat or not sim.is_legal(a):
                break
            sim.apply(a)
            out.append(a)
        return out

    def plan(self, state: GameState) -> list[Action]:
        """The actions of the seat to move until the end of its turn (``last_rows``: the rows the
        plan expects before each).

        With ``samples`` above 1 the turn is planned on that many determinizations, each with its
        share of the time, and the plans are compared by their start up to the first card drawn
        (which is the same whatever is hidden: the rest is planned again after the draw): the start
        with the best mean value over the determinizations wins (a start a determinization did not
        look at counts there as that determinization's worst plan looked at)."""
        start, deadline, _, det = self._begin(state)
        if not hasattr(det, "ma_plan_turn"):
            return self._make_plan(state, start, deadline, det)
        # inside the core the ties are drawn from a native copy of the generator, given back after
        own = self.random
        self.random = _native_random(own)
        try:
            return self._make_plan(state, start, deadline, det)
        finally:
            _give_back(own, self.random)
            self.random = own

    def _make_plan(self, state: GameState, start: float, deadline: float | None, det: GameState) -> list[Action]:
        seat = state.current_player
        k_all = self.samples
        known = self._planned_on(state) if k_all > 1 else state
        dets = [det] + [known.resample_hidden(seat, self.rng) for _ in range(k_all - 1)]
        per_det: list[dict[tuple, tuple]] = []
        plans = looked = 0
        for k, d in enumerate(dets):
            if deadline is None:
                plan_end = end_by = None
            else:
                share = (deadline - start) / k_all
                plan_end, end_by = start + share * (k + PLAN_SHARE), start + share * (k + 1)
            scored, n, m = self._scored_plans(d, seat, plan_end, end_by)
            plans += n
            looked += m
            starts: dict[tuple, tuple] = {}
            for score, actions in scored:
                key = _drawn_start(d, actions)
                if key not in starts or score > starts[key][0]:
                    starts[key] = (score, actions)
            per_det.append(starts)
            if k and deadline is not None and self._now() > deadline:
                break
        # the start with the best mean value over the determinizations planned
        floors = [min(v[0] for v in starts.values()) for starts in per_det]
        best = None
        for key in per_det[0]:
            mean = sum(starts.get(key, (floor,))[0] for starts, floor in zip(per_det, floors)) / len(per_det)
            if best is None or mean > best[0]:
                best = (mean, key)
        best_score, key = best
        best_actions = per_det[0][key][1]
        rows = []
        sim = det.copy()
        for a in best_actions:
            rows.append(_rows(sim))
            sim.apply(a)
        self.last_stats = {
            "plans": plans,
            "looked": looked,
            "samples": len(per_det),
            "evaluations": self._evals,
            "seconds": self._now() - start,
            "value": best_score,
            "win": best_score,
        }
        self.last_rows = rows
        return best_actions

    def _scored_plans(
        self, det: GameState, seat: int, plan_deadline: float | None, deadline: float | None
    ) -> tuple[list[tuple[float, list[Action]]], int, int]:
        """The plans of ``seat`` on the determinization ``det`` with their values (looked ahead when
        two or more could be), the number of plans found and the number looked ahead."""
        found = self._turn(det, seat, self.beam, plan_deadline)
        looked: list[tuple[float, list[Action]]] = []
        if self.plans and len(found) > 1:
            # the best plans, then the best of the others that end the game or start its final
            # round (a seat reaching 17 VP), which the win value before the answers may rank low
            late = False  # the time ran out: only plans that end the game are valued
            for _, _, end, actions in with_ending_plans(found, self.plans, det.final_round, 2):
                if late and not end.is_over():
                    continue
                score = self._answered(end, seat, deadline)
                if score is None:  # the time ran out during this plan
                    late = True
                    continue
                looked.append((score, actions))
        if len(looked) > 1:  # one plan looked ahead alone chooses nothing
            return looked, len(found), len(looked)
        return [(value, actions) for value, _, _, actions in found], len(found), 0

    # -- the searches -------------------------------------------------------------------------
    def _turn(
        self, state: GameState, seat: int, width: int, deadline: float | None = None, stop: bool = False
    ) -> list | None:
        """The ways ``seat`` can play out its turn from ``state``, best first, found by a beam of
        ``width``: (win value, tie-break, position after the turn, actions). Once ``deadline``
        has passed the beam narrows to 1, or with ``stop`` the search gives up (None). A native state
        runs the whole search inside the core (``ma_plan_turn``: the same positions, values and ties,
        from a native copy of the generator); with ``stop`` it gives the best turn only."""
        if hasattr(state, "ma_plan_turn"):
            evals, found = self._in_core(state.ma_plan_turn, seat, width, deadline, stop)
            self._evals += evals
            return found
        beam = [(state, [])]
        done: list = []
        seen: set = set()
        rand = self.random.random
        while beam:
            children = []
            for st, acts in beam:
                for a in st.legal_actions():
                    key = tuple(sorted(acts + [a]))
                    if key in seen:
                        continue
                    seen.add(key)
                    c = st.copy()
                    c.apply(a)
                    self._evals += 1
                    item = (_value(c, seat, self.settings), rand(), c, acts + [a])
                    if c.is_over() or c.current_player != seat:
                        done.append(item)
                    else:
                        children.append(item)
            children.sort(key=lambda x: (x[0], x[1]), reverse=True)
            if deadline is not None and self._now() > deadline:
                if stop:
                    return None
                width = 1
            beam = [(c, acts) for _, _, c, acts in children[:width]]
        done.sort(key=lambda x: (x[0], x[1]), reverse=True)
        return done

    def _answered(self, end: GameState, seat: int, deadline: float | None) -> float | None:
        """``seat``'s win value after each other seat plays its best turn from ``end`` (with
        ``depth`` 2, then the seat its own best next turn; with 3, then the other seats again);
        None when ``deadline`` passes first. A native state looks ahead inside the core
        (``ma_plan_answered``, alike)."""
        if hasattr(end, "ma_plan_answered"):
            evals, score = self._in_core(end.ma_plan_answered, seat, self.reply, deadline, self.depth)
            self._evals += evals
            return score
        st = self._others_answer(end, seat, deadline)
        if st is None or self.depth == 1 or st.is_over():
            return None if st is None else _value(st, seat, self.settings)
        mine = self._turn(st, seat, self.reply, deadline, stop=True)
        if mine is None:
            return None
        if self.depth == 2:
            return mine[0][0]
        st = self._others_answer(mine[0][2], seat, deadline)
        return None if st is None else _value(st, seat, self.settings)

    def _in_core(self, search, seat: int, width: int, deadline: float | None, last: int | bool):
        """``search`` (a native state's ``ma_plan_turn`` or ``ma_plan_answered``: ``last`` is their
        ``stop`` or ``depth``) with the planner's weights, clock, and a native generator in the state of
        the planner's (the planner's drawn on after it)."""
        own = self.random
        rnd = _native_random(own) if isinstance(own, random.Random) else own
        now = None if deadline is None else self._now_after
        try:
            return search(seat, width, native_weights(self.settings), rnd, deadline, now, last)
        finally:
            if rnd is not own:
                _give_back(own, rnd)

    def _others_answer(self, st: GameState, seat: int, deadline: float | None) -> GameState | None:
        """The position after each other seat, in turn from ``st``, plays its best turn (a beam of
        ``reply``), up to ``seat``'s turn or the end of the game; None when ``deadline`` passes."""
        while not st.is_over() and st.current_player != seat:
            answers = self._turn(st, st.current_player, self.reply, deadline, stop=True)
            if answers is None:
                return None
            st = answers[0][2]
        return st
