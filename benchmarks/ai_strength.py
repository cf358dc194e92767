"""The strength matches of docs/ai.md (issue 13's targets), resumable: long, run them in the background.

    .venv/bin/python benchmarks/ai_strength.py [--which NAME ...] [--games N] [--workers 2]
        [--backend local|ray [--address HOST:PORT]] [--out-dir DIR | --results FILE ...] [--report [--markdown]]

Every finished game is appended as one JSON line (match name, game index, outcome) to the results
file, so a match stopped part-way (Ctrl-C, a reboot, a time limit) continues where it stopped when the
command is run again: the games already in the file are not played again. Game ``g`` of a match is
the same game whatever the number of workers (and, as the searching agents count their time in CPU
seconds, ``clock=cpu``, whatever else the machine is doing) (setup and agent seeds come from the match's fixed seed
and ``g``, seats rotated in pairs). ``--games N`` plays only the first N games of each match (a
multiple of the seats), for a first look; ``--report`` plays nothing and prints the table of what
the file holds. The win rate of the first agent is given with its 95% Wilson interval and compared
with the target: "met" only when the interval's lower bound clears it. For a line not met, the report
also says how far it is: the points a game the first agent's lead would have to gain to meet it, found
by adding the same number of points to its lead in every game played (``shift_needed``): an
estimate that assumes a stronger agent would win the same games by more, not a measurement.

``--backend ray`` plays the games on a Ray cluster instead of local processes (``--address`` of its
head, or a new local one without it; install the ``ray`` extra), appending each game as it finishes,
as the local workers do: the CPU-hours of the hard and expert lines can be spread over many machines.
``--list`` prints the matches.

``--report --markdown`` prints the table in Markdown (docs/ai.md holds it). ``--results`` may name
several files: the games of all are read (a match played on past its planned games in a file of
its own is judged over all of them) and new games are appended to the first.

The results file is ``ai_strength.jsonl`` in ``--out-dir`` (default ``$BUILDERS_RESULTS``, else the
user's data dir: ``benchmarks/manifest.py``), or ``--results FILE``; each run that plays adds an
entry to its manifest, ``ai_strength.manifest.json`` beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai.agents import parse_agents  # noqa: E402
from builders.ai.tournament import (  # noqa: E402
    BACKENDS,
    _labels,
    local_games,
    ray_games,
    rotations,
    summarize,
    wilson_interval,
)

SEED = 2024
#: name -> (game, agents, players, games, target win rate of the first agent or None)
MATCHES: dict[str, tuple[str, str, int, int, float | None]] = {
    "kb-hard-medium": ("kingdom", "hard:clock=cpu,medium", 2, 200, 0.90),
    "kb-hard-oldhard": ("kingdom", "hard:clock=cpu,mcts:time=1:clock=cpu", 2, 200, 0.65),
    "kb4-hard-medium": ("kingdom", "hard:clock=cpu,medium", 4, 100, 0.55),
    "ma-hard-medium": ("middle-ages", "hard:clock=cpu,medium", 2, 200, 0.85),
    "kb-medium-easy": ("kingdom", "medium,easy", 2, 200, 0.65),
    "kb-easy-random": ("kingdom", "easy,random", 2, 200, 0.65),
    "kb-expert-hard": ("kingdom", "expert:clock=cpu,hard:clock=cpu", 2, 200, 0.65),
    "ma-medium-easy": ("middle-ages", "medium,easy", 2, 200, 0.65),
    "ma-easy-random": ("middle-ages", "easy,random", 2, 200, 0.65),
    "ma-expert-hard": ("middle-ages", "expert:clock=cpu,hard:clock=cpu", 2, 200, 0.65),
    "ma-medium-medium": ("middle-ages", "medium,medium", 2, 200, None),
}
RESULTS_NAME = "ai_strength.jsonl"


def load(paths: Path | list[Path]) -> dict[str, dict[int, dict]]:
    """The games in the results files, per match and game index (the last line of a game wins)."""
    out: dict[str, dict[int, dict]] = {}
    for path in [paths] if isinstance(paths, Path) else paths:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    out.setdefault(row["match"], {})[row["record"]["index"]] = row["record"]
    return out


def tasks_of(name: str, games: int) -> list[dict]:
    game, agents, players, _, _ = MATCHES[name]
    specs = parse_agents(agents)
    r = rotations(len(specs), players)
    base = {
        "game": game,
        "players": players,
        "seed": SEED,
        "rotations": r,
        "agents": [(s.kind, dict(s.options)) for s in specs],
    }
    return [dict(base, index=i) for i in range(games)]


def play(
    names: list[str],
    games: int | None,
    workers: int,
    path: Path | list[Path],
    backend: str = "local",
    address: str | None = None,
) -> int:
    """Play the games of ``names`` missing from ``path`` (a file, or files of which the first is
    written), appending each as it finishes, in ``workers`` local processes or on a Ray cluster
    (``backend="ray"``, at ``address``); returns the number of games played."""
    done = load(path)
    path = path if isinstance(path, Path) else path[0]
    todo = []
    for name in names:
        n = games or MATCHES[name][3]
        todo += [(name, t) for t in tasks_of(name, n) if t["index"] not in done.get(name, {})]
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"{len(todo)} games to play", file=sys.stderr)
    if not todo:
        return 0
    write_manifest(
        path,
        agents={name: MATCHES[name][1] for name in names},
        seeds={"match": SEED},
        games=len(todo),
        settings={
            "players": {name: MATCHES[name][2] for name in names},
            "backend": backend,
            "workers": workers,
            "first_games": games,
        },
    )
    with path.open("a") as out:

        def save(name: str, record: dict) -> None:
            out.write(json.dumps({"match": name, "record": record}) + "\n")
            out.flush()
            print(f"{name} game {record['index']}: scores {record['scores']}, seats {record['seats']}", file=sys.stderr)

        tasks = [t for _, t in todo]
        games = ray_games(tasks, address) if backend == "ray" else local_games(tasks, workers)
        for i, record in games:
            save(todo[i][0], record)
    return len(todo)


def rate_needed(target: float, games: int) -> float:
    """The lowest win rate (in half games) whose 95% Wilson lower bound over ``games`` clears ``target``."""
    for half_wins in range(2 * games + 1):
        if wilson_interval(half_wins / 2, games)[0] >= target:
            return half_wins / 2 / games
    return 1.0


def first_leads(records: list[dict]) -> list[float]:
    """The first agent's lead in each game: its score less the best score of the other seats."""
    out = []
    for rec in records:
        seat = rec["seats"].index(0)
        scores = rec["scores"]
        out.append(scores[seat] - max(s for q, s in enumerate(scores) if q != seat))
    return out


