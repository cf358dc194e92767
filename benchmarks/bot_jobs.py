"""Games against hard bots at once: how long a bot's turn keeps people waiting, and how fast the server
answers people in other games meanwhile, with the bots computed in the server's embedded pool or as
jobs on Redis for ``builders worker`` processes.

Starts a server (``python -m builders.server`` on 127.0.0.1, a temporary SQLite file, no pause before
bot moves) and, with ``--mode redis``, a throwaway ``redis-server`` and ``--workers`` worker processes
(one compute process each). ``--games`` tables each play a game of a scripted person (seat 0, who
answers at once with a random legal action) against a ``--level`` bot (seat 1), Kingdom Builder and
The Builders in turn, a new game when one ends; ``--people-games`` more tables are two scripted people
who think about ``--think`` seconds a move. Reports the wait for a bot's whole turn (from the view
handing the turn to the bot to the view giving it back: every decision of the turn, the queue before
each) p50/p95/max, the bot turns played, and the round trip of people's actions (sending an action to
receiving one's own new view) in the people's games and in the bot games.

    python benchmarks/bot_jobs.py --mode embedded --games 40 --seconds 150
    python benchmarks/bot_jobs.py --mode redis --workers 2 --games 40 --seconds 150

The JSON result line is appended to ``--out`` (default ``bot_jobs.jsonl`` in ``--out-dir``,
``$BUILDERS_RESULTS`` or the user's data dir), with a manifest of the run beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

import httpx  # noqa: E402
import websockets  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
_VERSION = re.compile(r'"version":(\d+)')
_TO_MOVE = re.compile(r'"to_move":(\d+|null)')
CLI = [sys.executable, "-c", "from builders.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{what} did not start")


def env() -> dict[str, str]:
    # every player of the benchmark is on 127.0.0.1: lift the limits per address
    return dict(
        os.environ,
        PYTHONPATH=str(ROOT / "src"),
        BUILDERS_RATES="create=1000000/60,join=1000000/60,action=1000000/60",
        BUILDERS_SOCKETS_PER_ADDRESS="100000",
        BUILDERS_SOCKET_RATE="100000",
        BUILDERS_GAMES_PER_PLAYER="1000000",
        BUILDERS_WAITING_GAMES_PER_PLAYER="100000",
    )


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def server_times(metrics: str) -> tuple[int, float | None, float | None]:
    """From the server's /metrics: the socket actions it answered, the share answered within 50 ms of
    arriving (checked, committed, views sent: the server's own part of the round trip) and the
    histogram bucket holding the 95th percentile (ms)."""
    buckets: list[tuple[float, float]] = []
    for line in metrics.splitlines():
        if line.startswith("builders_action_seconds_bucket{") and 'via="socket"' in line:
            le = re.search(r'le="([^"]+)"', line).group(1)
            buckets.append((float("inf") if le == "+Inf" else float(le), float(line.rsplit(" ", 1)[1])))
    buckets.sort()
    total = buckets[-1][1] if buckets else 0
    if not total:
        return 0, None, None
    within = next((count for le, count in buckets if le >= 0.05), total) / total
    p95 = next(le for le, count in buckets if count >= 0.95 * total)
    return int(total), round(within, 4), None if p95 == float("inf") else p95 * 1000


class Table:
    """Counters of the whole run."""

    def __init__(self) -> None:
        self.bot_waits: list[float] = []
        self.rt_people: list[float] = []
        self.rt_bot_games: list[float] = []
        self.errors: list[str] = []
        self.games = 0


async def play(
    base: str,
    ws_base: str,
    game: str,
    seats: list[dict],
    rnd: random.Random,
    stop_at: float,
    table: Table,
    think: float,
) -> None:
    """One game until it ends or time is up. Seats of type human are scripted here."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/games", json={"game": game, "seats": seats})
        r.raise_for_status()
        created = r.json()
    table.games += 1
    gid = created["id"]
    people = [i for i, s in enumerate(seats) if s["type"] == "human"]
    bots = len(people) < len(seats)
    sockets = {}
    for seat in people:
        ws = await websockets.connect(f"{ws_base}/ws/games/{gid}", max_size=2**24, compression=None, open_timeout=60)
        await ws.send(json.dumps({"type": "hello", "token": created["seats"][seat]["token"]}))
        sockets[seat] = ws
    latest: dict[int, tuple[int, str]] = {}
    try:

        async def state(seat: int, min_version: int, timeout: float = 300) -> tuple[int, str]:
            while seat not in latest or latest[seat][0] < min_version:
                raw = await asyncio.wait_for(sockets[seat].recv(), timeout)
                m = _VERSION.search(raw, 0, 400)
                if raw.startswith('{"type":"state"') and m:
                    latest[seat] = (int(m.group(1)), raw)
                elif '"error"' in raw[:20]:
                    table.errors.append(json.loads(raw)["message"])
            return latest[seat]

        version = 0
        handed: float | None = None  # when the turn went to the bot
        while time.monotonic() < stop_at:
            mover = None
            for seat in people:
                v, raw = await state(seat, version)
                head = _TO_MOVE.search(raw, 0, 400)
                if head is None or head.group(1) == "null":
                    return  # the game is over
                if int(head.group(1)) == seat:
                    mover = seat
                    break
            if mover is None:  # a bot is to move: wait for a view in which a person is
                seat = people[0]
                if handed is None:
                    handed = time.perf_counter()
                while True:
                    remaining = stop_at - time.monotonic()
                    if remaining <= 0:
                        return
                    try:
                        v, raw = await state(seat, latest[seat][0] + 1, timeout=remaining)
                    except asyncio.TimeoutError:
                        return
                    head = _TO_MOVE.search(raw, 0, 400)
                    if head is None or head.group(1) != "1":
                        break
                table.bot_waits.append(time.perf_counter() - handed)
                handed = None
                version = v
                continue
            view = json.loads(latest[mover][1])
            if think:
                await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))
            action = rnd.choice(view["legal"])
            sent = time.perf_counter()
            await sockets[mover].send(json.dumps({"type": "action", "action": action, "version": view["version"]}))
            version, raw = await state(mover, view["version"] + 1)
            now = time.perf_counter()
            (table.rt_bot_games if bots else table.rt_people).append(now - sent)
            head = _TO_MOVE.search(raw, 0, 400)
            if bots and head is not None and head.group(1) == "1":
                handed = now
    finally:
        for ws in sockets.values():
            await ws.close()


