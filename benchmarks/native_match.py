"""The hard bot handed native states against the hard bot handed Python states, on paired games.

    .venv/bin/python benchmarks/native_match.py --game kingdom --pairs 200 [--turn 2.0] [--out-dir DIR]
    .venv/bin/python benchmarks/native_match.py --game middle-ages --pairs 200 --report

Pair ``k`` is two 2-player games from the same random setup (``random_setup(2, SEED + k)``), the bot
on the native core in seat 0 of the first and seat 1 of the second; both bots are the hard level
(each game's turn planner) with ``--turn`` CPU seconds a turn (``clock=cpu``: the same search on a
busy machine), agent seeds derived from the pair and the seat. The game itself is kept on the Python
engine; before each decision of the native bot its position is handed over as a native state
(``from_python``), so each bot plays from the core it would get. Each game is appended to
``native_match_GAME.jsonl`` in the results folder (``--out-dir``, ``$BUILDERS_RESULTS`` or the
user's data dir: ``benchmarks/manifest.py``), with a manifest of the runs beside it; a stopped run
continues where it stopped. The report: the native bot's score (a win 1, a shared win 1/k) over the
games played, with its 95% interval (over pairs, the two games of a pair together), and its mean
lead (its points less the other seat's).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai.factory import make_planner  # noqa: E402
from builders.core.games import get_game  # noqa: E402

SEED = 48_000


def _to_native(game: str):
    if game == "kingdom":
        from builders.kingdom.native import from_python
    else:
        from builders.middle_ages.native import from_python
    return from_python


def play(game: str, pair: int, native_seat: int, turn: float) -> dict:
    """One game of pair ``pair``, the native bot in ``native_seat``: its result as a JSON line."""
    g = get_game(game)
    setup = g.random_setup(2, SEED + pair)
    from builders.core.games import on_python

    state = on_python(g.new_state(setup))
    to_native = _to_native(game)
    bots = [make_planner(SEED + 10 * pair + seat, "hard", turn, game, clock="cpu") for seat in range(2)]
    cpu = [0.0, 0.0]
    while not state.is_over():
        seat = state.current_player
        view = to_native(state) if seat == native_seat else state
        t = time.process_time()
        action = bots[seat].act(view)
        cpu[seat] += time.process_time() - t
        state.apply(action)
    result = state.result()
    returns = result.returns()
    return {
        "pair": pair,
        "native_seat": native_seat,
        "scores": list(result.scores),
        "native": returns[native_seat],
        "lead": result.scores[native_seat] - result.scores[1 - native_seat],
        "cpu": [round(c, 2) for c in cpu],
        "decisions": len(state.player_actions()),
    }


def report(rows: list[dict]) -> str:
    """The native bot's score with its 95% interval over pairs, and its mean lead."""
    by_pair: dict[int, list[float]] = {}
    for r in rows:
        by_pair.setdefault(r["pair"], []).append(r["native"])
    per_pair = [sum(v) / len(v) for v in by_pair.values()]
    n = len(rows)
    if not n:
        return "no games yet"
    mean = statistics.fmean(r["native"] for r in rows)
    half = 1.96 * statistics.stdev(per_pair) / math.sqrt(len(per_pair)) if len(per_pair) > 1 else float("nan")
    lead = statistics.fmean(r["lead"] for r in rows)
    cpu = [sum(r["cpu"]) / max(1, r["decisions"]) for r in rows]
    return (
        f"{n} games ({len(by_pair)} pairs): hard on the native core scores {mean:.3f} "
        f"(95% interval {max(0.0, mean - half):.3f}-{min(1.0, mean + half):.3f}) against hard on the Python engine; "
        f"mean lead {lead:+.2f}; {statistics.fmean(cpu):.2f} CPU s a decision"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["kingdom", "middle-ages"], required=True)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--turn", type=float, default=2.0, help="CPU seconds of a whole turn (default 2)")
    parser.add_argument("--report", action="store_true", help="only report the games played so far")
    add_out_dir(parser)
    args = parser.parse_args(argv)
    path = results_dir(args.out_dir) / f"native_match_{args.game.replace('-', '_')}.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    rows = [r for r in rows if r.get("turn") == args.turn]
    if not args.report:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_manifest(
            path,
            agents=["hard (native state)", "hard (Python state)"],
            settings={"game": args.game, "turn": args.turn, "clock": "cpu", "players": 2, "seed": SEED},
            seeds=[SEED, SEED + args.pairs - 1],
            games=2 * args.pairs,
        )
        done = {(r["pair"], r["native_seat"]) for r in rows}
        for pair in range(args.pairs):
            for seat in (0, 1):
                if (pair, seat) in done:
                    continue
                row = {**play(args.game, pair, seat, args.turn), "turn": args.turn}
                with path.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                rows.append(row)
                print(f"pair {pair} native seat {seat}: scores {row['scores']}; {report(rows)}", flush=True)
    print(report(rows))


if __name__ == "__main__":
    main()