def shift_needed(leads: list[float], target: float, games: int, step: float = 0.25) -> float:
    """The smallest multiple of ``step`` which, added to every lead, makes the win rate (a lead of 0
    counts half) reach ``rate_needed(target, games)``."""
    need = rate_needed(target, games)
    shift = 0.0
    while True:
        wins = sum(1.0 if x + shift > 0 else 0.5 if x + shift == 0 else 0.0 for x in leads)
        if wins >= need * len(leads) - 1e-9:
            return shift
        shift += step


def line_of(name: str, records: list[dict]) -> dict | None:
    """The figures of a match over the games held: the first agent's wins and their 95% interval, the
    verdict on its target, the mean scores, the lowest score and each agent's time per decision."""
    game, agents, players, planned, target = MATCHES[name]
    if not records:
        return None
    specs = parse_agents(agents)
    stats = summarize(game, _labels(specs), players, SEED, rotations(len(specs), players), records)
    first = stats[0]
    lo, hi = wilson_interval(first.wins, len(records))
    if target is None:
        verdict, short = "", "-"
    elif lo >= target:
        verdict = short = f"target {target:.0%}: met"
        short = "met"
    else:
        short = "not met" if hi < target else "not shown (the interval contains the target)"
        verdict = f"target {target:.0%}: " + ("not met" if hi < target else "not shown (the interval contains it)")
        # over the games held when the match was played on past its planned number
        games = max(planned, len(records))
        need = rate_needed(target, games)
        shift = shift_needed(first_leads(records), target, games)
        verdict += f" (it needs {need:.2%} of {games} games: about {shift:+g} points a game in the lead)"
        short += f": needs {need:.2%} of {games}, about {shift:+g} points a game"
    return {
        "name": name,
        "game": game,
        "players": players,
        "games": len(records),
        "planned": planned,
        "target": target,
        "first": first.agent,
        "wins": first.wins,
        "rate": first.win_rate,
        "lo": lo,
        "hi": hi,
        "verdict": verdict,
        "short": short,
        "low": min(min(rec["scores"]) for rec in records),
        "means": [(s.agent, s.mean_score) for s in stats],
        "times": [(s.agent, 1000 * s.mean_move_seconds) for s in stats if s.mean_move_seconds > 0.001],
    }


