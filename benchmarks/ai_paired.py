"""Paired comparisons: a variant of a strength match's first agent against that agent as it is, on
the same games, the way the changes tried in docs/ai.md were measured.

    .venv/bin/python benchmarks/ai_paired.py --match kb-hard-medium --games 128 \\
        --variant hard:clock=count:block=1.5 [--base hard:clock=count] \\
        [--set KB_FRONTIER=0.5 ...] [--others SPEC,...] [--reseed K] [--null K,...] [--cards NAME,...] [--seat K] \\
        [--workers 2] [--out-dir DIR | --dir DIR]

Both arms play games 0 to ``--games`` - 1 of the match (``benchmarks/ai_strength.py``: the same
setups, seats and agent seeds), the first agent being ``--base`` in one arm and ``--variant`` in the
other; the other seats are the match's (or ``--others``, comma-separated agents). ``--set NAME=VALUE``
sets one of the settings of the game's evaluation (its AI kit's ``weights``: ``KingdomSettings``,
``MiddleAgesSettings``; ``TILE_ACTIONS`` of Kingdom Builder's planner among them) for the variant's
first agent only: the settings, as a JSON object, are given to that agent when it is made and
written into the arm's manifest; the other agents play with the defaults. The base defaults to the match's first agent
counting positions (``clock=count``) instead of CPU time, so that both arms play each game the same
until the first decision the change alters, and a game is the same on every run and machine.

``--reseed K`` gives the variant's first agent other seeds (its hidden cards drawn, its games played
out, its ties broken by other draws): with no other change it is a *null arm*, the same bot on the
same games with other luck of its own. Its difference from the base is what chance alone gives a
comparison (a base kept because it did well on these games did better there than the bot usually
does), so a variant is judged against it as well as against the base. ``--null K,...`` plays those
null arms of the base too (each once, kept in its file like any arm) and adds a line comparing the
variant, game by game, with the mean of the base and its null arms: the same bot's luck averaged.

``--seat K`` plays and compares only the games in which the first agent sits at seat K (0: it moves
first): a change that alters only how that seat plays leaves the others as the base played them.

``--cards NAME,...`` (Kingdom Builder) plays and compares only those of the games whose three cards
hold all of these: a change that touches only how a card is valued plays the other games move for
move as the base does, so they add nothing to the difference but their time.

Each arm's games are appended to a file of their own in ``--dir`` (default: ``paired`` in
``--out-dir``, ``$BUILDERS_RESULTS`` or the user's data dir, see ``benchmarks/manifest.py``; named by
the match, the agent and the changes, with a manifest of the runs beside it), so an arm already played (the base, usually) is not played again, and a run stopped
part-way continues. The report compares the games both arms hold: each arm's wins (a draw a half) and
mean lead (the first agent's score less the best other seat's), the mean difference of the leads game
by game with its standard error, and the number of games that ended with other scores.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ai_strength import MATCHES, SEED, first_leads  # noqa: E402
from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai.agents import AgentSpec, parse_agent, parse_agents  # noqa: E402
from builders.ai.kit import kit  # noqa: E402
from builders.ai.tournament import derive_seed, local_games, rotations, seating  # noqa: E402
from builders.core.games import get_game  # noqa: E402
from builders.kingdom.data import CARDS as KB_CARDS  # noqa: E402


def parse_set(text: str, game: str) -> tuple[str, float | int | bool]:
    """``NAME=VALUE`` -> (name, value): a setting of ``game``'s evaluation (its kit's ``weights``),
    the value of the default's own type; ValueError with the reason for anything else."""
    name, eq, raw = text.strip().partition("=")
    name, raw = name.strip(), raw.strip()
    if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or not raw:
        raise ValueError(f"--set {text!r}: write NAME=VALUE, e.g. KB_FRONTIER=0.5")
    weights = kit(game).weights
    if weights is None:
        raise ValueError(f"--set {text!r}: {game}'s evaluation has no settings")
    defaults = vars(weights())
    if name not in defaults:
        try:
            weights({name: 0})  # names the settings there are
        except ValueError as e:
            raise ValueError(f"--set {text!r}: {e}") from None
    old = defaults[name]
    if isinstance(old, bool):
        if raw not in ("true", "false"):
            raise ValueError(f"--set {text!r}: {raw!r} is not true or false")
        return name, raw == "true"
    try:
        value: float | int = int(raw) if isinstance(old, int) else float(raw)
    except ValueError:
        raise ValueError(
            f"--set {text!r}: {raw!r} is not {'a whole number' if isinstance(old, int) else 'a number'}"
        ) from None
    if not math.isfinite(value):
        raise ValueError(f"--set {text!r}: {raw!r} is not a finite number")
    try:
        weights({name: value})
    except ValueError as e:
        raise ValueError(f"--set {text!r}: {e}") from None
    return name, value


