"""The turn planner of Kingdom Builder: the hard and expert levels of that game.

A Kingdom Builder turn is one decision spread over several actions: three builds on the same
terrain card and the tiles before or after them. The planner chooses the whole turn at once:

1. **Plans.** A beam search over the turn's actions (``beam`` positions kept at each step, the same
   position reached in another order kept once) lists the positions the seat can end its turn in,
   each valued by the evaluation (``builders.ai.evaluate``: the seat's lead over the best other
   seat, in gold).
2. **Look-ahead.** The ``plans`` best of them (and the best ``ENDING_PLANS`` of the others that
   end the game or start its final round) are valued again: their lead, plus what the seat can
   expect from its next turn (for each terrain card it may draw, weighted by the cards it has not
   seen, the lead after the best next turn a narrow beam of ``reply`` positions finds, less the lead
   now), less, times ``block``, what the next seat can expect from its own next turn in the same
   way. This is what one-action-at-a-time play misses: settlements that leave good builds for the
   cards to come, and builds that take the hexes the next player wants. In the game's last round
   (``evaluate.last_round``) the seat has no next turn, and a plan that ends the game is worth its
   result: plans are compared by the win, then by the lead.
3. **Games played out** (``rollouts``, the hard and expert levels): in the turn's time left after
   the look-ahead, the ``finalists`` best plans by it are played out to the game's end, round after
   round, every seat playing the best turn a narrow beam (``roll_beam``) finds by the evaluation
   alone; in a round every plan is played out on the same draw of the cards the seat has not seen,
   so that the plans are compared on the same luck. With at least ``MIN_ROUNDS`` rounds the plan
   with the best mean final lead is played. The evaluation sees one turn ahead; the games played
   out see what the cards pay by the end.
4. The turn is then played action by action; a card drawn during the turn (the played terrain has no
   free hex left: rules.md, building rule 4) starts a new plan.

The planner sees only what its seat may see: it plans on ``state.resample_hidden(seat, rng)`` and
weights the next cards by the pool of cards the seat has not seen (the deck and the other seats'
hands). With ``turn_time`` the look-ahead stops when the turn's time is spent (the best plans are
valued first); without it the planner does all its work and, with a seed, always plays the same.

``last_stats`` holds the plans found, the plans looked ahead, the positions evaluated, the time, the
chosen plan's value (its lead, or its mean final lead in the games played out) and win value, and the
rounds of games played out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from builders.ai.eval_kingdom import DEFAULT, KingdomSettings, last_round, move_values, native_weights, values
from builders.ai.eval_kingdom import weights as eval_weights
from builders.ai.evaluate import advantages, win_value
from builders.ai.planner import Planner, PlannerError, with_ending_plans
from builders.core.rng import Rng
from builders.core.state import Action, GameState
from builders.kingdom.notation import END, SHIFT

#: the smallest tile action (builds are hex numbers below it)
TILE = 1 << SHIFT
#: the fewest rounds of games played out (one per finalist) for them to choose the plan
MIN_ROUNDS = 4
#: per level: (beam, plans, reply)
LEVEL_SETTINGS = {"hard": (30, 16, 4), "expert": (40, 32, 6)}
#: per level: (rollouts, finalists), the most rounds of games played out and the plans they choose from
ROLLOUT_SETTINGS = {"hard": (64, 4), "expert": (100, 6)}
#: a card left out of a mean over the cards (no turn found with it)
_SKIP = float("nan")


class TurnPlanner(Planner):
    """Plans each Kingdom Builder turn whole (module docstring); the defaults are the hard level's
    but for the games played out, which are off (``make_planner`` gives the levels theirs:
    ``ROLLOUT_SETTINGS``).

    - ``turn_time``: seconds for a whole turn, spent at its first decision (None: no limit; a
      plan made again after a card drawn in the turn gets what is left: ``Planner._budget``);
    - ``beam``: the positions kept at each step of the plan search (at least 1);
    - ``plans``: the best plans looked ahead (0: none, the best plan by the evaluation is played);
    - ``reply``: the positions kept at each step of a look-ahead turn (at least 1);
    - ``ahead``: the weight of the seat's own next turn; ``block``: of the next seat's;
    - ``depth``: 1, both next turns valued from the plan's end; 2, the next seat's best turn
      with each card applied before the seat's own next turn;
    - ``clock``: ``wall``, ``cpu`` or ``count`` (``COUNT_RATE`` positions evaluated a second: the
      same plans on every run);
    - ``rollouts``: the most rounds of games played out (0: none; without ``turn_time`` all are
      played); ``finalists``: the plans played out (at least 2); ``roll_beam``: the beam of the
      turns played in them;
    - ``weights``: the settings of the planner's valuations and move heuristic (names of
      ``eval_kingdom.SETTING_NAMES`` -> values, the others the defaults; or a ``KingdomSettings``):
      among them ``TILE_ACTIONS``, the tile actions tried from a position (the best by the move
      heuristic; every build is tried). Other settings than the defaults search in Python.
    """

    END = END

    def __init__(
        self,
        seed: int | None = None,
        turn_time: float | None = 2.0,
        beam: int = LEVEL_SETTINGS["hard"][0],
        plans: int = LEVEL_SETTINGS["hard"][1],
        reply: int = LEVEL_SETTINGS["hard"][2],
        ahead: float = 1.0,
        block: float = 1.0,
        depth: int = 1,
        clock: str = "wall",
        rollouts: int = 0,
        finalists: int = 4,
        roll_beam: int = 1,
        name: str | None = None,
        weights: Mapping[str, float] | KingdomSettings | None = None,
    ):
        for key, value in (("ahead", ahead), ("block", block)):
            if not 0 <= value <= 10:
                raise PlannerError(f"{key} must be from 0 to 10, not {value!r}")
        for key, value, low in (("rollouts", rollouts, 0), ("finalists", finalists, 2), ("roll_beam", roll_beam, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise PlannerError(f"{key} must be a whole number of at least {low}, not {value!r}")
        try:
            #: the settings of the planner's valuations (pickled with the planner)
            self.settings = eval_weights(weights)
        except ValueError as e:
            raise PlannerError(str(e)) from None
        #: the settings as the evaluation takes them (None: its defaults)
        self._w = None if self.settings == DEFAULT else self.settings
        #: the settings as the native core's searches take them (its weights and TILE_ACTIONS)
        self._native = () if self._w is None else (native_weights(self.settings), self.settings.TILE_ACTIONS)
        super().__init__(seed, turn_time, beam, plans, reply, depth, clock, name)
        self.ahead = float(ahead)
        self.block = float(block)
        self.rollouts = rollouts
        self.finalists = finalists
        self.roll_beam = roll_beam
        #: (the mark the next planned action expects: ``_mark``, the seat's card, the actions left)
        self._plan: tuple[tuple[int, int], int, list[Action]] | None = None

    @staticmethod
    def _cards_left(state: GameState) -> int:
        return len(state.deck)

    # -- playing ------------------------------------------------------------------------------
    def act(self, state: GameState) -> Action:
        if state.GAME != "kingdom":
            raise PlannerError(f"the turn planner plays Kingdom Builder, not {state.GAME}")
        legal = state.legal_actions()
        seat = state.current_player
        plan = self._plan
        mark = self._mark(state)
        if plan is not None:
            expected, card, rest = plan
            if expected == mark and card == state.hand[seat] and rest and rest[0] in legal:
                self._plan = ((mark[0] + 1, mark[1]), card, rest[1:])
                return rest[0]
        if len(legal) == 1:
            self._plan = None
            return legal[0]
        actions = self.plan(state)
        self._plan = ((mark[0] + 1, mark[1]), state.hand[seat], actions[1:])
        return actions[0]

    def planned(self, state: GameState, action: Action) -> list[Action]:
        """After ``act(state)`` returned ``action``: the actions of the plan that follow it in this
        turn, up to ``end`` or to the first that draws a card (building rule 4: the played terrain
        left without a free hex), since what comes after a draw depends on the card. For a caller
        that makes a new planner for each decision (the server) and plays the turn's plan without
        asking again; empty when ``action`` did not come from a plan of this state."""
        plan = self._plan
        mark = self._mark(state)
        if plan is None or plan[0] != (mark[0] + 1, mark[1]):
            return []
        seat = state.current_player
        sim = state.copy()
        drawn = len(sim.removed)
        sim.apply(action)
        out: list[Action] = []
        for a in plan[2]:
            if len(sim.removed) != drawn or sim.current_player != seat or not sim.is_legal(a):
                break
            sim.apply(a)
            out.append(a)
        return out

    def _planned_on(self, state: GameState) -> GameState:
        """A native state as it is: its searches run inside the core (``plan_turn``, ``plan_rollout``),
        with the planner's settings."""
        return state if hasattr(state, "plan_turn") else super()._planned_on(state)

    def plan(self, state: GameState) -> list[Action]:
        """The actions of the seat to move until the end of its turn (``end`` included)."""
        start, deadline, plan_deadline, det = self._begin(state)
        if not hasattr(det, "plan_turn"):
            return self._make_plan(state, start, deadline, plan_deadline, det)
        # inside the core the ties are drawn from a native copy of the generator, given back after
        own = self.random
        self.random = _native_random(own)
        try:
            return self._make_plan(state, start, deadline, plan_deadline, det)
        finally:
            _give_back(own, self.random)
            self.random = own

    def _make_plan(
        self, state: GameState, start: float, deadline: float | None, plan_deadline: float | None, det: GameState
    ) -> list[Action]:
        seat = state.current_player
        self._rounds = 0
        found = self._plans(det, seat, self.beam, True, plan_deadline)
        weights = _card_weights(det, seat)
        best = found[0]
        best_score = best[0]
        looked = 0
        if self.plans and len(found) > 1 and (self.ahead or self.block):
            nxt = (seat + 1) % state.num_players
            scored = None
            ranked = []
            late = False  # the time ran out: only plans that need no look-ahead are valued
            for value, end, actions in with_ending_plans(found, self.plans, det.final_round, 1):
                score = value
                # in the game's last round (its final round, or one a seat still to play surely
                # ends: ``last_round``) the seat has no next turn, and the next seat has one unless
                # this seat is the last of the round (rules.md: the game ends with the round)
                replies = not end.final_round or seat != (end.start_player - 1) % end.num_players
                if late and not end.over and replies:
                    continue
                if not end.over and replies and self.depth == 2 and self.block and end.supply[nxt]:
                    gain = self._replied(end, seat, nxt, value, weights, deadline)
                    if gain is None:  # the time ran out during this plan
                        late = True
                        continue
                    score += gain
                elif not end.over and replies:
                    mine = theirs = 0.0
                    if self.ahead and end.supply[seat] and not last_round(end):
                        mine = self._potential(end, seat, weights, deadline)
                    if self.block and end.supply[nxt] and replies and mine is not None:
                        theirs = self._potential(end, nxt, weights, deadline)
                    if mine is None or theirs is None:  # the time ran out during this plan
                        late = True
                        continue
                    score += self.ahead * mine - self.block * theirs
                looked += 1
                # plans are compared by the win, not the lead: a plan that ends the game with a win
                # is worth more than one that keeps it going with a larger lead, and one that ends it
                # with a loss less than any that keeps it going
                win = final_win(end, seat, value, self._w) if not replies else win_value(end, score)
                ranked.append(((win, score), (value, end, actions)))
                if scored is None or (win, score) > scored[0]:
                    scored = ((win, score), (value, end, actions))
            if looked > 1:  # one plan looked ahead alone chooses nothing
                (_, best_score), best = scored
                if self.rollouts and len(ranked) > 1 and not late:
                    chosen = self._played_out(ranked, seat, deadline)
                    if chosen is not None:
                        best_score, best = chosen
        value, end, actions = best
        self.last_stats = {
            "plans": len(found),
            "looked": looked,
            "evaluations": self._evals,
            "seconds": self._now() - start,
            "value": best_score,
            "win": win_value(end, value),
            "rollouts": self._rounds,
        }
        return actions

    def _played_out(self, ranked: list, seat: int, deadline: float | None):
        """The best of the ``finalists`` best plans by the look-ahead (``ranked``: ((win, score),
        plan)), chosen by the mean final lead of ``rollouts`` games played out from each (the same
        hidden cards drawn for every plan in a round, so that the plans are compared on the same
        draws); rounds stop at ``deadline``, and with fewer than ``MIN_ROUNDS`` the look-ahead's
        choice stands (None). Returns (the mean final lead, the plan)."""
        ranked = sorted(ranked, key=lambda x: x[0], reverse=True)[: self.finalists]
        if len(ranked) < 2:
            return None
        base = self.random.getrandbits(63)
        sums = [0.0] * len(ranked)
        rounds = 0
        while rounds < self.rollouts:
            leads = []
            for _, (_, end, _) in ranked:
                if deadline is not None and self._now() > deadline:
                    break
                leads.append(self._rollout(end, seat, base + rounds))
            if len(leads) < len(ranked):
                break
            for i, x in enumerate(leads):
                sums[i] += x
            rounds += 1
        self._rounds = rounds
        if rounds < MIN_ROUNDS:
            return None
        i = max(range(len(ranked)), key=lambda i: (sums[i], -i))
        return sums[i] / rounds, ranked[i][1]

    def _rollout(self, end: GameState, seat: int, sample: int) -> float:
        """``seat``'s final lead in the game played out from ``end`` (``_play_out``; a native state
        plays it out inside the core, alike)."""
        if hasattr(end, "plan_rollout"):
            lead, evals = end.plan_rollout(seat, sample, self.roll_beam, *self._native)
            self._evals += evals
            return lead
        return advantages(self._play_out(end, seat, sample), None, self._w)[seat]

    def _play_out(self, end: GameState, seat: int, sample: int) -> GameState:
        """The game's end when it goes on from ``end`` (a plan's position before ``end``) with the
        cards ``seat`` has not seen drawn from ``sample`` and every seat playing the best turn a
        beam of ``roll_beam`` finds by the evaluation alone (ties by the sample too)."""
        st = end.resample_hidden(seat, Rng(sample))
        rand = random.Random(sample).random
        if not st.is_over():
            st.apply(END)
        plan: list = []
        card = -1
        while not st.is_over():
            p = st.current_player
            if not plan or st.hand[p] != card or not st.is_legal(plan[0]):
                found = self._plans(st, p, self.roll_beam, True, rand=rand)
                plan = list(found[0][2]) if found else [st.legal_actions()[0]]
                card = st.hand[p]
            st.apply(plan.pop(0))
        return st

    # -- the searches -------------------------------------------------------------------------
    def _plans(
        self, state: GameState, seat: int, width: int, keep: bool, deadline: float | None = None, rand=None
    ) -> list:
        """The positions ``seat`` can end its turn in, best first, found by a beam of ``width`` (1
        once ``deadline`` has passed): (lead, position before ``end``, actions) with ``keep``, else
        [(lead,)] of the best only. Of the tile actions of a position only the ``TILE_ACTIONS``
        best by the move heuristic are tried (a seat with a barn or a paddock has hundreds). A native
        state runs the whole search inside the core (``plan_turn``: the same positions, values and
        ties, from ``rand``, a native generator there)."""
        if hasattr(state, "plan_turn"):
            now = None if deadline is None else self._now_after
            source = rand or self.random
            source = getattr(source, "__self__", source)  # the generator of a bound random()
            rnd = _native_random(source) if isinstance(source, random.Random) else source
            evals, found = state.plan_turn(seat, width, keep, rnd, deadline, now, *self._native)
            if rnd is not source:
                _give_back(source, rnd)
            self._evals += evals
            return found if keep else [(found,)]
        beam = [(state, [])]
        done: list = []
        best = float("-inf")
        seen: set = set()
        rand = rand or self.random.random
        while beam:
            children = []
            for st, acts in beam:
                legal = st.legal_actions()
                if len(legal) > self.settings.TILE_ACTIONS:
                    legal = _fewer_tile_actions(st, legal, self.settings)
                for a in legal:
                    if a == END:  # the turn is complete
                        v = advantages(st, seat, self._w)[seat]
                        self._evals += 1
                        if keep:
                            done.append((v, rand(), st, acts + [a]))
                        elif v > best:
                            best = v
                        continue
                    c = st.copy()
                    c.apply(a)
                    key = (c.own[seat], c.held[seat], c.used[seat], c.hand[seat], c.built)
                    if key in seen:
                        continue
                    seen.add(key)
                    self._evals += 1
                    children.append((advantages(c, -1, self._w)[seat], rand(), c, acts + [a] if keep else acts))
            children.sort(key=lambda x: (x[0], x[1]), reverse=True)
            if deadline is not None and self._now() > deadline:
                width = 1
            beam = [(c, acts) for _, _, c, acts in children[:width]]
        if not keep:
            return [(best,)]
        done.sort(key=lambda x: (x[0], x[1]), reverse=True)
        return [(v, st, acts) for v, _, st, acts in done]

    def _replied(
        self, end: GameState, seat: int, nxt: int, value: float, weights: list[float], deadline: float | None
    ) -> float | None:
        """The look-ahead of depth 2: the mean over the next seat's terrain cards (``weights``) of
        what ``seat``'s lead becomes when the next seat plays its best turn with that card (times
        ``block``), plus ``ahead`` times what ``seat`` can then expect from its own next turn, if it
        has one (None when ``deadline`` passes first)."""
        n = end.num_players
        first = end.start_player

        def gain(t: int) -> float | None:
            found = self._plans(end.preview_turn(nxt, t), nxt, self.reply, keep=True)
            if not found:
                return _SKIP
            reply = found[0][1]
            out = self.block * (advantages(reply, nxt, self._w)[seat] - value)
            # after the reply the seat plays again unless the round that ends the game is over for it
            again = not last_round(reply) or (seat - first) % n > (nxt - first) % n
            if self.ahead and again and reply.supply[seat]:
                mine = self._potential(reply, seat, weights, deadline)
                if mine is None:
                    return None
                out += self.ahead * mine
            return out

        return self._mean_over_cards(end, weights, deadline, gain)

    def _potential(self, end: GameState, who: int, weights: list[float], deadline: float | None) -> float | None:
        """What ``who`` can expect to add to its lead in its next turn from ``end``: the mean over
        the terrain cards (``weights``) of its best lead after that turn, less its lead now (None
        when ``deadline`` passes first)."""
        now = advantages(end, end.to_move, self._w)[who]

        def best(t: int) -> float:
            ((lead,),) = self._plans(end.preview_turn(who, t), who, self.reply, keep=False)
            return _SKIP if lead == float("-inf") else lead - now

        return self._mean_over_cards(end, weights, deadline, best)

    def _mean_over_cards(self, end: GameState, weights: list[float], deadline: float | None, of) -> float | None:
        """The mean of ``of(card)`` over the terrain cards with a free hex in ``end``, weighted by
        ``weights`` (0 if there is none; a card whose value is ``_SKIP`` left out); None when
        ``deadline`` passes first or ``of`` returns None."""
        total = 0.0
        mass = 0.0
        free = ~end.occ
        for t, w in enumerate(weights):
            if not w or not end.board.code_mask[t] & free:
                continue
            if deadline is not None and self._now() > deadline:
                return None
            x = of(t)
            if x is None:
                return None
            if x is _SKIP:
                continue
            total += w * x
            mass += w
        return total / mass if mass else 0.0


