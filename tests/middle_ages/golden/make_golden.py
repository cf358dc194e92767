"""Write legal_counts.json: the number of legal actions at every decision of fixed-seed random games.

Run by hand only, after a deliberate rules change (then review the diff):

    .venv/bin/python tests/middle_ages/golden/make_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from builders.middle_ages.game import MiddleAges

GAMES = [(2, 1), (2, 2), (3, 3), (4, 4)]  # (players, seed)


def golden_game(players: int, seed: int) -> dict:
    game = MiddleAges()
    state = game.new_state(game.random_setup(players, seed))
    rnd = random.Random(seed)
    counts = []
    while not state.is_over():
        actions = state.legal_actions()
        counts.append(len(actions))
        state.apply(actions[rnd.randrange(len(actions))])
    return {
        "players": players,
        "seed": seed,
        "legal_counts": counts,
        "history": state.history_strings(),
        "result": state.result().to_json(),
    }


def main() -> None:
    out = Path(__file__).with_name("legal_counts.json")
    data = [golden_game(players, seed) for players, seed in GAMES]
    out.write_text(json.dumps(data) + "\n", encoding="utf-8")
    print(f"wrote {out}: {sum(len(g['legal_counts']) for g in data)} decisions")


if __name__ == "__main__":
    main()
