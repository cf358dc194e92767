"""Bot speed: simulations per second of the search on mid-game positions, and the time of whole turns
per level (p50 / p95 / max), for both games.

    .venv/bin/python benchmarks/ai_speed.py [--time 1.0] [--positions 8] [--turns 40]
        [--levels random,easy,medium,hard,expert] [--part sims|turns|hints|rollouts|both]

Simulations per second are counted in CPU seconds (``clock=cpu``), so that they do not depend on
what else the machine is doing; they are given for the hard level's search (fast move ordering) and
for the search as it was before (``mcts``: full evaluation of every action a node opens). Turn times
are wall-clock seconds, as a player waits for them: each level plays games against the medium bot
until it has played ``--turns`` whole turns in each game (a turn: every decision of the seat until
the next seat's decision).

``--part hints`` times the hints (``builders.ai.analysis.hint`` with the analysis's default budget,
as the server gives them, its worker keeping the seat's bot): a player against the medium bot who
asks a hint at every decision, plays it two times in three and another move (medium's, or any other
legal one) otherwise, until ``--turns`` turns have begun in each game; wall-clock seconds of the
hints at the start of a turn (a new plan), after the hinted move (the plan followed: only the search
of its next move) and after another move (a new plan from there, with a turn's whole budget).

``--part rollouts`` times the games Kingdom Builder's hard level plays out (``TurnPlanner._rollout``
from a plan's end, every seat playing the best turn a beam of one position finds): CPU milliseconds a
game played out, from the start of a turn with 6, 20, 40 and 60 settlements on the map (2 players,
``--positions`` setups, eight games each, fresh draws), the median of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from builders.ai import GreedyAgent, MCTSAgent, make_bot
from builders.core.games import get_game

GAMES = ("kingdom", "middle-ages")


def positions(game: str, players: int, count: int) -> list:
    """Positions from games between greedy players, taken every few decisions."""
    g = get_game(game)
    out = []
    seed = 0
    while len(out) < count:
        state = g.new_state(g.random_setup(players, 1000 + seed))
        agents = [GreedyAgent(seed * 10 + p) for p in range(players)]
        rnd = random.Random(seed)
        while not state.is_over() and len(out) < count:
            if len(state.legal_actions()) > 2 and rnd.random() < 0.08:
                out.append(state.copy())
            state.apply(agents[state.current_player].act(state))
        seed += 1
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) by linear interpolation."""
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    k = (len(xs) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def sims(game: str, players: int, count: int, seconds: float) -> None:
    states = positions(game, players, count)
    for prior, label in (("fast", "hard's search (fast ordering)"), ("full", "mcts as before (full priors)")):
        rates = []
        for i, state in enumerate(states):
            agent = MCTSAgent(i, time_limit=seconds, prior=prior, clock="cpu")
            agent.act(state)
            rates.append(agent.last_stats["sims_per_s"])
        print(
            f"{game:12s} {players}p {label:30s}: median {statistics.median(rates):7.0f} simulations/CPU-s, "
            f"min {min(rates):.0f}, max {max(rates):.0f} ({count} positions, {seconds:g} s each); per position: "
            + " ".join(f"{r:.0f}" for r in rates),
            flush=True,
        )


def turn_times(game: str, level: str, turns: int, seed: int = 0) -> list[float]:
    """Wall-clock seconds of ``turns`` whole turns of ``level`` against medium (new games as needed)."""
    g = get_game(game)
    out: list[float] = []
    k = 0
    while len(out) < turns:
        state = g.new_state(g.random_setup(2, 500 + seed + k))
        seat = k % 2
        bots = [make_bot(game, "medium", 100 + k), make_bot(game, "medium", 200 + k)]
        bots[seat] = make_bot(game, level, 300 + k)
        current = None
        spent = 0.0
        while not state.is_over() and len(out) < turns:
            p = state.current_player
            if p == seat:
                t0 = time.perf_counter()
                action = bots[p].act(state)
                spent += time.perf_counter() - t0
                current = True
            else:
                if current:
                    out.append(spent)
                    spent, current = 0.0, None
                action = bots[p].act(state)
            state.apply(action)
        k += 1
    return out


def hint_times(game: str, turns: int, seed: int = 0) -> dict[str, list[float]]:
    """Wall-clock seconds of hints, by what came before them (module docstring)."""
    from builders.ai.analysis import DEFAULT_ITERATIONS, HardBots, decisions_before, hint, turn_positions

    g = get_game(game)
    out: dict[str, list[float]] = {"turn start": [], "plan followed": [], "plan left": []}
    k = 0
    while len(out["turn start"]) < turns:
        state = g.new_state(g.random_setup(2, 700 + seed + k))
        medium = [make_bot(game, "medium", 100 + k), make_bot(game, "medium", 200 + k)]
        bots = HardBots(k, game, DEFAULT_ITERATIONS)
        rnd = random.Random(k)
        last: tuple[int, bool] | None = None  # (the decision, whether the hint was played there)
        while not state.is_over() and len(out["turn start"]) < turns:
            p = state.current_player
            legal = state.legal_actions()
            if p != 0 or len(legal) == 1:
                state.apply(medium[p].act(state) if len(legal) > 1 else legal[0])
                continue
            turn, _ = turn_positions(state.to_record())
            index = decisions_before(state)
            t0 = time.perf_counter()
            found = hint(state, 0, seed=k, turn=turn, bots=bots)
            spent = time.perf_counter() - t0
            if not turn:
                out["turn start"].append(spent)
            elif last is not None and last[0] == index - 1:
                out["plan followed" if last[1] else "plan left"].append(spent)
            action = found.action
            if rnd.random() < 1 / 3:
                other = [a for a in legal if a != found.action]
                mine = medium[0].act(state)
                action = mine if mine != found.action else rnd.choice(other)
            last = (index, action == found.action)
            state.apply(action)
        k += 1
    return out


def rollout_times(setups: int, runs: int) -> dict[int, float]:
    """Median over ``runs`` of the mean CPU milliseconds of a game played out by hard's planner, per
    number of settlements on the map at the start of the turn played out from."""
    from builders.ai.planner_kingdom import TurnPlanner
    from builders.ai.eval_kingdom import _kingdom_context

    g = get_game("kingdom")
    starts = {}
    for built in (6, 20, 40, 60):
        for seed in range(setups):
            state = g.new_state(g.random_setup(2, 500 + seed))
            agents = [GreedyAgent(seed * 10 + p) for p in range(2)]
            while not state.is_over() and (sum(40 - s for s in state.supply) < built or state.built):
                state.apply(agents[state.current_player].act(state))
            if not state.is_over():
                starts.setdefault(built, []).append(state)
    out = {}
    for built, states in starts.items():
        per_run = []
        for run in range(runs):
            planner = TurnPlanner(seed=run, turn_time=None)
            spent = 0.0
            n = 0
            for i, state in enumerate(states):
                _kingdom_context(state).cache.clear()
                seat = state.current_player
                end = planner._plans(state, seat, 30, True)[0][1]
                t = time.process_time()
                for k in range(8):
                    planner._rollout(end, seat, 10_000 * run + 100 * i + k)
                spent += time.process_time() - t
                n += 8
            per_run.append(1000 * spent / n)
        out[built] = statistics.median(per_run)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="CPU seconds of search per position")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--turns", type=int, default=40, help="whole turns measured per level and game")
    parser.add_argument("--levels", default="random,easy,medium,hard,expert")
    parser.add_argument("--part", choices=("sims", "turns", "hints", "rollouts", "both"), default="both")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--runs", type=int, default=5, help="runs of --part rollouts (their median)")
    args = parser.parse_args()
    games = args.games.split(",")
    if args.part in ("sims", "both"):
        for game in games:
            sims(game, args.players, args.positions, args.time)
    if args.part in ("turns", "both"):
        for game in games:
            for level in args.levels.split(","):
                ts = turn_times(game, level, args.turns)
                print(
                    f"{game:12s} {level:7s} whole turn (wall clock, {len(ts)} turns): p50 {percentile(ts, 0.5):.3f} s, "
                    f"p95 {percentile(ts, 0.95):.3f} s, max {max(ts):.3f} s",
                    flush=True,
                )
    if args.part == "rollouts":
        print("Kingdom Builder, 2 players: CPU ms a game played out by hard (median of runs)")
        for built, ms in rollout_times(args.positions, args.runs).items():
            print(f"  from {built:2d} settlements: {ms:6.1f} ms")
    if args.part == "hints":
        for game in games:
            for kind, ts in hint_times(game, args.turns).items():
                print(
                    f"{game:12s} hint, {kind:13s} (wall clock, {len(ts):3d} hints): p50 {percentile(ts, 0.5):.3f} s, "
                    f"p95 {percentile(ts, 0.95):.3f} s, max {max(ts):.3f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
