"""Speed of the engine: random full games through the public API (``legal_actions`` + ``apply``),
2 and 4 players, and legal-action generation alone. Every figure is the median of ``runs`` runs."""

from __future__ import annotations

from collections.abc import Callable

from builders.bench import legal_generation_figures, random_game_figures
from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState


def make_state(players: int) -> Callable[[int], MiddleAgesState]:
    game = MiddleAges()

    def make(seed: int) -> MiddleAgesState:
        return game.new_state(game.random_setup(players, seed))

    return make


def run(runs: int = 5, games: int = 200, echo: Callable[[str], object] = print) -> None:
    echo(f"The Builders: Middle Ages: random games (setup included), median of {runs} runs")
    for players, count in ((2, games), (4, max(1, games // 4))):
        figures = random_game_figures(f"{players} players, {count} games", make_state(players), count, runs)
        echo(figures.line())
    gen = legal_generation_figures("2 players, 20 games", make_state(2), 20, runs)
    echo(gen.line())
