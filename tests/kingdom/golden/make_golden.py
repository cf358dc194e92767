"""Write the golden files of tests/kingdom/test_golden.py. Run by hand, never by the tests:

    .venv/bin/python tests/kingdom/golden/make_golden.py

Each file is one seeded random game: its explicit setup, the record's history, and at every decision
the number of legal actions and a hash of their sorted notation, plus the final result and position.
Regenerate only after checking that a change of the counts is a correction of the rules, not a bug.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from builders.kingdom.game import KingdomBuilder

HERE = Path(__file__).parent

BENCH_SECTIONS = [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]]
BENCH_CARDS = ["miners", "fishermen", "workers"]

#: name -> (how the setup is made, players, seed)
GAMES = {
    "random_2p_seed1": ("random", 2, 1),
    "random_3p_seed2": ("random", 3, 2),
    "random_4p_seed3": ("random", 4, 3),
    "random_3p_seed9": ("random", 3, 9),  # tower, harbor, barn, farm (turned sections)
    "random_2p_seed29": ("random", 2, 29),  # tower, paddock, harbor, barn
    "first_game_2p_seed4": ("first", 2, 4),
    "first_game_4p_seed5": ("first", 4, 5),
    "bench_2p_seed6": ("bench", 2, 6),
    "bench_3p_seed7": ("bench", 3, 7),
    "bench_4p_seed8": ("bench", 4, 8),
}


def moves_hash(moves: list[str]) -> str:
    return hashlib.sha256("\n".join(moves).encode("utf-8")).hexdigest()[:16]


def make_setup(kind: str, players: int, seed: int) -> dict:
    game = KingdomBuilder()
    if kind == "random":
        return game.random_setup(players, seed)
    if kind == "first":
        setup = game.first_game_setup(players)
        setup["seed"] = seed
        return setup
    return {"players": players, "sections": BENCH_SECTIONS, "cards": BENCH_CARDS, "start_player": 0, "seed": seed}


def play(kind: str, players: int, seed: int) -> dict:
    setup = make_setup(kind, players, seed)
    state = KingdomBuilder().new_state(setup)
    rng = random.Random(seed)
    counts, hashes = [], []
    while not state.is_over():
        moves = sorted(state.action_to_string(a) for a in state.legal_actions())
        counts.append(len(moves))
        hashes.append(moves_hash(moves))
        state.apply_string(rng.choice(moves))
    return {
        "made_by": {"setup": kind, "players": players, "seed": seed},
        "setup": setup,
        "history": state.history_strings(),
        "counts": counts,
        "hashes": hashes,
        "result": state.result().to_json("cards"),
        "final_position": state.to_json(),
    }


def main() -> None:
    for name, (kind, players, seed) in GAMES.items():
        data = play(kind, players, seed)
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: {len(data['counts'])} decisions, gold {[p['total'] for p in data['result']['players']]}")


if __name__ == "__main__":
    main()
