"""Hints (the hard level's planner) and post-game analysis (the hard level's moves, valued by the
search).

``hint(state, seat)``: the action the hard level would play for ``seat`` (who must be the player to
move: the first action of its turn planner's plan) and its estimated win chance.

``analyse(record, iterations=...)``: for every decision of a finished game, the move the hard level
would have played there (the hint's move: a hard bot in that seat, playing its plan through while
the game follows it), the mover's win chance with it and with the action played (both the values of
the search, mapped onto observed win rates by :mod:`builders.ai.calibration`), and a label by the
drop in win chance (``loss``):

==============  ===================  ===============================================
label           loss (win chance)    meaning
==============  ===================  ===============================================
``inaccuracy``  0.05 or more         5 points of win chance given away
``mistake``     0.10 or more
``blunder``     0.15 or more
==============  ===================  ===============================================

(lichess's drops of 0.1 / 0.2 / 0.3 on its -1..1 scale). When the search values the action played at
least as high as the hard level's, the action played is the best and the loss is 0. A summary per
seat gives the mean loss and the count of each label. Decisions with a single legal action are
marked ``forced`` and get neither values nor label.

Why the hard level's move and not the search's own best: the planner is the stronger player (it
beats the search by a wide margin), a move the search chooses as the best of noisy values looks
better than it is (the loss of every other move grows with that noise), and a player who followed
the hints is then never told the hint was a mistake.

Everything a seat's decision is judged by comes from what that seat could see: the planner and the
search draw their positions from the seat's observation (``resample_hidden``), as the agents do, so
two positions that differ only in what the seat cannot see get the same hint and the same analysis.
With an iteration budget (the default) and a seed the results are the same on every run.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from builders.ai.mcts import MCTSAgent
from builders.ai.calibration import honest
from builders.ai.factory import make_planner
from builders.ai.planner import Planner, first_decision
from builders.ai.tournament import derive_seed
from builders.core.errors import BuildersError
from builders.core.record import apply_recorded, initial_state, replay, steps
from builders.core.state import Action, GameState

#: (label, smallest loss of win chance), worst first
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
LABELS = tuple(name for name, _ in reversed(THRESHOLDS))
#: the iterations of one decision's search, by default (about 0.1 to 0.3 s in the games of this package)
DEFAULT_ITERATIONS = 1000
#: the analysis's hard bot: nominal seconds of a turn's plans per iteration of the search
PLAN_SHARE_OF_ITERATIONS = 1e-3
#: the most iterations or seconds a decision may be given
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0


class AnalysisError(BuildersError, ValueError):
    """A hint or an analysis that cannot be made (an unfinished or corrupt record, a seat that is not
    to move, a budget out of range)."""


def label_of(loss: float) -> str | None:
    """The label of a drop of ``loss`` in win chance (None: no label)."""
    for name, low in THRESHOLDS:
        if loss >= low - 1e-12:
            return name
    return None


def _check_budget(iterations: int | None, seconds: float | None) -> None:
    """AnalysisError for a time or an iteration budget out of range."""
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_SECONDS:
            raise AnalysisError(
                f"the time per decision must be more than 0 and at most {MAX_SECONDS:g} seconds, not {seconds!r}"
            )
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
            raise AnalysisError(
                f"the iterations per decision must be a whole number from 1 to {MAX_ITERATIONS}, not {iterations!r}"
            )


def analysis_bot(seed: int, game: str, iterations: int | None, seconds: float | None) -> Planner:
    """The analysis's hard bot: the hard level's turn planner, given ``PLAN_SHARE_OF_ITERATIONS``
    nominal seconds of its clock "count" a turn per iteration of the search (1000 iterations: one
    second, 40,000 positions evaluated, about all the hard level's plans ever need), so that its
    moves are the same on every run; with a time budget only, ``seconds`` of CPU time a turn."""
    if iterations is not None:
        return make_planner(seed, "hard", iterations * PLAN_SHARE_OF_ITERATIONS, game, clock="count")
    return make_planner(seed, "hard", seconds, game, clock="cpu")


def _searcher(seed: int, iterations: int | None, seconds: float | None) -> MCTSAgent:
    _check_budget(iterations, seconds)
    return MCTSAgent(seed, time_limit=seconds, iterations=iterations, prior="fast")


# -- the analysis's hard bot ---------------------------------------------------------------------


def decisions_before(state: GameState) -> int:
    """The player actions played before ``state`` (the index of its decision in the record)."""
    return len(state.player_actions())


class HardBots:
    """The analysis's hard bot, in every seat: for each turn a new turn planner of the hard level
    (``analysis_bot``), seeded by ``seed`` and the index of the turn's first decision, which plays
    its plan through while the game follows it. Where a card drawn in the turn ends the plan, the
    planner plans again with what is left of the turn's budget, as the hard level does; where the
    game leaves the plan (the seat played another move), a new planner, seeded by the index of that
    decision, plans from there with the whole budget of a turn, as a hint asked there would.

    Its move at a decision depends only on the turn so far (the seat's earlier decisions of the
    turn and the actions played at them) and on what the seat sees, so the analysis of a finished
    game and a hint asked during it give the same move: ``act(state)`` at each decision, then
    ``played(state, action)`` with the action the game played there; ``catch_up(turn)`` brings a
    bot made in the middle of a turn (or one that has followed another game) to the same point.
    """

    def __init__(self, seed: int, game: str, iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None):
        self.seed = seed
        self.game = game
        self.iterations = iterations
        self.seconds = seconds
        self._planner: Planner | None = None
        #: (seat, index of the turn's first decision) of the turn followed, and the actions played
        #: at its decisions so far
        self._turn: tuple[int, int] | None = None
        self._seen: list[Action] = []
        #: (index, move) of the decision acted on last, not yet played
        self._move: tuple[int, Action] | None = None
        #: whether the game left the plan at the last decision
        self._left = False
        #: the positions evaluated by all the plans before the current turn's planner
        self._evaluated_before = 0

    @property
    def evaluated(self) -> int:
        """The positions evaluated by the plans of this bot so far."""
        return self._evaluated_before + (self._planner.evaluated if self._planner is not None else 0)

    def _follows(self, seat: int, index: int) -> bool:
        """Whether ``index`` is the next decision of the turn followed (by ``seat``)."""
        return self._turn is not None and self._turn[0] == seat and index == self._turn[1] + len(self._seen)

    def act(self, state: GameState) -> Action:
        """The bot's move for the player to move of ``state``."""
        index = decisions_before(state)
        seat = state.current_player
        if self._move is not None and self._move[0] == index and self._follows(seat, index):
            return self._move[1]
        first = self._planner is None or first_decision(state, self._planner.END) or not self._follows(seat, index)
        if first or self._left:
            if self._planner is not None:
                self._evaluated_before += self._planner.evaluated
            self._planner = analysis_bot(
                derive_seed("analysis-hard", self.seed, index), self.game, self.iterations, self.seconds
            )
            # in the middle of a turn (the game left the plan): the whole budget of a turn
            self._planner.replan_share = self._planner.FIRST_SHARE
            self._left = False
            if first:
                self._turn = (seat, index)
                self._seen = []
        move = self._planner.act(state)
        self._move = (index, move)
        return move

    def played(self, state: GameState, action: Action) -> None:
        """The game played ``action`` at ``state``, after ``act(state)``: a move off the bot's plan
        makes it plan again at its next decision."""
        index = decisions_before(state)
        if self._move is None or self._move[0] != index or self._planner is None:
            raise AnalysisError("played() follows act() on the same position")
        self._left = action != self._move[1]
        self._seen.append(action)
        self._move = None

    def planned(self, state: GameState, action: Action) -> list[Action]:
        """The rest of the bot's plan after its move ``action`` at ``state`` (``Planner.planned``)."""
        return [] if self._planner is None else list(self._planner.planned(state, action))

    def catch_up(self, turn: Sequence[tuple[GameState, Action]]) -> None:
        """Bring the bot to the end of ``turn``: the earlier decisions of the current turn of the
        seat to move, from the turn's first, each with the action played there. Decisions this bot
        has already followed (the same turn, the same actions) are not planned again."""
        if not turn:
            return
        first, _ = turn[0]
        start = (first.current_player, decisions_before(first))
        if self._turn != start or self._seen != [a for _, a in turn][: len(self._seen)]:
            self._turn, self._seen, self._move, self._left = None, [], None, False
        for state, action in turn[len(self._seen) :]:
            self.act(state)
            self.played(state, action)


def turn_positions(
    record: Mapping[str, Any], until: int | None = None
) -> tuple[list[tuple[GameState, Action]], GameState]:
    """The position of ``record`` after its first ``until`` actions (all by default) and the
    earlier decisions of the current turn of the seat to move there (each position with the action
    played), for ``hint(..., turn=...)``. Raises the record's errors (``builders.core.record``)."""
    final = replay(record, until=until)
    state = initial_state(record)
    turn: list[tuple[GameState, Action]] = []
    end = make_planner(None, "hard", None, state.GAME).END
    for text, outcomes in list(steps(record["history"]))[: decisions_before(final)]:
        action = state.parse_action(text)
        if first_decision(state, end):
            turn = []
        turn.append((state.copy(), action))
        apply_recorded(state, action, outcomes)
    if first_decision(state, end) or (turn and turn[-1][0].current_player != state.current_player):
        turn = []
    return turn, state


# -- hints --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """The hard level's choice for ``seat``: ``action`` (engine form), its ``notation`` and the
    seat's estimated ``win_chance`` (0 to 1) with it; ``iterations``: the positions the planner
    evaluated for this hint (0 when the move is the next of a plan already made); ``plan``: the
    actions of the bot's plan that follow ``action`` in the turn, up to ``end`` or to the first
    that draws a card."""

    seat: int
    action: Action
    notation: str
    win_chance: float
    iterations: int
    plan: tuple[Action, ...] = ()


def hint(
    state: GameState,
    seat: int,
    seed: int = 0,
    iterations: int | None = DEFAULT_ITERATIONS,
    seconds: float | None = None,
    turn: Sequence[tuple[GameState, Action]] = (),
    bots: HardBots | None = None,
) -> Hint:
    """The move the hard level would play for ``seat``, the player to move, and its win chance:
    exactly the analysis's (``analyse`` with the same ``seed``, ``iterations`` and ``seconds``).

    The move is its hard bot's (``HardBots``: the hard level's turn planner, playing its plan for
    the turn through while the seat follows it), so ``turn`` gives the seat's earlier decisions of
    this turn, from its first, each with the action played (``turn_positions`` finds them in a
    record); the rest of the bot's plan, up to the end of the turn or to a card drawn, comes as
    ``plan``. ``bots``, a ``HardBots`` kept by the caller (with the same seed and budget), saves
    planning again what it has already planned. The win chance is the analysis's value of that
    move (its search, seeded by the decision's index, mapped onto observed win rates by
    :mod:`builders.ai.calibration`), so a hint and the analysis speak of the same move and the same
    chance. Only what ``seat`` may see is used. Raises AnalysisError if the game is over, ``seat``
    is not to move or a budget is out of range.
    """
    if state.is_over():
        raise AnalysisError("the game is over: there is no move to hint")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise AnalysisError(f"seat must be a whole number from 0 to {state.num_players - 1}, not {seat!r}")
    if seat != state.current_player:
        raise AnalysisError(f"it is not seat {seat}'s turn (seat {state.current_player} is to move)")
    if iterations is None and seconds is None:
        raise AnalysisError("a hint needs iterations or seconds per decision")
    _check_budget(iterations, seconds)
    if bots is None:
        bots = HardBots(seed, state.GAME, iterations, seconds)
    before = bots.evaluated
    bots.catch_up(turn)
    action = bots.act(state)
    plan = tuple(bots.planned(state, action))
    index = decisions_before(state)
    budget = iterations if iterations is not None else 1 << 62
    searcher = _searcher(derive_seed("analysis", seed, index), iterations, seconds)
    _, best, node = searcher.evaluate_actions(state, budget, played=action)
    chance = honest(state.GAME, "analysis", (best if node is None else node).mean())
    return Hint(seat, action, state.action_to_string(action), chance, bots.evaluated - before, plan)


def plan_notations(state: GameState, found: Hint) -> list[str]:
    """The notation of each action of the plan of the hint ``found`` for ``state`` (played after
    its move, on a copy of ``state``)."""
    sim = state.copy()
    sim.apply(found.action)
    out = []
    for action in found.plan:
        out.append(sim.action_to_string(action))
        sim.apply(action)
    return out


def raw_win_chance(
    state: GameState,
    estimator: str = "analysis",
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    action: Action | None = None,
) -> float:
    """The win chance of the player to move of ``state`` before the map of
    :mod:`builders.ai.calibration` (what the calibration benchmark measures): ``estimator``
    "analysis", the value the analysis's search (``iterations``) gives the hard level's move, or
    ``action`` if given (what the analysis and the hints show, mapped); "plan", the value the hard
    planner gives its plan (without a time limit; shown nowhere: measured to show it is no win
    chance). Both drawn from what that seat sees."""
    if state.is_over():
        raise AnalysisError("the game is over: there is no decision to judge")
    if estimator == "plan":
        planner = make_planner(seed, "hard", None, state.GAME)
        planner.plan(state)
        return planner.last_stats["win"]
    if estimator != "analysis":
        raise AnalysisError(f"the estimator is analysis or plan, not {estimator!r}")
    agent = _searcher(seed, iterations, None)
    if action is None:
        action = analysis_bot(seed, state.GAME, iterations, None).plan(state)[0]
    _, _, node = agent.evaluate_actions(state, iterations, played=action)
    return node.mean()  # type: ignore[union-attr]


# -- analysis -----------------------------------------------------------------------------------


@dataclass
class Decision:
    """One decision of the game: ``index`` counts the player actions from 0."""

    index: int
    seat: int
    played: str
    forced: bool
    best: str | None = None
    before: float | None = None
    after: float | None = None
    best_value: float | None = None
    loss: float | None = None
    label: str | None = None


@dataclass
class SeatSummary:
    seat: int
    decisions: int
    mean_loss: float
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Analysis:
    game: str
    seed: int
    iterations: int | None
    seconds: float | None
    thresholds: dict[str, float]
    decisions: list[Decision]
    players: list[SeatSummary]
    scores: list[int]
    winners: list[int]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _check_finished(record: Any) -> GameState:
    try:
        final = replay(record)
    except BuildersError as e:
        raise AnalysisError(f"the record cannot be analysed: {e}") from None
    if not final.is_over():
        raise AnalysisError("the game is not finished: only finished games can be analysed")
    return final


def analyse(
    record: Mapping[str, Any],
    iterations: int | None = DEFAULT_ITERATIONS,
    seconds: float | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Analyse every decision of the finished game ``record`` (see the module docstring).

    ``iterations`` per decision (None: only ``seconds``), ``seconds`` per decision (None: no time
    limit). ``progress(done, total)`` is called after each decision. Raises AnalysisError for a
    record that is corrupt or not finished, or a budget out of range.
    """
    if iterations is None and seconds is None:
        raise AnalysisError("an analysis needs iterations or seconds per decision")
    _check_budget(iterations, seconds)
    final = _check_finished(record)
    state = initial_state(record)
    game = state.GAME
    all_steps = list(steps(record["history"]))
    decisions: list[Decision] = []
    budget = iterations if iterations is not None else 1 << 62
    # the hard bot (budgets counted in positions: the same on every run), playing its plans through
    hard = HardBots(seed, game, iterations, seconds)
    for index, (text, outcomes) in enumerate(all_steps):
        seat = state.current_player
        action = state.parse_action(text)
        legal = state.legal_actions()
        played = state.action_to_string(action)
        bot = hard.act(state)
        hard.played(state, action)  # a move off the bot's plan: it plans again at its next decision
        if len(legal) == 1:
            decisions.append(Decision(index, seat, played, True))
        else:
            agent = _searcher(derive_seed("analysis", seed, index), iterations, seconds)
            # the bot's move is valued first (as raw_win_chance values it), then the action played
            _, _, node = agent.evaluate_actions(state, budget, played=bot, also=(action,) if bot != action else ())
            # the search's values mapped onto the observed win rates (builders.ai.calibration)
            bot_value = honest(game, "analysis", node.mean())  # type: ignore[union-attr]
            mine = node if bot == action else agent.last_root.children[action]  # type: ignore[union-attr]
            after = honest(game, "analysis", mine.mean())  # type: ignore[union-attr]
            best, best_value = played, after
            if bot_value > after:
                best, best_value = state.action_to_string(bot), bot_value
            loss = best_value - after
            decisions.append(
                Decision(
                    index,
                    seat,
                    played,
                    False,
                    best,
                    round(best_value, 4),
                    round(after, 4),
                    round(best_value, 4),
                    round(loss, 4),
                    label_of(loss),
                )
            )
        apply_recorded(state, action, outcomes)
        if progress:
            progress(index + 1, len(all_steps))
    players = []
    for seat in range(state.num_players):
        mine = [d for d in decisions if d.seat == seat and not d.forced]
        counts = {name: sum(1 for d in mine if d.label == name) for name in LABELS}
        mean = statistics.fmean(d.loss for d in mine) if mine else 0.0  # type: ignore[misc]
        players.append(SeatSummary(seat, len(mine), round(mean, 4), counts))
    result = final.result()
    return Analysis(
        record["game"],
        seed,
        iterations,
        seconds,
        {n: v for n, v in THRESHOLDS},
        decisions,
        players,
        list(result.scores),
        list(result.winners),
    )
