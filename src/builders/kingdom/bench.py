"""Kingdom Builder speed benchmark: random full games through the public API.

The workload: sections oracle, paddock, harbor, farm in slots 0-3, none turned; cards miners,
fishermen, workers; a fresh deck shuffled from each game's seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from builders.bench import legal_generation_figures, random_game_figures
from builders.kingdom.setup import new_state
from builders.kingdom.state import KingdomState

WORKLOAD_SECTIONS = [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]]
WORKLOAD_CARDS = ["miners", "fishermen", "workers"]


def workload_setup(players: int, seed: int) -> dict[str, Any]:
    return {"players": players, "sections": WORKLOAD_SECTIONS, "cards": WORKLOAD_CARDS, "start_player": 0, "seed": seed}


def maker(players: int) -> Callable[[int], KingdomState]:
    def make(seed: int) -> KingdomState:
        return new_state(workload_setup(players, seed))

    return make


def run(runs: int = 5, games: int = 200, echo: Callable[[str], None] = print) -> None:
    """Print 2-player and 4-player random-game figures and legal-action generation alone."""
    echo("Kingdom Builder: random games (oracle, paddock, harbor, farm; miners, fishermen, workers)")
    echo(random_game_figures("2 players", maker(2), games, runs).line())
    echo(random_game_figures("4 players", maker(4), max(1, games // 4), runs).line())
    echo(legal_generation_figures("2 players", maker(2), max(1, min(games, 50)), runs).line())
