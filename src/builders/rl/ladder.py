"""``builders ladder``: every bot level (and a trained PPO policy) rated on one Elo scale.

A round robin of two-player games: every pair of entrants plays ``games`` games, in pairs on the same
random setup with the seats swapped. The ratings are the maximum-likelihood fit of the Bradley-Terry
model on the Elo scale (the chance that A beats B is 1 / (1 + 10^((R_B - R_A) / 400))), the random
agent pinned at 0, with one draw added between every two entrants that played (a weak prior that
keeps a rating finite when one side won every game). A draw counts half a win to each side. The
95% intervals come from the curvature of the likelihood at its maximum (the observed information).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from builders.rl.base import Match, make_codec

#: the scale of Elo ratings: a difference of 400 is odds of 10 to 1
ELO = 400.0 / math.log(10.0)
#: the markers of the table in a Markdown file
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"
#: the bots of the ladder by default, weakest first
LEVELS = "random,easy,medium,hard,expert"


class PolicyAgent:
    """An agent that plays by a trained MaskablePPO model (sb3-contrib) of the environments' flat
    observations: its most likely legal index at each decision, picks included."""

    def __init__(self, path: str | Path, game: str, players: int = 2):
        from sb3_contrib import MaskablePPO

        self.model = MaskablePPO.load(str(path), device="cpu")
        self.codec = make_codec(game, players)
        self.name = "ppo"
        expected = self.model.observation_space["observation"].shape
        if expected != (self.codec.size,):
            raise ValueError(
                f"the model {Path(path).name} reads observations of {expected[0]} entries, not the "
                f"{self.codec.size} of {game} with {players} players"
            )

    def act(self, state):
        match = Match(self.codec, state)  # observes ``state`` in place, never plays into it
        seat = state.current_player
        while True:
            obs = match.observe(seat)
            index, _ = self.model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=True)
            match.prefix.append(int(index))
            match._mask = None
            if not self.codec.needs_more(match.prefix):
                return match._engine_action(match.prefix)


@dataclass
class Entrant:
    """One player of the ladder: its name and how to make it for a game (a seed gives a fresh agent)."""

    name: str
    make: Callable[[int], Any]
    seconds: float = 0.0
    decisions: int = 0


@dataclass
class LadderResult:
    names: list[str]
    #: wins[i][j]: games i won against j (a draw counts half)
    wins: np.ndarray
    #: games[i][j]: games between i and j
    games: np.ndarray
    ratings: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: half-widths of the 95% intervals (0 for the pinned entrant)
    margins: np.ndarray = field(default_factory=lambda: np.zeros(0))
    seconds: float = 0.0
    seconds_per_decision: list[float] = field(default_factory=list)


def entrants(game: str, bots: str, turn_time: float | None, ppo: str | Path | None) -> list[Entrant]:
    """The entrants: the bots of ``bots`` (hard and expert with ``turn_time`` CPU seconds a turn when
    given) and a PPO model when ``ppo`` names one."""
    from builders.ai.agents import PLANNERS, AgentSpec, parse_agents

    out = []
    for spec in parse_agents(bots):
        if turn_time is not None and spec.kind in PLANNERS:
            spec = AgentSpec(spec.kind, {**spec.options, "turn": turn_time, "clock": "cpu"})
        spec.check(game)
        out.append(Entrant(spec.label, lambda seed, spec=spec: spec.make(seed, game)))
    if ppo is not None:
        policy = PolicyAgent(ppo, game)
        out.append(Entrant("ppo", lambda seed: policy))
    names = [e.name for e in out]
    if len(set(names)) != len(names):
        raise ValueError(f"every entrant of the ladder must differ: {', '.join(names)}")
    if len(out) < 2:
        raise ValueError("the ladder needs at least two entrants")
    return out


def play_ladder(
    game: str, players: list[Entrant], games: int, seed: int, progress: Callable[[int, int], None] | None = None
) -> LadderResult:
    """Play ``games`` games (an even number) between every two entrants; returns the tallies, rated."""
    from builders.ai.tournament import derive_seed

    if games < 2 or games % 2:
        raise ValueError(
            f"--games must be an even number of at least 2 (each setup is played from both seats), not {games}"
        )
    n = len(players)
    wins = np.zeros((n, n))
    played = np.zeros((n, n))
    codec = make_codec(game, 2)
    total = n * (n - 1) // 2 * games
    done = 0
    start = time.process_time()
    for i in range(n):
        for j in range(i + 1, n):
            for g in range(games):
                setup_seed = derive_seed("ladder", seed, i, j, g // 2) >> 32
                seats = (i, j) if g % 2 == 0 else (j, i)
                agents = [
                    players[p].make(derive_seed("ladder agent", seed, i, j, g, s) >> 32) for s, p in enumerate(seats)
                ]
                state = codec.new_state(None, setup_seed)
                while not state.is_over():
                    p = state.current_player
                    t0 = time.process_time()
                    action = agents[p].act(state)
                    players[seats[p]].seconds += time.process_time() - t0
                    players[seats[p]].decisions += 1
                    state.apply(action)
                winners = state.result().winners
                for s, p in enumerate(seats):
                    if s in winners:
                        wins[p, seats[1 - s]] += 1.0 / len(winners)
                played[i, j] += 1
                played[j, i] += 1
                done += 1
                if progress is not None:
                    progress(done, total)
    result = LadderResult([p.name for p in players], wins, played)
    result.ratings, result.margins = fit_elo(wins, played)
    result.seconds = time.process_time() - start
    result.seconds_per_decision = [p.seconds / max(p.decisions, 1) for p in players]
    return result


def fit_elo(
    wins: np.ndarray,
    games: np.ndarray,
    pinned: int = 0,
    prior_draws: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry ratings on the Elo scale by maximum likelihood (Newton's method), entrant
    ``pinned`` at 0, with ``prior_draws`` draws added between every two entrants that played; returns
    (ratings, half-widths of their 95% intervals)."""
    n = len(wins)
    met = games > 0
    w = wins + np.where(met, prior_draws / 2, 0.0)
    g = games + np.where(met, prior_draws, 0.0)
    free = [k for k in range(n) if k != pinned]
    theta = np.zeros(n)  # natural-log strengths
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        grad = (w - g * p).sum(axis=1)
        info = g * p * (1 - p)
        hess = np.diag(info.sum(axis=1)) - info  # minus the Hessian: the observed information
        sub = hess[np.ix_(free, free)]
        step = np.clip(np.linalg.solve(sub, grad[free]), -2.0, 2.0)  # damped far from the maximum
        theta[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    info = g * p * (1 - p)
    hess = np.diag(info.sum(axis=1)) - info
    cov = np.linalg.inv(hess[np.ix_(free, free)])
    margins = np.zeros(n)
    margins[free] = 1.959964 * np.sqrt(np.diag(cov)) * ELO
    return theta * ELO, margins


def table(result: LadderResult) -> str:
    """The ratings as a Markdown table, best first."""
    lines = [
        "| rank | player | Elo | 95% interval | games | score | CPU s/decision |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    order = sorted(range(len(result.names)), key=lambda k: -result.ratings[k])
    for rank, k in enumerate(order, 1):
        r, m = result.ratings[k], result.margins[k]
        interval = "pinned" if m == 0 else f"{r - m:+.0f} to {r + m:+.0f}"
        played = int(result.games[k].sum())
        score = result.wins[k].sum() / played if played else 0.0
        spent = f"{result.seconds_per_decision[k]:.3f}" if result.seconds_per_decision else ""
        lines.append(f"| {rank} | {result.names[k]} | {r:+.0f} | {interval} | {played} | {score:.0%} | {spent} |")
    return "\n".join(lines) + "\n"


def check_markers(path: Path) -> str:
    """The text of the Markdown file ``path``; ValueError unless it holds the markers once each, in order."""
    page = path.read_text(encoding="utf-8")
    if page.count(BEGIN) != 1 or page.count(END) != 1 or page.index(BEGIN) > page.index(END):
        raise ValueError(f"{path} must hold the lines {BEGIN} and {END} once each, in that order")
    return page


def write_between_markers(path: str | Path, text: str) -> None:
    """Put ``text`` between the ladder markers of the Markdown file ``path`` (ValueError without them)."""
    from builders.core.record import write_text_whole

    target = Path(path)
    page = check_markers(target)
    head, rest = page.split(BEGIN)
    _, tail = rest.split(END)
    write_text_whole(target, f"{head}{BEGIN}\n{text}{END}{tail}")


def describe(
    result: LadderResult, game: str, games: int, seed: int, turn_time: float | None, command: Sequence[str]
) -> str:
    """The table with a line saying how it was made."""
    budget = (
        f"hard and expert at {turn_time:g} CPU s a turn"
        if turn_time is not None
        else "hard and expert at their own turn times"
    )
    return (
        table(result) + f"\n{game}, two players, {games} games per pair ({int(result.games.sum()) // 2} in all, "
        f"random setups, each played from both seats), seed {seed}, {budget}; "
        f"{_duration(result.seconds)} of CPU time. `{' '.join(command)}`\n"
    )


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} minutes"
