"""A Kingdom Builder evaluation fitted on games, against the hand-set one: how well each predicts
how a game ends.

    .venv/bin/python benchmarks/ai_fit_kingdom.py [--games 1600] [--first 0] [--workers 2] [--ridge 10]
        [--out-dir DIR | --out FILE]

Plays ``--games`` games of 2 players (setups ``1000 + g``; each seat medium, medium or easy, drawn
from ``g``), recording at the start of every turn each seat's features: the gold each card and the
castles give now, tiles held, free hexes next to own settlements (and those that would score for
fishermen, miners, workers, merchants), rows a build there opens (discoverers), reachable locations
with a tile left and castles not yet scored, lords' lead per sector, farmers' two weakest sectors
and distance to an empty sector, citizens' second group, knights' second row, and the groups where
hermits are not a card (the parts of ``builders.ai.evaluate``, with a few of their own). A ridge
regression of a seat's final lead over the other on the difference of the two seats' features,
each times a hat function of the turns left (``min(supply) / 3``; knots 0, 3, 6 and 10, earlier
turns at 10), is fitted on the games whose number is not a multiple of 5 and tested on the others,
against the hand-set evaluation's lead times its best factor (fitted on the same games). The report:
each one's error in gold and how often the side it favours wins; the file holds those, the weights
and the command. docs/ai.md, under *Games played out*, tells what the fit found and how hard played
with it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai import eval_kingdom as E  # noqa: E402
from builders.ai import make_bot  # noqa: E402
from builders.ai.tournament import local_games  # noqa: E402
from builders.core.games import get_game  # noqa: E402
from builders.kingdom import scoring  # noqa: E402
from builders.kingdom.notation import END  # noqa: E402

KNOTS = (0.0, 3.0, 6.0, 10.0)
GOODS = ("fishermen", "miners", "workers", "merchants")
CARDS = (
    "fishermen",
    "miners",
    "workers",
    "merchants",
    "discoverers",
    "lords",
    "farmers",
    "citizens",
    "knights",
    "hermits",
)
NAMES = (
    ("castles", "held", "frontier", "locreach", "castlereach")
    + tuple("gold_" + c for c in CARDS)
    + tuple("front_" + c for c in GOODS)
    + ("newrow", "lords_lead", "farm_low2", "farm_gap", "cit_g2", "kn_second", "ngroups")
)


def features(st, p: int) -> dict[str, float]:
    """Seat ``p``'s features in Kingdom Builder position ``st`` (public information only); the gold of
    the castles and of each card is what the game would score now (``scoring.breakdown``)."""
    ctx = E._kingdom_context(st)
    _, counts, _, _, _, _, _, gaps = ctx.own_part(st.own[p])[3]
    own = st.own[p]
    free = st.board.buildable & ~st.occ
    frontier = st.near[p] & free
    f: dict[str, float] = {("gold_" + k if k != "castles" else k): v for k, v in scoring.breakdown(st, p).items()}
    f["held"] = st.held[p].bit_count()
    f["frontier"] = min(frontier.bit_count(), 30)
    k = 0
    for card in st.cards:
        if card in GOODS:
            f["front_" + card] = min((frontier & ctx.goods[k]).bit_count(), 8)
            k += 1
    if "discoverers" in st.cards:
        f["newrow"] = (E._row_flags(frontier) & ~E._row_flags(own)).bit_count()
    f["locreach"] = sum(1 for o, hb, nb in ctx.locs if st.left[o] and not st.taken[p] & hb and nb & frontier)
    f["castlereach"] = sum(1 for nb in ctx.castle_nbrs if not nb & own and nb & frontier)
    if "lords" in st.cards:
        n = st.num_players
        lead = 0
        for s in range(4):
            cs = [(st.own[q] & ctx.sectors[s]).bit_count() for q in range(n)]
            lead += max(-3, min(2, cs[p] - max(c for q, c in enumerate(cs) if q != p)))
        f["lords_lead"] = lead
    if "farmers" in st.cards:
        low = sorted(counts)
        f["farm_low2"] = low[0] + low[1]
        f["farm_gap"] = sum(gaps[s] for s in range(4) if not counts[s]) if own else 0
    groups = sorted((g.bit_count() for g in ctx.groups(own)), reverse=True)
    if "citizens" in st.cards:
        f["cit_g2"] = groups[1] if len(groups) > 1 else 0
    if "knights" in st.cards:
        f["kn_second"] = sorted((own & r).bit_count() for r in ctx.rows)[-2]
    if "hermits" not in st.cards:
        f["ngroups"] = len(groups)
    return f


def play(task: dict) -> dict:
    """Game ``task["index"]``: its positions at each turn's start (turns left, each seat's features and
    hand-set value) and its final scores."""
    g = task["index"]
    game = get_game("kingdom")
    st = game.new_state(game.random_setup(2, 1000 + g))
    rnd = random.Random(g)
    bots = [make_bot("kingdom", rnd.choice(["medium", "medium", "easy"]), seed=g * 7 + i) for i in range(2)]
    positions = []
    start = True
    while not st.is_over():
        if start:
            positions.append(
                {"left": min(st.supply) / 3.0, "f": [features(st, q) for q in range(2)], "hand": E._kingdom_values(st)}
            )
        action = bots[st.current_player].act(st)
        st.apply(action)
        start = action == END
    return {"index": g, "scores": list(st.result().scores), "positions": positions}


def hats(left: float) -> list[float]:
    """The weights of the knots at ``left`` turns left (linear between two knots, clamped)."""
    t = min(max(left, KNOTS[0]), KNOTS[-1])
    out = [0.0] * len(KNOTS)
    for j in range(len(KNOTS) - 1):
        a, b = KNOTS[j], KNOTS[j + 1]
        if a <= t <= b:
            u = (t - a) / (b - a)
            out[j], out[j + 1] = 1 - u, u
            break
    return out


def fit(games: list[dict], ridge: float) -> dict:
    """The fitted weights and both evaluations' error and winner accuracy on the test games."""
    import numpy as np

    rows, ys, hands, test = [], [], [], []
    for rec in games:
        scores = rec["scores"]
        for pos in rec["positions"]:
            h = hats(pos["left"])
            for s in (0, 1):
                mine, other = pos["f"][s], pos["f"][1 - s]
                x = [0.0] * (len(NAMES) * len(KNOTS))
                for i, name in enumerate(NAMES):
                    d = mine.get(name, 0) - other.get(name, 0)
                    for j, w in enumerate(h):
                        x[i * len(KNOTS) + j] = d * w
                rows.append(x)
                ys.append(scores[s] - scores[1 - s])
                hands.append(pos["hand"][s] - pos["hand"][1 - s])
                test.append(rec["index"] % 5 == 0)
    X, y, h, te = np.array(rows), np.array(ys, float), np.array(hands, float), np.array(test)
    tr = ~te  # any 5 games in a row hold a test game and fitting games
    w = np.linalg.solve(X[tr].T @ X[tr] + ridge * np.eye(X.shape[1]), X[tr].T @ y[tr])
    factor = float(h[tr] @ y[tr] / (h[tr] @ h[tr])) if (h[tr] @ h[tr]) else 0.0
    fitted, hand = X[te] @ w, h[te] * factor

    def report(pred):
        return {
            "error": round(math.sqrt(float(((y[te] - pred) ** 2).mean())), 3),
            "winner_right": round(float(((pred > 0) == (y[te] > 0)).mean()), 4),
        }

    return {
        "positions": int(len(y)),
        "test_positions": int(te.sum()),
        "hand_factor": round(factor, 4),
        "hand": report(hand),
        "fitted": report(fitted),
        "weights": {
            name: [round(float(w[i * len(KNOTS) + j]), 3) for j in range(len(KNOTS))] for i, name in enumerate(NAMES)
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1600)
    ap.add_argument("--first", type=int, default=0, help="the first game's number (default 0)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--ridge", type=float, default=10.0)
    add_out_dir(ap)
    ap.add_argument("--out", type=Path, default=None, help="the result (default: ai_fit_kingdom.json in the out dir)")
    args = ap.parse_args(argv)
    problems = [
        msg
        for bad, msg in (
            (args.games < 5, f"--games must be at least 5 (every fifth game is a test game), not {args.games}"),
            (args.first < 0, f"--first must be 0 or more, not {args.first}"),
            (args.workers < 1, f"--workers must be at least 1, not {args.workers}"),
            (
                not (math.isfinite(args.ridge) and args.ridge >= 0),
                f"--ridge must be a number of 0 or more, not {args.ridge}",
            ),
        )
        if bad
    ]
    if problems:
        print(f"error: {problems[0]}", file=sys.stderr)
        return 2
    args.out = args.out or results_dir(args.out_dir) / "ai_fit_kingdom.json"
    write_manifest(
        args.out,
        agents="medium, medium or easy a seat (drawn from the game's number)",
        seeds={"setups": f"1000 + g for g from {args.first}"},
        games=args.games,
        settings={"ridge": args.ridge, "knots": list(KNOTS), "workers": args.workers},
    )
    tasks = [{"index": g} for g in range(args.first, args.first + args.games)]
    games = sorted((rec for _, rec in local_games(tasks, args.workers, play)), key=lambda r: r["index"])
    result = fit(games, args.ridge)
    result = {
        "command": " ".join(["benchmarks/ai_fit_kingdom.py", *(argv if argv is not None else sys.argv[1:])]),
        "games": args.games,
        "first": args.first,
        "knots": list(KNOTS),
        "ridge": args.ridge,
        **result,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(
        f"{args.games} games, {result['positions']} seat-positions ({result['test_positions']} in the test games): "
        f"hand-set evaluation x {result['hand_factor']:.2f}: error {result['hand']['error']:.2f} gold, "
        f"winner right {100 * result['hand']['winner_right']:.1f}%; fitted: error {result['fitted']['error']:.2f} gold, "
        f"winner right {100 * result['fitted']['winner_right']:.1f}%"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
