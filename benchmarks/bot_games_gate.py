"""How long a person waits for a hard bot's turn while games of hard bots alone run on the server.

Starts ``builders serve`` (its defaults: a pool of bot processes, one per core, a 0.3 s pause before
each bot action) on 127.0.0.1 and a temporary SQLite file, with ``BUILDERS_BOT_GAMES_AT_ONCE=--at-once``
(the bot turns of games without a person computed at once) and the per-player cap of games of bots
alone raised to ``--bots-alone``. It creates ``--bots-alone`` Kingdom Builder games of hard against
hard, then one of a scripted person (seat 0, who answers at once with a random legal action) against
hard, and reports, for ``--turns`` of the person's turns, the wait from the person's last action to
the turn coming back (the bot's whole turn: its decisions, their queue, the pauses).

    python benchmarks/bot_games_gate.py --bots-alone 6 --at-once 1
    python benchmarks/bot_games_gate.py --bots-alone 6 --at-once 6
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(bots_alone: int, at_once: int, turns: int, seed: int) -> list[float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = dict(
            os.environ,
            BUILDERS_BOT_GAMES_PER_PLAYER=str(max(bots_alone, 2)),
            BUILDERS_BOT_GAMES=str(max(bots_alone, 20)),
            BUILDERS_BOT_GAMES_AT_ONCE=str(at_once),
            BUILDERS_RATES="read=1000000/60",
        )  # the person's page polls: more than 600 GETs a minute
        server = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from builders.cli import main; main()",
                "serve",
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "games.sqlite3"),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with httpx.Client(base_url=url, timeout=60) as api:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        api.get("/healthz")
                        break
                    except httpx.TransportError:
                        if time.monotonic() > deadline:
                            raise SystemExit("error: the server did not start") from None
                        time.sleep(0.2)
                return play(api, bots_alone, turns, random.Random(seed))
        finally:
            server.terminate()
            server.wait(timeout=30)


def play(api: httpx.Client, bots_alone: int, turns: int, rng: random.Random) -> list[float]:
    for _ in range(bots_alone):
        r = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "hard"}] * 2})
        r.raise_for_status()
    made = api.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot", "level": "hard"}]}
    ).json()
    gid, token = made["id"], {"X-Seat-Token": made["seats"][0]["token"]}
    waits: list[float] = []
    for _ in range(turns):
        while True:
            view = api.get(f"/api/games/{gid}/state", headers=token).json()
            if view["to_move"] != 0 or not view["legal"]:
                break
            api.post(f"/api/games/{gid}/actions", json={"action": rng.choice(view["legal"])}, headers=token)
        start = time.monotonic()
        while (summary := api.get(f"/api/games/{gid}").json())["to_move"] != 0 and summary["status"] != "finished":
            time.sleep(0.05)
        if summary["status"] == "finished":
            break
        waits.append(time.monotonic() - start)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots-alone", type=int, default=6, help="games of hard bots alone beside the person's")
    parser.add_argument("--at-once", type=int, default=1, help="BUILDERS_BOT_GAMES_AT_ONCE of the server")
    parser.add_argument("--turns", type=int, default=6, help="the person's turns measured")
    parser.add_argument("--seed", type=int, default=1, help="the person's random choices")
    args = parser.parse_args()
    if args.bots_alone < 0 or not 1 <= args.at_once <= 64 or args.turns < 1:
        parser.error("--bots-alone must be 0 or more, --at-once from 1 to 64, --turns 1 or more")
    waits = run(args.bots_alone, args.at_once, args.turns, args.seed)
    if not waits:
        raise SystemExit("error: the person's game ended before a bot turn was measured")
    print(
        f"{args.bots_alone} games of bots alone, {args.at_once} at once: the person's bot turn waits "
        f"{' '.join(f'{w:.2f}' for w in waits)} s; median {statistics.median(waits):.2f} s, "
        f"max {max(waits):.2f} s"
    )


if __name__ == "__main__":
    main()
