"""The server's start-up time and memory with many unfinished games stored.

For each number of games (``--games 10000,100``): a fresh SQLite file gets that many unfinished games of
Kingdom Builder written straight through the store (two people each, 2 to 8 actions played, nobody's
bot to move, no clock), then a server process (``python -m builders.server``) starts on it. Measured:
the time from starting the process to the first answer of ``/healthz``, the server's resident memory
(VmRSS of /proc) once started, and again after the views of ``--touch`` of the games have been asked
for (each then loaded from the database), and the games it holds in memory (``/healthz``). Medians
of ``--runs`` runs; the last line is a JSON report.

    python benchmarks/server_memory.py                          # 10,000 and 100 games, 3 runs
    python benchmarks/server_memory.py --games 300 --runs 1 --touch 30
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

#: distinct games dealt and played (the stored games are copies of them under new ids)
PATTERNS = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _patterns(rnd: random.Random) -> list[tuple[dict, list, list, dict]]:
    """Games dealt from random seeds with 2 to 8 random actions played: (setup, steps, seats, summary)."""
    from builders.core.games import get_game
    from builders.core.view import get_view
    from builders.server.games import token_hash
    from builders.server.store import StoredStep

    out = []
    for _ in range(PATTERNS):
        setup = get_view("kingdom").setup(2, rnd.randrange(2**62), mode="random")
        state = get_game("kingdom").new_state(setup)
        steps = []
        for _ in range(rnd.randint(2, 8)):
            action = rnd.choice(state.legal_actions())
            before = len(state.history)
            seat = state.current_player
            state.apply(action)
            steps.append(
                StoredStep(seat, state.action_to_string(action), [str(c) for c in state.history[before + 1 :]], False)
            )
        seats = [
            {
                "seat": i,
                "type": "human",
                "level": None,
                "name": None,
                "open": False,
                "claimed": True,
                "resigned": False,
                "token_sha": token_hash(secrets.token_urlsafe(24)),
                "account": None,
                "invite_sha": None,
            }
            for i in range(2)
        ]
        summary = {
            "status": "running",
            "version": len(steps),
            "actions": len(steps),
            "turn": state.turn,
            "to_move": state.current_player,
            "result": None,
            "bot_turn": False,
        }
        out.append((setup, steps, seats, {**summary, "format": state.record_format}))
    return out


def store_games(url: str, count: int, seed: int = 1) -> list[str]:
    """Write ``count`` unfinished games into the database ``url`` (schema made first); their ids."""
    from sqlalchemy import insert

    from builders.server.migrate import prepare
    from builders.server.models import ActionRow, GameRow
    from builders.server.store import Store

    rnd = random.Random(seed)
    patterns = _patterns(rnd)
    store = Store(prepare(url), create=False)
    ids, games, actions = [], [], []
    now = time.time()
    for i in range(count):
        setup, steps, seats, summary = patterns[i % len(patterns)]
        game_id = secrets.token_urlsafe(6)
        ids.append(game_id)
        record_format = summary["format"]
        games.append(
            {
                "id": game_id,
                "game": "kingdom",
                "name": None,
                "created": now - count + i,
                "setup": setup,
                "seats": seats,
                "private": False,
                "bots_only": False,
                "creator": None,
                "address": None,
                "options": {"creator": None, "private": False, "seeded": False, "format": record_format},
                "moved": now - 60,
                **{k: v for k, v in summary.items() if k != "format"},
            }
        )
        actions.extend(
            {
                "game_id": game_id,
                "n": n,
                "seat": s.seat,
                "action": s.action,
                "chance": s.chance,
                "by_bot": False,
                "at": now - 60,
                "client_key": None,
            }
            for n, s in enumerate(steps)
        )
    with store.engine.begin() as conn:
        for start in range(0, len(games), 2000):
            conn.execute(insert(GameRow), games[start : start + 2000])
        for start in range(0, len(actions), 5000):
            conn.execute(insert(ActionRow), actions[start : start + 5000])
    store.close()
    return ids


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def one_run(count: int, touch: int, folder: Path, seed: int) -> dict:
    url = f"sqlite:///{folder / f'games-{count}-{seed}.sqlite3'}"
    ids = store_games(url, count, seed)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), BUILDERS_RATES="read=100000000/60")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "builders.server", "--port", str(port), "--db", url, "--quiet", "--bot-workers", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            while True:
                if proc.poll() is not None:
                    raise SystemExit(f"the server exited with {proc.returncode}")
                try:
                    health = http.get("/healthz", timeout=1)
                    if health.status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.02)
            startup = time.perf_counter() - started
            held_at_start = health.json()["games"]
            time.sleep(1.0)  # settled
            rss_start = rss_kib(proc.pid)
            touched = random.Random(seed).sample(ids, min(touch, len(ids)))
            for game_id in touched:
                r = http.get(f"/api/games/{game_id}/state")
                if r.status_code != 200:
                    raise SystemExit(f"game {game_id}: {r.status_code} {r.text}")
            rss_touched = rss_kib(proc.pid)
            held_after = http.get("/healthz").json()["games"]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {
        "startup_s": startup,
        "rss_start_mib": rss_start / 1024,
        "rss_touched_mib": rss_touched / 1024,
        "held_at_start": held_at_start,
        "held_after_touch": held_after,
        "touched": len(touched),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10000,100", help="numbers of stored games, separated by commas")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--touch", type=int, default=1000, help="games whose view is asked for after start")
    args = parser.parse_args(argv)
    try:
        counts = [int(x) for x in args.games.split(",")]
    except ValueError:
        parser.error(f"--games must be whole numbers separated by commas, not {args.games!r}")
    if args.runs < 1 or args.touch < 0 or any(c < 1 for c in counts):
        parser.error("--runs and every number of --games must be 1 or more, --touch 0 or more")
    report: dict = {"runs": args.runs, "touch": args.touch, "games": {}}
    with tempfile.TemporaryDirectory(prefix="builders-memory-") as tmp:
        for count in counts:
            runs = [one_run(count, args.touch, Path(tmp), seed) for seed in range(1, args.runs + 1)]
            median = {key: round(statistics.median(r[key] for r in runs), 3) for key in runs[0]}
            report["games"][str(count)] = median
            print(
                f"{count:>6} games stored: start-up {median['startup_s']:.2f} s, memory {median['rss_start_mib']:.1f} MiB "
                f"after start ({median['held_at_start']:.0f} games in memory), {median['rss_touched_mib']:.1f} MiB "
                f"after {median['touched']:.0f} views ({median['held_after_touch']:.0f} in memory); medians of "
                f"{args.runs} runs",
                flush=True,
            )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
