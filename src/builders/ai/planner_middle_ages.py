"""The turn planner of The Builders: Middle Ages: the hard and expert levels of that game.

A turn of The Builders is a few actions (three, more when bought with coins) that work together:
open a site, recruit, send the crew, take coins to pay them. The planner chooses the whole turn at
once and looks at what the other seats answer:

1. **Plans.** A beam search over the turn's actions (``beam`` positions kept at each step; the same
   actions in another order kept once) lists the ways the seat can play out its turn, each valued by
   the evaluation (``builders.ai.evaluate.win_value`` of the seat's lead, as the medium level
   values a single action).
2. **Look-ahead.** The ``plans`` best of them are played on: each other seat in turn plays its own
   best turn (a beam of ``reply`` positions, valued for that seat), and with ``depth`` 2 the seat
   then plays its best next turn; the plan's value is the seat's win value at the end. This is what
   one action at a time misses: sites opened with no crew to finish them, workers recruited with no
   coins to pay them, and cards left in the rows for the next seat.
3. The turn is then played action by action; when a card drawn into a row is not the one the plan
   expected (the decks are hidden), a new plan is made.

The planner sees only what its seat may see: it plans on ``state.resample_hidden(seat, rng)`` (deck
orders drawn anew from what is visible). With ``turn_time`` the look-ahead stops when the turn's
time is spent (the best plans first); without it the planner does all its work and, with a seed,
always plays the same.
"""

from __future__ import annotations

from builders.ai.evaluate import advantages, win_value
from builders.ai.planner import Planner, PlannerError
from builders.core.state import Action, GameState
from builders.middle_ages.codes import END

#: per level: (beam, plans, reply)
LEVEL_SETTINGS = {"hard": (30, 20, 6), "expert": (60, 40, 12)}


def _value(state: GameState, seat: int) -> float:
    """The win value of ``seat`` in ``state`` (its true return once the game is over)."""
    if state.is_over():
        return state.returns()[seat]
    return win_value(state, advantages(state)[seat])


def _rows(state: GameState) -> tuple:
    return (tuple(state.brow), tuple(state.wrow))


class MiddleAgesPlanner(Planner):
    """Plans each turn of The Builders whole (module docstring); the defaults are the hard level's.

    - ``turn_time``: seconds for planning a turn, spent at its first decision (None: no limit);
    - ``beam``: the positions kept at each step of the plan search (at least 1);
    - ``plans``: the best plans looked ahead (0: none, the best plan by the evaluation is played);
    - ``reply``: the positions kept at each step of a look-ahead turn (at least 1);
    - ``depth``: 1, the other seats' answers; 2, then the seat's own next turn;
    - ``clock``: ``wall`` or ``cpu``.
    """

    END = END
    #: a turn often draws a card or two (opening a site, recruiting), each followed by a new plan
    FIRST_SHARE = 0.6

    def __init__(self, seed: int | None = None, turn_time: float | None = 2.0, beam: int = LEVEL_SETTINGS["hard"][0],
                 plans: int = LEVEL_SETTINGS["hard"][1], reply: int = LEVEL_SETTINGS["hard"][2], depth: int = 2,
                 clock: str = "wall", name: str | None = None):
        super().__init__(seed, turn_time, beam, plans, reply, depth, clock, name)
        self.last_rows: list[tuple] = []
        #: (the history length the next planned action expects, the actions left, each with the
        #: rows the plan expects before it)
        self._plan: tuple[int, list[tuple[Action, tuple]]] | None = None

    # -- playing ------------------------------------------------------------------------------
    def act(self, state: GameState) -> Action:
        if state.GAME != "middle-ages":
            raise PlannerError(f"this turn planner plays The Builders, not {state.GAME}")
        legal = state.legal_actions()
        plan = self._plan
        if plan is not None:
            length, rest = plan
            if length == len(state.history) and rest and rest[0][1] == _rows(state) and rest[0][0] in legal:
                self._plan = (length + 1, rest[1:])
                return rest[0][0]
        if len(legal) == 1:
            self._plan = None
            return legal[0]
        actions = self.plan(state)
        self._plan = (len(state.history) + 1, list(zip(actions[1:], self.last_rows[1:])))
        return actions[0]

    def planned(self, state: GameState, action: Action) -> list[Action]:
        """After ``act(state)`` returned ``action``: the actions of the plan that follow it in this
        turn, up to ``end`` or to the first action after a card was drawn into a row (what comes
        after a draw depends on the hidden card). For a caller that makes a new planner for each
        decision (the server); empty when ``action`` did not come from a plan of this state."""
        plan = self._plan
        if plan is None or plan[0] != len(state.history) + 1:
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
        plan expects before each)."""
        start, deadline, plan_deadline, det = self._begin(state)
        seat = state.current_player
        found = self._turn(det, seat, self.beam, plan_deadline)
        best_score, _, best_end, best_actions = found[0]
        looked = 0
        if self.plans and len(found) > 1:
            scored = None
            for value, _, end, actions in found[: self.plans]:
                score = self._answered(end, seat, deadline)
                if score is None:  # the time ran out during this plan
                    break
                looked += 1
                if scored is None or score > scored[0]:
                    scored = (score, end, actions)
            if looked > 1:  # one plan looked ahead alone chooses nothing
                best_score, best_end, best_actions = scored
        rows = []
        sim = det.copy()
        for a in best_actions:
            rows.append(_rows(sim))
            sim.apply(a)
        self.last_stats = {"plans": len(found), "looked": looked, "evaluations": self._evals,
                           "seconds": self._now() - start, "value": best_score, "win": best_score}
        self.last_rows = rows
        return best_actions

    # -- the searches -------------------------------------------------------------------------
    def _turn(self, state: GameState, seat: int, width: int, deadline: float | None = None,
              stop: bool = False) -> list | None:
        """The ways ``seat`` can play out its turn from ``state``, best first, found by a beam of
        ``width``: (win value, tie-break, position after the turn, actions). Once ``deadline``
        has passed the beam narrows to 1, or with ``stop`` the search gives up (None)."""
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
                    item = (_value(c, seat), rand(), c, acts + [a])
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
        """``seat``'s win value after each other seat plays its best turn from ``end`` (and, with
        ``depth`` 2, the seat its own best next turn); None when ``deadline`` passes first."""
        st = end
        while not st.is_over() and st.current_player != seat:
            answers = self._turn(st, st.current_player, self.reply, deadline, stop=True)
            if answers is None:
                return None
            st = answers[0][2]
        if self.depth == 2 and not st.is_over():
            mine = self._turn(st, seat, self.reply, deadline, stop=True)
            return None if mine is None else mine[0][0]
        return _value(st, seat)