def final_win(end: GameState, seat: int, lead: float, settings: KingdomSettings | None = None) -> float:
    """What ``seat`` wins when the game ends with ``end`` (Kingdom Builder: the last seat of the final
    round about to play ``end``), its lead over the best other seat being ``lead``: 1 alone on top,
    1/k for k seats sharing the top, 0 behind (rules.md "Scoring": equal top scores share the win)."""
    if lead:
        return 1.0 if lead > 0 else 0.0
    v = values(end, seat, settings)
    return 1.0 / sum(1 for x in v if x == v[seat])


def _fewer_tile_actions(state: GameState, legal: list[Action], settings: KingdomSettings = DEFAULT) -> list[Action]:
    """``legal`` with only the ``settings.TILE_ACTIONS`` best tile actions by the move heuristic
    (builds and end kept; ties in legal order)."""
    tiles = [a for a in legal if a >= TILE and a != END]
    most = settings.TILE_ACTIONS
    if len(tiles) <= most:
        return legal
    values = move_values(state, tiles, settings)
    order = sorted(range(len(tiles)), key=lambda i: -values[i])[:most]
    keep = {tiles[i] for i in order}
    return [a for a in legal if a < TILE or a == END or a in keep]


def _native_random(rnd: random.Random):
    """A native generator (``builders_native.PyRandom``) in the state of ``rnd``: it draws what
    ``rnd`` would."""
    import builders_native

    out = builders_native.PyRandom()
    out.setstate(rnd.getstate()[1])
    return out


def _give_back(rnd: random.Random, native) -> None:
    """``rnd`` in the state of its native copy ``native`` (what it would be after the same draws)."""
    version, _, gauss = rnd.getstate()
    rnd.setstate((version, tuple(native.getstate()), gauss))


def _card_weights(det: GameState, seat: int) -> list[float]:
    """Per terrain card code: how many of the cards ``seat`` has not seen are of it (the deck and
    the other seats' hands of the determinization: the same pool in every determinization)."""
    counts = [0.0] * 5
    for code in det.deck:
        counts[code] += 1
    for q in range(det.num_players):
        if q != seat and det.hand[q] >= 0:
            counts[det.hand[q]] += 1
    if not any(counts):
        counts = [1.0] * 5
    return counts
