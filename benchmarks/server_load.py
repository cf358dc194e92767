"""Load on the game server: many bot-free games played at once by scripted WebSocket clients.

The server runs in its own processes (``--processes N`` of ``python -m builders.server``, on
127.0.0.1, on a temporary SQLite file or on ``--db URL``, with ``--redis URL`` fanning changes out
between them); this process drives ``--games`` games at once, two people each, every seat on its
own socket (with several processes the two seats of a game are on different processes). The player
to move picks a random legal action and sends it; the round trip is the time from sending the action
to receiving the player's own new view. Reports actions per second, the p50/p95/p99 round trip and
the server processes' CPU time per action.

    python benchmarks/server_load.py --games 100 --seconds 20              # as fast as possible
    python benchmarks/server_load.py --games 100 --seconds 30 --think 1    # players take ~1 s a move
    python benchmarks/server_load.py --games 1000 --seconds 60 --think 1 --processes 2 \
        --db postgresql://builders@localhost/bench --redis redis://localhost:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
_VERSION = re.compile(r'"version":(\d+)')
_TO_MOVE = re.compile(r'"to_move":(\d+|null)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int, redis: str | None = None, log: Path | None = None) -> subprocess.Popen:
    """A server process; its messages go to ``log`` (a file: a pipe nobody reads would block it)."""
    # every player of the benchmark is on 127.0.0.1: lift the limits per address
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"),
               BUILDERS_RATES="create=1000000/60,join=1000000/60,action=1000000/60",
               BUILDERS_SOCKETS_PER_ADDRESS="100000", BUILDERS_SOCKET_RATE="100000")
    proc = subprocess.Popen([sys.executable, "-m", "builders.server", "--port", str(port), "--db", db,
                             "--quiet", *(["--redis", redis] if redis else [])],
                            env=env, stdout=subprocess.DEVNULL,
                            stderr=open(log, "ab") if log else subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:] if log else proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play(base: str, ws_bases: list[str], game: str, rnd: random.Random, stop_at: float,
               times: list[float], errors: list[str], think: float) -> int:
    """One game between two scripted people until it ends or time is up; returns actions played."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/games", json={"game": game, "seats": [{"type": "human"}, {"type": "human"}]})
        r.raise_for_status()
        created = r.json()
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    sockets = []
    for seat in range(len(tokens)):  # each says hello as soon as it is open (the server waits 10 s)
        ws = await websockets.connect(f"{ws_bases[seat % len(ws_bases)]}/ws/games/{gid}", max_size=2**24,
                                      compression=None, open_timeout=60)
        await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        sockets.append(ws)
    latest: list[tuple[int, str] | None] = [None, None]
    played = 0
    try:

        async def state(seat: int, min_version: int) -> tuple[int, str]:
            """The seat's latest view at ``min_version`` or later, as (version, JSON text): only the
            version is read from each message, so the driver spends little time per message."""
            while latest[seat] is None or latest[seat][0] < min_version:
                raw = await asyncio.wait_for(sockets[seat].recv(), 30)
                m = _VERSION.search(raw, 0, 400)
                if raw.startswith('{"type":"state"') and m:
                    latest[seat] = (int(m.group(1)), raw)
                elif '"error"' in raw[:20]:
                    errors.append(json.loads(raw)["message"])
            return latest[seat]

        version, _ = await state(0, 0)
        while time.monotonic() < stop_at:
            # the mover's own view: who moves, what is legal
            for seat in (0, 1):
                v, raw = await state(seat, version)
                head = _TO_MOVE.search(raw, 0, 400)
                if head and head.group(1) == str(seat):
                    break
            else:
                break  # nobody to move: the game is over
            view = json.loads(raw)
            if think:
                await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))
            action = rnd.choice(view["legal"])
            sent = time.perf_counter()
            await sockets[seat].send(json.dumps({"type": "action", "action": action, "version": view["version"]}))
            version, _ = await state(seat, view["version"] + 1)
            times.append(time.perf_counter() - sent)
            played += 1
    finally:
        for ws in sockets:
            await ws.close()
    return played


async def drive(ports: list[int], games: int, seconds: float, seed: int, think: float) -> dict:
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports]
    rnd = random.Random(seed)
    times: list[float] = []
    errors: list[str] = []
    start = time.monotonic()
    stop_at = start + seconds
    total = 0
    finished = 0

    async def table(i: int) -> None:
        nonlocal total, finished
        game = "kingdom" if i % 2 == 0 else "middle-ages"
        while time.monotonic() < stop_at:  # a finished game is followed by a new one at the same table
            order = ws_bases[i % len(ws_bases):] + ws_bases[:i % len(ws_bases)]  # seat 0 on process i % N
            played = await play(bases[i % len(bases)], order, game, random.Random(rnd.random()), stop_at, times,
                                errors, think)
            total += played
            if time.monotonic() < stop_at:
                finished += 1

    await asyncio.gather(*(table(i) for i in range(games)))
    elapsed = time.monotonic() - start
    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(p / 100 * len(times)))] * 1000

    return {"games": games, "think_s": think, "seconds": round(elapsed, 1), "actions": total, "finished_games": finished,
            "actions_per_s": round(total / elapsed, 1), "p50_ms": round(pct(50), 2), "p95_ms": round(pct(95), 2),
            "p99_ms": round(pct(99), 2), "mean_ms": round(statistics.fmean(times) * 1000, 2) if times else None,
            "errors": len(errors)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games played at once (default 100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (default 20, at most 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits before each action (default 0: as fast as possible)")
    parser.add_argument("--port", type=int, default=0, help="port of a server already running (default: start one)")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (default 1)")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--redis", default=None, help="Redis URL for the fan-out between the processes")
    args = parser.parse_args()
    if not 1 <= args.games <= 1000 or not 0 < args.seconds <= 300 or not 0 <= args.think <= 60:
        parser.error("--games must be from 1 to 1000, --seconds from 0 to 300 and --think from 0 to 60")
    if not 1 <= args.processes <= 16:
        parser.error("--processes must be from 1 to 16")
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # two sockets a game
    procs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp:
        ports = [args.port] if args.port else []
        try:
            if not ports:
                db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
                for _ in range(args.processes):
                    ports.append(free_port())
                    procs.append(start_server(db, ports[-1], args.redis, Path(tmp) / f"server{len(procs)}.log"))
            cpu_before = [cpu_seconds(p.pid) for p in procs]
            report = asyncio.run(drive(ports, args.games, args.seconds, args.seed, args.think))
            cpu = sum(cpu_seconds(p.pid) for p in procs) - sum(cpu_before)
        except BaseException:
            for i in range(len(procs)):
                print(f"server {i}:", (Path(tmp) / f"server{i}.log").read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            for proc in procs:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    report.update(processes=len(ports), db=(args.db or "sqlite").split("://")[0].split("+")[0],
                  redis=bool(args.redis))
    if procs and report["actions"]:
        report["server_cpu_ms_per_action"] = round(cpu / report["actions"] * 1000, 3)
    print(json.dumps(report))
    print(f"{report['games']} games at once on {report['processes']} process(es), {report['db']}"
          f"{' + redis' if report['redis'] else ''}, think {report['think_s']} s: {report['actions_per_s']} actions/s; "
          f"round trip p50 {report['p50_ms']} ms, p95 {report['p95_ms']} ms, p99 {report['p99_ms']} ms; "
          f"server CPU {report.get('server_cpu_ms_per_action')} ms per action "
          f"({report['actions']} actions, {report['errors']} errors)")


if __name__ == "__main__":
    main()
