"""Hints asked at the same moment by the players of many games: how long each waits.

Starts a server (``python -m builders.server`` on 127.0.0.1, a temporary SQLite file) with
``BUILDERS_BOT_WORKERS`` (the worker pool's size) set to each of ``--workers`` in turn, opens
``--games`` games with hints (two people each) and plays ``--rounds`` rounds: in each, the player to move of every game asks for a
hint at the same moment, then plays the hinted action. Reports per worker count the median, p95 and
longest wait for a hint over all the hints asked, and the wall time of the rounds. A hint is the
analysis's move (``BUILDERS_ANALYSIS_ITERATIONS``, 1000 by default), so the games' positions and
hints are the same for each worker count only when ``--seed`` fixes the setups (the game ids, which
seed the hints, differ from run to run).

    python benchmarks/hint_load.py --games 8 --rounds 6 --workers 1,2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from ai_speed import percentile  # noqa: E402
from server_load import free_port, start_server  # noqa: E402


async def drive(port: int, game: str, games: int, rounds: int, seed: int, warm: float = 5.0) -> dict:
    waits: list[float] = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=300) as api:
        opened = []
        for g in range(games):
            r = await api.post(
                "/api/games",
                json={
                    "game": game,
                    "hints": True,
                    "setup": {"seed": seed + g},
                    "seats": [{"type": "human"}, {"type": "human"}],
                },
            )
            r.raise_for_status()
            opened.append(r.json())
        # each game's hints' workers start when it is created: let them start before the clock
        await asyncio.sleep(warm)

        async def one(created: dict) -> None:
            gid = created["id"]
            tokens = [s["token"] for s in created["seats"]]
            state = (await api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]})).json()
            seat = state["to_move"]
            t0 = time.perf_counter()
            r = await api.post(f"/api/games/{gid}/hint", headers={"X-Seat-Token": tokens[seat]})
            waits.append(time.perf_counter() - t0)
            r.raise_for_status()
            r = await api.post(
                f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[seat]}, json={"action": r.json()["action"]}
            )
            r.raise_for_status()

        t0 = time.perf_counter()
        for _ in range(rounds):
            await asyncio.gather(*(one(c) for c in opened))
        wall = time.perf_counter() - t0
    return {
        "hints": len(waits),
        "p50": round(percentile(waits, 0.5), 3),
        "p95": round(percentile(waits, 0.95), 3),
        "max": round(max(waits), 3),
        "wall": round(wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("kingdom", "middle-ages"), default="kingdom")
    parser.add_argument("--games", type=int, default=8, help="games whose players ask at once (default 8)")
    parser.add_argument("--rounds", type=int, default=6, help="hints asked per game (default 6)")
    parser.add_argument("--workers", default="1,2", help="worker pool sizes to compare (default 1,2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warm",
        type=float,
        default=5.0,
        help="seconds left for the hints' workers to start before the clock (default 5)",
    )
    args = parser.parse_args()
    try:
        counts = [int(w) for w in args.workers.split(",")]
    except ValueError:
        parser.error(f"--workers must be whole numbers separated by commas, not {args.workers!r}")
    if not 1 <= args.games <= 200 or not 1 <= args.rounds <= 100 or not all(1 <= w <= 64 for w in counts):
        parser.error("--games must be from 1 to 200, --rounds from 1 to 100 and each worker count from 1 to 64")
    if not 0 <= args.warm <= 60:
        parser.error("--warm must be from 0 to 60 seconds")
    out = {"game": args.game, "games": args.games, "rounds": args.rounds, "cores": os.cpu_count(), "runs": {}}
    for workers in counts:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            proc = start_server(
                f"sqlite:///{Path(tmp) / 'hints.sqlite3'}",
                port,
                log=Path(tmp) / "server.log",
                env_extra={"BUILDERS_BOT_WORKERS": str(workers)},
            )
            try:
                out["runs"][workers] = asyncio.run(
                    drive(port, args.game, args.games, args.rounds, args.seed, args.warm)
                )
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
