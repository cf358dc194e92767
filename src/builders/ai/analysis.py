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
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from builders.ai.mcts import MCTSAgent
from builders.ai.calibration import honest
from builders.ai.factory import make_planner
from builders.ai.planner import Planner
from builders.ai.tournament import derive_seed
from builders.core.errors import BuildersError
from builders.core.record import initial_state, replay, steps
from builders.core.state import Action, GameState

#: (label, smallest loss of win chance), worst first
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
LABELS = tuple(name for name, _ in reversed(THRESHOLDS))
#: the iterations of one decision's search, by default (about 0.1 to 0.3 s in Kingdom Builder)
DEFAULT_ITERATIONS = 1000
#: the iterations of the search that values a hint's action (the analysis's default budget, for which
#: the map of builders.ai.calibration was fitted)
HINT_SEARCH = DEFAULT_ITERATIONS
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
            raise AnalysisError(f"the time per decision must be more than 0 and at most {MAX_SECONDS:g} seconds, "
                                f"not {seconds!r}")
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
            raise AnalysisError(f"the iterations per decision must be a whole number from 1 to {MAX_ITERATIONS}, "
                                f"not {iterations!r}")


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


# -- hints --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hint:
    """The hard level's choice for ``seat``: ``action`` (engine form), its ``notation`` and the
    seat's estimated ``win_chance`` (0 to 1) with it; ``iterations``: the positions the planner
    evaluated; ``plan``: the actions of its plan that follow ``action`` in the turn, up to ``end``
    or to the first that draws a card (empty for an action given to ``hint``)."""

    seat: int
    action: Action
    notation: str
    win_chance: float
    iterations: int
    plan: tuple[Action, ...] = ()


def hint(state: GameState, seat: int, seed: int = 0, seconds: float | None = None,
         action: Action | None = None) -> Hint:
    """The action the hard level would play for ``seat``, the player to move, and its win chance.

    The first action of the game's turn planner's plan, with the hard level's settings: ``seconds``
    limits its time (the whole of it in the middle of a turn too: a hint is asked once and waited
    for); without it the planner does all its work and is deterministic with ``seed``. The rest of
    the plan, up to the end of the turn or to a card drawn, comes as ``plan``: a caller that keeps it
    gives the next of its actions as ``action`` when the seat has followed it, so that the hints of
    one turn are one plan (as the hard bot plays its plan through), and only the win chance is
    computed. The win chance is the analysis's: the value of that action by the analysis's search
    (``HINT_SEARCH`` iterations), mapped onto observed win rates (:mod:`builders.ai.calibration`),
    so that a hint and the analysis speak of the same chance. (The planner's own value of its plan
    is no win chance: it counts the seat's next turn too and was measured badly calibrated,
    docs/ai.md.)
    Only what ``seat`` may see is used. Raises AnalysisError if the game is over, ``seat`` is not
    to move or ``action`` is not legal.
    """
    if state.is_over():
        raise AnalysisError("the game is over: there is no move to hint")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise AnalysisError(f"seat must be a whole number from 0 to {state.num_players - 1}, not {seat!r}")
    if seat != state.current_player:
        raise AnalysisError(f"it is not seat {seat}'s turn (seat {state.current_player} is to move)")
    _check_budget(None, seconds)
    plan: tuple[Action, ...] = ()
    evaluated = 0
    if action is None:
        # the hard level is the game's turn planner: the hint is the first action of its plan
        planner = make_planner(seed, "hard", seconds, state.GAME)
        planner.replan_share = planner.FIRST_SHARE
        action = planner.act(state)
        plan = tuple(planner.planned(state, action))
        evaluated = int(planner.last_stats.get("evaluations", 0))
    elif not state.is_legal(action):
        raise AnalysisError(f"the action to value is not a legal action of seat {seat} here")
    searcher = _searcher(derive_seed("hint-search", seed), HINT_SEARCH, None)
    _, best, node = searcher.evaluate_actions(state, HINT_SEARCH, played=action)
    raw = (best if node is None else node).mean()
    chance = honest(state.GAME, "analysis", raw)
    return Hint(seat, action, state.action_to_string(action), chance, evaluated, plan)


def raw_win_chance(state: GameState, estimator: str = "analysis", iterations: int = DEFAULT_ITERATIONS,
                   seed: int = 0, action: Action | None = None) -> float:
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


def analyse(record: Mapping[str, Any], iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None,
            seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Analysis:
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
    # a hard bot in each seat (budgets counted in positions: the same on every run), playing its
    # plans through
    hard = [analysis_bot(derive_seed("analysis-hard", seed, q), game, iterations, seconds)
            for q in range(state.num_players)]
    for index, (text, outcomes) in enumerate(all_steps):
        seat = state.current_player
        action = state.parse_action(text)
        legal = state.legal_actions()
        played = state.action_to_string(action)
        bot = hard[seat].act(state)
        if bot != action:
            hard[seat].forget()  # the game leaves the bot's plan: it plans again at its next decision
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
            decisions.append(Decision(index, seat, played, False, best, round(best_value, 4), round(after, 4),
                                      round(best_value, 4), round(loss, 4), label_of(loss)))
        state.forced = list(outcomes)
        state.apply(action)
        state.forced = []
        if progress:
            progress(index + 1, len(all_steps))
    players = []
    for seat in range(state.num_players):
        mine = [d for d in decisions if d.seat == seat and not d.forced]
        counts = {name: sum(1 for d in mine if d.label == name) for name in LABELS}
        mean = statistics.fmean(d.loss for d in mine) if mine else 0.0  # type: ignore[misc]
        players.append(SeatSummary(seat, len(mine), round(mean, 4), counts))
    result = final.result()
    return Analysis(record["game"], seed, iterations, seconds, {n: v for n, v in THRESHOLDS}, decisions, players,
                    list(result.scores), list(result.winners))
