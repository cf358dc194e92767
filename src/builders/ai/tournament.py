"""Tournaments: paired games between agents, played in local worker processes or on a Ray cluster.

Each *setup* (the map or the decks, drawn from the tournament seed and the setup number) is played once
per *rotation* of the seats, so every agent meets the same luck from every seat:

- as many agents as seats: rotation ``r`` puts agent ``i`` in seat ``(i + r) % players``;
- fewer agents than seats (``mcts,greedy`` with 4 players: mcts against three greedy): rotation ``r``
  puts the first agent in seat ``r`` and fills the other seats, in order, with the other agents
  cyclically.

Game ``g`` is rotation ``g % R`` of setup ``g // R`` (``R`` rotations), and everything random in it (the
setup and the agents' seeds) is drawn from ``(seed, g)``, so the results do not depend on the number of
workers nor on the backend (agents with a time limit excepted: how far they search depends on the
machine; give mcts an iteration budget, ``iters=N``, for results that repeat exactly).

Per agent: wins (a shared win is split), the win rate with its 95% Wilson interval, the score (mean,
standard deviation, and per scoring card or source the mean over the games in which it scored: a
card dealt to some games only counts in the games that used it), the mean time per decision and, for
mcts, the simulations per second.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from builders.core.rng import Rng

BACKENDS = ("local", "ray")
Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (fractional wins allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if p <= 0 else max(0.0, min(p, centre - half))
    hi = 1.0 if p >= 1 else min(1.0, max(p, centre + half))
    return (lo, hi)


def rotations(num_agents: int, players: int) -> int:
    """How many games one setup is played (one per seat of the first agent)."""
    return players


def seating(num_agents: int, players: int, rotation: int) -> list[int]:
    """The agent index of each seat in rotation ``rotation``."""
    if num_agents == players:
        return [(seat - rotation) % players for seat in range(players)]
    seats = [0] * players
    others = [seat for seat in range(players) if seat != rotation % players]
    for k, seat in enumerate(others):
        seats[seat] = 1 + k % (num_agents - 1)
    return seats


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed drawn from ``parts`` (the same on every machine)."""
    return Rng("/".join(str(p) for p in parts)).next64() >> 1


# -- one game (runs in a worker) ----------------------------------------------------------------


def play_game(task: dict[str, Any]) -> dict[str, Any]:
    """Play game ``task["index"]`` of a tournament; returns its outcome as plain data."""
    from builders.ai.agents import AgentSpec
    from builders.core.games import get_game

    game = get_game(task["game"])
    players = task["players"]
    specs = [AgentSpec(kind, dict(options)) for kind, options in task["agents"]]
    g = task["index"]
    r = task["rotations"]
    setup_index, rotation = divmod(g, r)
    seed = task["seed"]
    setup = game.random_setup(players, derive_seed("setup", seed, setup_index))
    state = game.new_state(setup)
    seats = seating(len(specs), players, rotation)
    agents = [specs[a].make(derive_seed("agent", seed, g, seat), task["game"]) for seat, a in enumerate(seats)]
    spent = [0.0] * players
    decisions = [0] * players
    longest = [0.0] * players
    sims: list[list[float]] = [[] for _ in range(players)]
    actions = 0
    while not state.is_over():
        p = state.current_player
        agent = agents[p]
        t0 = time.perf_counter()
        action = agent.act(state)
        dt = time.perf_counter() - t0
        state.apply(action)
        actions += 1
        spent[p] += dt
        decisions[p] += 1
        if dt > longest[p]:
            longest[p] = dt
        stats = getattr(agent, "last_stats", None)
        if stats and stats.get("iterations"):
            sims[p].append(stats["sims_per_s"])
        if actions > 100_000:
            raise RuntimeError(f"game {g} did not end within 100000 actions")
    result = state.result()
    return {
        "index": g,
        "setup": setup_index,
        "rotation": rotation,
        "seats": seats,
        "scores": list(result.scores),
        "returns": result.returns(),
        "winners": list(result.winners),
        "breakdown": [dict(b) for b in result.breakdown],
        "actions": actions,
        "decisions": decisions,
        "seconds": spent,
        "longest": longest,
        "sims_per_s": [statistics.fmean(s) if s else None for s in sims],
    }