async def drive(
    port: int, games: int, people_games: int, level: str, seconds: float, think: float, seed: int
) -> tuple[Table, float]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    rnd = random.Random(seed)
    table = Table()
    start = time.monotonic()
    stop_at = start + seconds

    async def run(i: int, with_bot: bool) -> None:
        game = "kingdom" if i % 2 == 0 else "middle-ages"
        seats = [{"type": "human"}, {"type": "bot", "level": level} if with_bot else {"type": "human"}]
        r = random.Random(rnd.random())
        while time.monotonic() < stop_at:
            try:
                await play(base, ws_base, game, seats, r, stop_at, table, 0.0 if with_bot else think)
            except (OSError, websockets.WebSocketException, httpx.HTTPError, asyncio.TimeoutError) as e:
                table.errors.append(f"{type(e).__name__}: {e}")
                await asyncio.sleep(1)

    await asyncio.gather(*(run(i, True) for i in range(games)), *(run(i, False) for i in range(people_games)))
    return table, time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("embedded", "redis"), default="embedded")
    parser.add_argument("--games", type=int, default=40, help="games against a bot at once (default 40)")
    parser.add_argument("--people-games", type=int, default=10, help="games between two people (default 10)")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds the people of those games think")
    parser.add_argument("--level", default="hard", help="the bots' level (default hard)")
    parser.add_argument("--seconds", type=float, default=150.0, help="how long to play (default 150)")
    parser.add_argument(
        "--bot-workers", type=int, default=None, help="embedded: the server's bot processes (default: one per core)"
    )
    parser.add_argument("--workers", type=int, default=2, help="redis: builders worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    add_out_dir(parser)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="append the JSON result line to this file (default: bot_jobs.jsonl in the out dir)",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 <= args.people_games <= 500 or not 0 < args.seconds <= 1800:
        parser.error("--games must be from 1 to 500, --people-games from 0 to 500, --seconds from 0 to 1800")
    if not 1 <= args.workers <= 16:
        parser.error("--workers must be from 1 to 16")
    args.out = args.out or results_dir(args.out_dir) / "bot_jobs.jsonl"
    write_manifest(
        args.out,
        agents={"bots": args.level, "people": "scripted, random legal actions"},
        seeds={"seed": args.seed},
        games=args.games + args.people_games,
        settings={k: v for k, v in vars(args).items() if k not in ("out", "out_dir")},
    )
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    procs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        redis_url = None
        try:
            if args.mode == "redis":
                exe = shutil.which("redis-server")
                if exe is None:
                    raise SystemExit("redis-server is missing (Debian's redis-server package)")
                rport = free_port()
                procs.append(
                    subprocess.Popen(
                        [
                            exe,
                            "--port",
                            str(rport),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no",
                            "--dir",
                            tmp,
                        ],
                        stdout=open(folder / "redis.log", "ab"),
                        stderr=subprocess.STDOUT,
                    )
                )
                wait_port(rport, procs[-1], "redis-server")
                redis_url = f"redis://127.0.0.1:{rport}/0"
                for i in range(args.workers):
                    procs.append(
                        subprocess.Popen(
                            [*CLI, "worker", "--redis", redis_url, "--processes", "1", "--no-analyses"],
                            env=env(),
                            stdout=open(folder / f"worker{i}.log", "ab"),
                            stderr=subprocess.STDOUT,
                        )
                    )
                import redis as redis_client

                client = redis_client.Redis.from_url(redis_url)
                deadline = time.monotonic() + 60
                while not client.exists("builders:bots:health-check"):
                    if time.monotonic() > deadline:
                        raise SystemExit("the workers did not start")
                    time.sleep(0.1)
                time.sleep(2)  # their compute processes import the bots
            port = free_port()
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "builders.server",
                    "--port",
                    str(port),
                    "--db",
                    f"sqlite:///{folder / 'bench.sqlite3'}",
                    "--quiet",
                    "--bot-delay",
                    "0",
                    *(["--bot-workers", str(args.bot_workers)] if args.bot_workers else []),
                    *(["--redis", redis_url] if redis_url else []),
                ],
                env=env(),
                stdout=subprocess.DEVNULL,
                stderr=open(folder / "server.log", "ab"),
            )
            procs.append(server)
            wait_port(port, server, "the server")
            table, elapsed = asyncio.run(
                drive(port, args.games, args.people_games, args.level, args.seconds, args.think, args.seed)
            )
            inside = server_times(httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=30).text)
        except BaseException:
            for log in sorted(folder.glob("*.log")):
                print(f"{log.name}:", log.read_text()[-2000:], file=sys.stderr)
            raise
        finally:
            for proc in reversed(procs):
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
    ms = lambda v: None if v is None else round(v * 1000, 1)  # noqa: E731
    s = lambda v: None if v is None else round(v, 2)  # noqa: E731
    report = {
        "mode": args.mode,
        "workers": args.workers if args.mode == "redis" else None,
        "bot_workers": args.bot_workers or (os.cpu_count() if args.mode == "embedded" else None),
        "games": args.games,
        "people_games": args.people_games,
        "level": args.level,
        "seconds": round(elapsed, 1),
        "cores": os.cpu_count(),
        "bot_turns": len(table.bot_waits),
        "bot_wait_p50_s": s(pct(table.bot_waits, 50)),
        "bot_wait_p95_s": s(pct(table.bot_waits, 95)),
        "bot_wait_max_s": s(max(table.bot_waits, default=None)),
        "people_rt_p50_ms": ms(pct(table.rt_people, 50)),
        "people_rt_p95_ms": ms(pct(table.rt_people, 95)),
        "people_actions": len(table.rt_people),
        "bot_games_rt_p50_ms": ms(pct(table.rt_bot_games, 50)),
        "bot_games_rt_p95_ms": ms(pct(table.rt_bot_games, 95)),
        "server_socket_actions": inside[0],
        "server_within_50ms": inside[1],
        "server_p95_bucket_ms": inside[2],
        "errors": len(table.errors),
        "load_1min": round(os.getloadavg()[0], 2),
    }
    line = json.dumps(report)
    print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "a") as f:
            f.write(line + "\n")
    print(
        f"{args.mode}: {report['bot_turns']} {args.level} bot turns in {report['seconds']} s; bot turn wait p50 "
        f"{report['bot_wait_p50_s']} s, p95 {report['bot_wait_p95_s']} s, max {report['bot_wait_max_s']} s; "
        f"people's round trip p50 {report['people_rt_p50_ms']} ms, p95 {report['people_rt_p95_ms']} ms "
        f"({report['people_actions']} actions); in the bot games p95 {report['bot_games_rt_p95_ms']} ms; inside the "
        f"server {report['server_within_50ms']} of {report['server_socket_actions']} socket actions within 50 ms; "
        f"{report['errors']} errors"
    )


if __name__ == "__main__":
    main()