def report(names: list[str], paths: Path | list[Path]) -> list[str]:
    """One line per match: games held, the first agent's wins and interval, the target verdict."""
    done = load(paths)
    lines = []
    for name in names:
        x = line_of(name, sorted(done.get(name, {}).values(), key=lambda r: r["index"]))
        if x is None:
            lines.append(f"{name}: no games yet")
            continue
        mean_s = ", ".join(f"{a} {m:.1f}" for a, m in x["means"])
        times = ", ".join(f"{a} {ms:.0f} ms" for a, ms in x["times"])
        lines.append(
            f"{name} ({x['game']}, {x['players']} players, seed {SEED}): {x['games']}/{x['planned']} games, "
            f"{x['first']} {x['wins']:g} wins = {x['rate']:.1%} [{x['lo']:.1%}, {x['hi']:.1%}] {x['verdict']}; "
            f"mean scores {mean_s}; lowest score {x['low']}; per decision {times or '-'}"
        )
    return lines


def markdown(names: list[str], paths: Path | list[Path]) -> list[str]:
    """The table of ``report`` in Markdown: one row per match with games."""
    done = load(paths)
    rows = [
        "| match | game, seats | games held / planned | first agent's wins | 95% interval | target | verdict "
        "| mean scores | lowest score | CPU ms a decision |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in names:
        x = line_of(name, sorted(done.get(name, {}).values(), key=lambda r: r["index"]))
        if x is None:
            continue
        rows.append(
            " | ".join(
                [
                    f"| `{name}`",
                    f"{x['game']}, {x['players']}",
                    f"{x['games']} / {x['planned']}",
                    f"{x['first']} {x['wins']:.4g} = {x['rate']:.1%}",
                    f"{x['lo']:.1%}-{x['hi']:.1%}",
                    "-" if x["target"] is None else f">= {x['target']:.0%}",
                    x["short"],
                    ", ".join(f"{a} {m:.1f}" for a, m in x["means"]),
                    str(x["low"]),
                    ", ".join(f"{a} {ms:.0f}" for a, ms in x["times"]) or "-",
                ]
            )
            + " |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--which", nargs="*", default=list(MATCHES), choices=list(MATCHES))
    parser.add_argument("--games", type=int, default=None, help="only the first N games of each match")
    parser.add_argument("--workers", type=int, default=2, help="local processes (backend local)")
    parser.add_argument(
        "--backend", choices=BACKENDS, default="local", help="local processes, or a Ray cluster (the ray extra)"
    )
    parser.add_argument("--address", default=None, help="the Ray cluster's head, HOST:PORT (backend ray)")
    add_out_dir(parser)
    parser.add_argument(
        "--results",
        type=Path,
        nargs="+",
        default=None,
        metavar="FILE",
        help=f"the results files (default: {RESULTS_NAME} in the out dir); games are read "
        "from all, new ones appended to the first",
    )
    parser.add_argument("--report", action="store_true", help="print the table of the results file only")
    parser.add_argument("--markdown", action="store_true", help="with --report: the table in Markdown")
    parser.add_argument("--list", action="store_true", help="list the matches")
    args = parser.parse_args()
    if args.list:
        for name, (game, agents, players, games, target) in MATCHES.items():
            print(
                f"{name}: {game}, {agents}, {players} players, {games} games, target "
                f"{'-' if target is None else f'{target:.0%}'}"
            )
        return
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.address and args.backend != "ray":
        parser.error("--address needs --backend ray")
    if args.results is None:
        args.results = [results_dir(args.out_dir) / RESULTS_NAME]
    if args.markdown and not args.report:
        parser.error("--markdown goes with --report")
    if not args.report:
        t0 = time.perf_counter()
        play(args.which, args.games, args.workers, args.results, args.backend, args.address)
        print(f"played in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    for line in (markdown if args.markdown else report)(args.which, args.results):
        print(line)


if __name__ == "__main__":
    main()