def setup_of(game, players: int, g: int, rotations_: int) -> dict:
    """The setup of game ``g`` of a match (each setup is played once in each of ``rotations_`` seatings)."""
    return game.random_setup(players, derive_seed("setup", SEED, g // rotations_))


def play(task: dict) -> dict:
    """Game ``task["index"]`` of the match with the first agent ``task["first"]`` (with the settings
    ``task["settings"]``, a JSON object): its seats, scores, returns and gold per card."""
    game = get_game(task["game"])
    specs = [parse_agent(task["first"])] + [AgentSpec(k, dict(o)) for k, o in task["others"]]
    g = task["index"]
    rotation = g % task["rotations"]
    state = game.new_state(setup_of(game, task["players"], g, task["rotations"]))
    seats = seating(len(specs), task["players"], rotation)
    reseed = task.get("reseed", 0)
    settings = task.get("settings") or None
    agents = [
        specs[a].make(
            derive_seed("agent", SEED, g, seat, "reseed", reseed)
            if reseed and a == 0
            else derive_seed("agent", SEED, g, seat),
            task["game"],
            settings if a == 0 else None,
        )
        for seat, a in enumerate(seats)
    ]
    while not state.is_over():
        state.apply(agents[state.current_player].act(state))
    result = state.result()
    return {
        "index": g,
        "seats": seats,
        "scores": list(result.scores),
        "returns": result.returns(),
        "breakdown": [dict(b) for b in result.breakdown],
    }


def counted(spec: str) -> str:
    """The agent ``spec`` counting positions instead of time, if it has a clock."""
    agent = parse_agent(spec)
    options = dict(agent.options)
    if "clock" in options:
        options["clock"] = "count"
    return ":".join([agent.kind] + [f"{k}={v}" for k, v in options.items()])


def arm_file(
    directory: Path, match: str, spec: str, settings: dict, others: str | None = None, reseed: int = 0
) -> Path:
    label = (
        spec
        + "".join(f"+{n}={json.dumps(v)}" for n, v in settings.items())
        + (f"+reseed={reseed}" if reseed else "")
        + (f"__vs_{others}" if others else "")
    )
    return directory / f"{match}__{re.sub(r'[^A-Za-z0-9.=+_-]', '_', label)}.jsonl"


def load(path: Path) -> dict[int, dict]:
    out: dict[int, dict] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec["index"]] = rec
    return out


def with_cards(match: str, games: int, rotations_: int, cards: list[str]) -> list[int]:
    """Of games 0 to ``games`` - 1 of ``match``, those whose setup holds all of ``cards``."""
    game, players = get_game(MATCHES[match][0]), MATCHES[match][2]
    return [g for g in range(games) if all(c in setup_of(game, players, g, rotations_)["cards"] for c in cards)]


def run_arm(
    match: str,
    games: int | list[int],
    spec: str,
    settings: dict,
    path: Path,
    workers: int,
    others_spec: str | None = None,
    reseed: int = 0,
) -> int:
    """Play the games of the arm missing from ``path``, appending each as it ends; returns how many."""
    game, agents, players, _, _ = MATCHES[match]
    others = [
        (s.kind, dict(s.options)) for s in (parse_agents(others_spec) if others_spec else parse_agents(agents)[1:])
    ]
    r = rotations(len(others) + 1, players)
    done = load(path)
    todo = [
        {
            "game": game,
            "players": players,
            "rotations": r,
            "index": g,
            "first": spec,
            "others": others,
            "settings": settings,
            "reseed": reseed,
        }
        for g in (range(games) if isinstance(games, int) else games)
        if g not in done
    ]
    if not todo:
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    write_manifest(
        path,
        agents={"first": spec, "first_settings": settings, "others": others},
        games=len(todo),
        seeds={"match": SEED, "reseed": reseed},
        settings={"match": match, "workers": workers},
    )
    with path.open("a") as out:

        def save(rec: dict) -> None:
            out.write(json.dumps(rec) + "\n")
            out.flush()

        for _, record in local_games(todo, workers, play):
            save(record)
    return len(todo)


def compare(base: dict[int, dict], variant: dict[int, dict]) -> dict:
    """The games both arms hold, compared: wins, mean leads, the paired difference and its error."""
    idx = sorted(set(base) & set(variant))
    if not idx:
        return {"games": 0}
    lb = first_leads([base[i] for i in idx])
    lv = first_leads([variant[i] for i in idx])
    d = [v - b for b, v in zip(lb, lv)]
    win = lambda x: 1.0 if x > 0 else 0.5 if x == 0 else 0.0  # noqa: E731
    return {
        "games": len(idx),
        "base_wins": sum(map(win, lb)),
        "variant_wins": sum(map(win, lv)),
        "base_lead": statistics.fmean(lb),
        "variant_lead": statistics.fmean(lv),
        "difference": statistics.fmean(d),
        "error": statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan"),
        "changed": sum(1 for i in idx if base[i]["scores"] != variant[i]["scores"]),
    }


def compare_runs(runs: list[dict[int, dict]], variant: dict[int, dict]) -> dict:
    """The games all of ``runs`` (the base and its null arms) and the variant hold: the runs' mean
    wins and lead, and the variant's lead less the runs' mean lead game by game, with its error."""
    idx = sorted(set(variant).intersection(*runs))
    if not idx:
        return {"games": 0}
    leads = [first_leads([run[i] for i in idx]) for run in runs]
    mean = [statistics.fmean(x) for x in zip(*leads)]
    d = [v - m for m, v in zip(mean, first_leads([variant[i] for i in idx]))]
    win = lambda x: 1.0 if x > 0 else 0.5 if x == 0 else 0.0  # noqa: E731
    return {
        "games": len(idx),
        "runs_wins": statistics.fmean(sum(map(win, lead)) for lead in leads),
        "runs_lead": statistics.fmean(mean),
        "difference": statistics.fmean(d),
        "error": statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--match", required=True, choices=list(MATCHES))
    ap.add_argument("--games", type=int, default=128, help="games 0 to N-1 of the match (default 128)")
    ap.add_argument("--base", default=None, help="the first agent as it is (default: the match's, clock=count)")
    ap.add_argument("--variant", default=None, help="the first agent changed (default: the base)")
    ap.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the game's evaluation for the variant's first agent (repeatable)",
    )
    ap.add_argument("--others", default=None, help="the other agents, comma-separated (default: the match's)")
    ap.add_argument(
        "--reseed",
        type=int,
        default=0,
        metavar="K",
        help="other seeds for the variant's first agent (without another change: a null arm)",
    )
    ap.add_argument(
        "--null",
        default="",
        metavar="K,...",
        help="null arms of the base (its first agent reseeded with each K) to compare the variant with too",
    )
    ap.add_argument(
        "--cards", default="", metavar="NAME,...", help="Kingdom Builder: only the games whose cards hold all of these"
    )
    ap.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="K",
        help="only the games in which the first agent sits at seat K (0: it moves first)",
    )
    ap.add_argument("--workers", type=int, default=2)
    add_out_dir(ap)
    ap.add_argument("--dir", type=Path, default=None, help="folder of the arms (default: paired in the out dir)")
    args = ap.parse_args(argv)
    game, agents, players, _, _ = MATCHES[args.match]
    try:
        others = parse_agents(args.others) if args.others else parse_agents(agents)[1:]
        for other in others:
            other.check(game)
        if len(others) + 1 > players:
            raise ValueError(f"{len(others) + 1} agents do not fit in {players} seats")
        r = rotations(len(others) + 1, players)
        if args.games < r or args.games % r:
            raise ValueError(f"--games must be a positive multiple of {r} (the seat rotations), not {args.games}")
        if args.workers < 1:
            raise ValueError(f"--workers must be at least 1, not {args.workers}")
        base = args.base or counted(agents.split(",")[0])
        variant = args.variant or base
        for spec in (base, variant):
            parse_agent(spec).check(game)
        sets = dict(parse_set(s, game) for s in args.sets)
        if sets:
            parse_agent(variant).make(0, game, sets)  # ValueError if the variant takes no settings
        if args.reseed < 0:
            raise ValueError(f"--reseed must be 0 (the base's seeds) or more, not {args.reseed}")
        try:
            nulls = [int(k) for k in args.null.split(",")] if args.null else []
        except ValueError:
            raise ValueError(
                f"--null takes whole numbers of at least 1 separated by commas, not {args.null!r}"
            ) from None
        if any(k < 1 for k in nulls):
            raise ValueError(f"--null takes whole numbers of at least 1 separated by commas, not {args.null!r}")
        cards = [c.strip() for c in args.cards.split(",") if c.strip()]
        if cards and game != "kingdom":
            raise ValueError("--cards is for Kingdom Builder matches only")
        for c in cards:
            if c not in KB_CARDS:
                raise ValueError(f"--cards: unknown card {c!r} (choose from {', '.join(KB_CARDS)})")
        if args.seat is not None and not 0 <= args.seat < players:
            raise ValueError(f"--seat must be from 0 to {players - 1} in {args.match}, not {args.seat}")
        if variant == base and not sets and not args.reseed:
            raise ValueError("the variant is the base: give --variant, --set or --reseed")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.dir is None:
        args.dir = results_dir(args.out_dir) / "paired"
    paths = (
        arm_file(args.dir, args.match, base, {}, args.others),
        arm_file(args.dir, args.match, variant, sets, args.others, args.reseed),
    )
    chosen: int | list[int] = with_cards(args.match, args.games, r, cards) if cards else args.games
    if args.seat is not None:  # rotation g % r seats the first agent at seat g % r
        chosen = [g for g in (range(chosen) if isinstance(chosen, int) else chosen) if g % r == args.seat]
    for (spec, s, k), path in zip(((base, {}, 0), (variant, sets, args.reseed)), paths):
        n = run_arm(args.match, chosen, spec, s, path, args.workers, args.others, k)
        print(f"{path.name}: {n} games played", file=sys.stderr)
    null_paths = [arm_file(args.dir, args.match, base, {}, args.others, k) for k in nulls]
    for k, path in zip(nulls, null_paths):
        n = run_arm(args.match, chosen, base, {}, path, args.workers, args.others, k)
        print(f"{path.name}: {n} games played", file=sys.stderr)
    keep = set(range(args.games) if isinstance(chosen, int) else chosen)
    base_games, variant_games, *null_games = (
        {i: rec for i, rec in load(path).items() if i in keep} for path in (*paths, *null_paths)
    )
    c = compare(base_games, variant_games)
    against = f" against {args.others}" if args.others else ""
    which = (f" with {' and '.join(cards)}" if cards else "") + (
        f" at seat {args.seat}" if args.seat is not None else ""
    )
    print(
        f"{args.match}{against}, games 0-{args.games - 1}{which}: base {base}: {c['base_wins']:g} wins, lead {c['base_lead']:+.2f}; "
        f"variant {variant}{''.join(f' {n}={json.dumps(v)}' for n, v in sets.items())}{f' reseed {args.reseed}' if args.reseed else ''}: "
        f"{c['variant_wins']:g} wins, "
        f"lead {c['variant_lead']:+.2f}; difference {c['difference']:+.2f} +- {c['error']:.2f} a game "
        f"({c['changed']} of {c['games']} games ended with other scores)"
    )
    if nulls:
        m = compare_runs([base_games, *null_games], variant_games)
        print(
            f"against the mean of the base and its null arm{'s' if len(nulls) > 1 else ''} "
            f"{', '.join(map(str, nulls))} ({m['runs_wins']:g} wins, lead {m['runs_lead']:+.2f}): "
            f"difference {m['difference']:+.2f} +- {m['error']:.2f} a game over {m['games']} games"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