# -- results ------------------------------------------------------------------------------------


@dataclass
class AgentStats:
    """One agent's figures over a tournament."""

    index: int
    agent: str
    games: int
    seats: int
    wins: float
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    score_sd: float
    mean_breakdown: dict[str, float]
    decisions: int
    mean_move_seconds: float
    max_move_seconds: float
    sims_per_s: float | None
    scores: list[int] = field(repr=False, default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "agent": self.agent,
            "games": self.games,
            "seats": self.seats,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95),
            "mean_score": self.mean_score,
            "score_sd": self.score_sd,
            "mean_breakdown": self.mean_breakdown,
            "decisions": self.decisions,
            "mean_move_seconds": self.mean_move_seconds,
            "max_move_seconds": self.max_move_seconds,
            "sims_per_s": self.sims_per_s,
        }


@dataclass
class TournamentResult:
    game: str
    agents: list[str]
    players: int
    games: int
    seed: int
    rotations: int
    stats: list[AgentStats]
    records: list[dict[str, Any]]
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agents": self.agents,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "rotations": self.rotations,
            "setups": self.games // self.rotations,
            "backend": self.backend,
            "workers": self.workers,
            "seconds": self.seconds,
            "results": [s.to_json() for s in self.stats],
            "games_played": self.records,
        }

    def outcomes(self) -> list[tuple]:
        """Every game's seating, scores and returns (what must not depend on workers or backend)."""
        return [(r["index"], tuple(r["seats"]), tuple(r["scores"]), tuple(r["returns"])) for r in self.records]


def summarize(
    game: str, labels: Sequence[str], players: int, seed: int, r: int, records: list[dict[str, Any]]
) -> list[AgentStats]:
    out = []
    n = len(records)
    for i, label in enumerate(labels):
        wins = 0.0
        scores: list[int] = []
        parts: dict[str, float] = {}
        part_count: dict[str, int] = {}
        decisions = 0
        spent = 0.0
        longest = 0.0
        sims: list[float] = []
        seats = 0
        for rec in records:
            for seat, a in enumerate(rec["seats"]):
                if a != i:
                    continue
                seats += 1
                wins += rec["returns"][seat]
                scores.append(rec["scores"][seat])
                for k, v in rec["breakdown"][seat].items():
                    parts[k] = parts.get(k, 0.0) + v
                    part_count[k] = part_count.get(k, 0) + 1
                decisions += rec["decisions"][seat]
                spent += rec["seconds"][seat]
                longest = max(longest, rec["longest"][seat])
                if rec["sims_per_s"][seat] is not None:
                    sims.append(rec["sims_per_s"][seat])
        out.append(
            AgentStats(
                index=i,
                agent=label,
                games=n,
                seats=seats,
                wins=round(wins, 9),
                win_rate=wins / n if n else 0.0,
                win_rate_ci95=wilson_interval(wins, n),
                mean_score=statistics.fmean(scores) if scores else 0.0,
                score_sd=statistics.pstdev(scores) if len(scores) > 1 else 0.0,
                mean_breakdown={k: v / part_count[k] for k, v in parts.items()},
                decisions=decisions,
                mean_move_seconds=spent / decisions if decisions else 0.0,
                max_move_seconds=longest,
                sims_per_s=statistics.fmean(sims) if sims else None,
                scores=scores,
            )
        )
    return out


# -- running ------------------------------------------------------------------------------------


def _labels(specs) -> list[str]:
    labels = [s.label for s in specs]
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if labels.count(label) == 1 else f"{label}#{seen[label]}")
    return out


def run_tournament(
    game: str,
    agents: Sequence[Any] | str,
    players: int,
    games: int,
    seed: int,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` paired games of ``game`` between ``agents`` and sum them up.

    ``agents`` is a list of specs (``AgentSpec`` or strings like ``"mcts:time=0.2"``) or one
    comma-separated string. ``games`` must be a multiple of the number of rotations (the number of
    seats). ``backend`` is "local" (``workers`` processes; 1 plays in this process) or "ray" (the Ray
    cluster at ``address``, or the one already initialised, or a new local one). ``progress(done,
    total)`` is called after each game. Raises ValueError for bad arguments.
    """
    from builders.ai.agents import AgentSpec, parse_agent, parse_agents
    from builders.core.games import get_game

    try:
        g = get_game(game)
    except (KeyError, ValueError) as e:
        raise ValueError(str(e).strip("'\"")) from None
    if isinstance(agents, str):
        specs = parse_agents(agents)
    else:
        specs = [a if isinstance(a, AgentSpec) else parse_agent(a) for a in agents]
    for spec in specs:
        spec.check(game)
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two agents (greedy,greedy plays greedy against itself)")
    if isinstance(players, bool) or not isinstance(players, int) or not g.min_players <= players <= g.max_players:
        raise ValueError(f"{g.title} is for {g.min_players} to {g.max_players} players, not {players!r}")
    if len(specs) > players:
        raise ValueError(f"{len(specs)} agents do not fit in {players} seats")
    r = rotations(len(specs), players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive whole number, not {games!r}")
    if games % r:
        raise ValueError(f"games must be a multiple of {r} (each setup is played once per seat rotation), not {games}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive whole number, not {workers!r}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    labels = _labels(specs)
    base = {
        "game": game,
        "players": players,
        "seed": seed,
        "rotations": r,
        "agents": [(s.kind, dict(s.options)) for s in specs],
    }
    tasks = [dict(base, index=i) for i in range(games)]
    start = time.perf_counter()
    played = ray_games(tasks, address) if backend == "ray" else local_games(tasks, workers)
    records = _collect(played, len(tasks), progress)
    elapsed = time.perf_counter() - start
    stats = summarize(game, labels, players, seed, r, records)
    return TournamentResult(
        game, labels, players, games, seed, r, stats, records, elapsed, workers if backend == "local" else 0, backend
    )


def local_games(
    tasks: list[dict[str, Any]], workers: int, play: Callable[[dict[str, Any]], Any] = play_game
) -> Iterator[tuple[int, Any]]:
    """Play the games ``tasks`` with ``play`` (:func:`play_game` by default) in ``workers`` local
    processes (1: in this process, in order). Yields ``(position in tasks, result)`` as each game
    finishes, so that a caller can keep every game the moment it ends."""
    if workers == 1:
        for i, t in enumerate(tasks):
            yield i, play(t)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # fork where there is one (fast, and scripts need no __main__ guard); the workers only play games
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = {pool.submit(play, t): i for i, t in enumerate(tasks)}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()


def _collect(games: Iterator[tuple[int, dict[str, Any]]], n: int, progress) -> list[dict[str, Any]]:
    """The ``n`` records ``games`` yields (position, record), in their positions' order."""
    out: list[dict[str, Any] | None] = [None] * n
    done = 0
    for i, record in games:
        out[i] = record
        done += 1
        if progress:
            progress(done, n)
    return out  # type: ignore[return-value]


def ray_games(tasks: list[dict[str, Any]], address: str | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Play the games ``tasks`` (as :func:`play_game` takes them) on a Ray cluster: the one at
    ``address``, or the one already initialised, or a new local one. Yields ``(position in tasks,
    record)`` as each game finishes, so that a caller can keep every game the moment it ends."""
    import ray

    if not ray.is_initialized():
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_game)
    refs = [remote.remote(t) for t in tasks]
    index = {ref: i for i, ref in enumerate(refs)}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            yield index[ref], ray.get(ref)


# -- pictures -----------------------------------------------------------------------------------


def plot_result(result: TournamentResult, path: str) -> None:
    """Win rates with their 95% intervals and the score distributions, as PNG or SVG (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [s.agent for s in result.stats]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
    rates = [s.win_rate for s in result.stats]
    lo = [s.win_rate - s.win_rate_ci95[0] for s in result.stats]
    hi = [s.win_rate_ci95[1] - s.win_rate for s in result.stats]
    xs = range(len(labels))
    ax1.bar(xs, rates, yerr=[lo, hi], capsize=6, color="#4c78a8")
    ax1.set_xticks(list(xs), labels, rotation=15)
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win rate (95% Wilson interval)")
    ax1.set_title(f"{result.game}, {result.players} players, {result.games} games")
    data = [s.scores or [0] for s in result.stats]
    ax2.boxplot(data)
    ax2.set_xticks([i + 1 for i in xs], labels, rotation=15)
    ax2.set_ylabel("final score")
    ax2.set_title("score distribution")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
