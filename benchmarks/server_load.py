"""Load on the game server: many bot-free games played at once by scripted WebSocket clients.

The server runs in its own processes (``--processes N`` of ``python -m builders.server``, on
127.0.0.1, on a temporary SQLite file or on ``--db URL``, with ``--redis URL`` fanning changes out
between them); this process drives ``--games`` games at once, two people each, every seat on its
own socket (with several processes the two seats of a game are on different processes). The player
to move picks a random legal action and sends it; the round trip is the time from sending the action
to receiving the player's own new view. All the games are opened first (created, both sockets
connected); then the clock starts. Reports actions per second, the p50/p95/p99 round trip and the
server processes' CPU time per action while playing (read from /proc; this driver's own CPU and, with
``--throwaway``, that of PostgreSQL and Redis are reported apart), and apart from that how long
opening the games took and the server CPU per game opened.

    python benchmarks/server_load.py --games 100 --seconds 20              # as fast as possible
    python benchmarks/server_load.py --games 100 --seconds 30 --think 1    # players take ~1 s a move
    python benchmarks/server_load.py --games 1000 --seconds 60 --think 1 --processes 2 \
        --db postgresql://builders@localhost/bench --redis redis://localhost:6379/0
    python benchmarks/server_load.py --games 1000 --seconds 60 --think 1 --processes 2 --throwaway
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


def start_server(
    db: str, port: int, redis: str | None = None, log: Path | None = None, env_extra: dict[str, str] | None = None
) -> subprocess.Popen:
    """A server process; its messages go to ``log`` (a file: a pipe nobody reads would block it);
    ``env_extra`` adds to its environment."""
    # every player of the benchmark is on 127.0.0.1: lift the limits per address
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT / "src"),
        BUILDERS_RATES="create=1000000/60,join=1000000/60,action=1000000/60,hint=1000000/60,read=1000000/60",
        BUILDERS_SOCKETS_PER_ADDRESS="100000",
        BUILDERS_SOCKET_RATE="100000",
        BUILDERS_GAMES_PER_PLAYER="1000000",
        BUILDERS_WAITING_GAMES_PER_PLAYER="100000",
        **(env_extra or {}),
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "builders.server",
            "--port",
            str(port),
            "--db",
            db,
            "--quiet",
            *(["--redis", redis] if redis else []),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "ab") if log else subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120  # (a loaded machine starts it slowly)
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


def cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far, with its threads (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux); 0 if it is gone."""
    try:
        return sum(cpu_times(pid))
    except (OSError, IndexError):
        return 0.0


#: the PostgreSQL and Redis started with --throwaway
SERVICES: list = []


def service_pids() -> list[int]:
    """The processes of the throwaway PostgreSQL (the postmaster and its children) and Redis."""
    tops = {s.proc.pid for s in SERVICES if s.proc is not None}
    if not tops:
        return []
    found = set(tops)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent in tops:
                found.add(int(entry.name))
    return sorted(found)


class Table:
    """One game between two scripted people, each seat on its own socket."""

    def __init__(self, rnd: random.Random, think: float):
        self.rnd = rnd
        self.think = think
        self.sockets: list = []
        self.latest: list[tuple[int, str] | None] = [None, None]

    async def open(self, base: str, ws_bases: list[str], game: str, errors: list[str]) -> None:
        """Create the game and connect both seats; returns once seat 0 has its first view."""
        self.errors = errors
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            r = await http.post("/api/games", json={"game": game, "seats": [{"type": "human"}, {"type": "human"}]})
            r.raise_for_status()
            created = r.json()
        gid = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        for seat in range(len(tokens)):  # each says hello as soon as it is open (the server waits 10 s)
            ws = await websockets.connect(
                f"{ws_bases[seat % len(ws_bases)]}/ws/games/{gid}", max_size=2**24, compression=None, open_timeout=60
            )
            await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            self.sockets.append(ws)
        await self.state(0, 0)

    async def state(self, seat: int, min_version: int) -> tuple[int, str]:
        """The seat's latest view at ``min_version`` or later, as (version, JSON text): only the
        version is read from each message, so the driver spends little time per message."""
        latest = self.latest
        while latest[seat] is None or latest[seat][0] < min_version:
            raw = await asyncio.wait_for(self.sockets[seat].recv(), 60)
            m = _VERSION.search(raw, 0, 400)
            if raw.startswith('{"type":"state"') and m:
                latest[seat] = (int(m.group(1)), raw)
            elif '"error"' in raw[:20]:
                self.errors.append(json.loads(raw)["message"])
        return latest[seat]

    async def play(self, stop_at: float, times: list[float]) -> int:
        """Play until the game ends or time is up; returns the actions played."""
        played = 0
        version = self.latest[0][0]
        try:
            while time.monotonic() < stop_at:
                # the mover's own view: who moves, what is legal
                for seat in (0, 1):
                    v, raw = await self.state(seat, version)
                    head = _TO_MOVE.search(raw, 0, 400)
                    if head and head.group(1) == str(seat):
                        break
                else:
                    break  # nobody to move: the game is over
                view = json.loads(raw)
                if self.think:
                    await asyncio.sleep(self.rnd.uniform(0.5 * self.think, 1.5 * self.think))
                    if time.monotonic() >= stop_at:
                        break
                action = self.rnd.choice(view["legal"])
                sent = time.perf_counter()
                await self.sockets[seat].send(
                    json.dumps({"type": "action", "action": action, "version": view["version"]})
                )
                version, _ = await self.state(seat, view["version"] + 1)
                times.append(time.perf_counter() - sent)
                played += 1
        finally:
            for ws in self.sockets:
                await ws.close()
        return played


async def drive(ports: list[int], games: int, seconds: float, seed: int, think: float, pids: list[int]) -> dict:
    """Open ``games`` games at once (all of them before the clock starts), then play for ``seconds``:
    the round trips and the server CPU per action are those of the play only; opening the games is
    measured apart."""
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports]
    rnd = random.Random(seed)
    times: list[float] = []
    errors: list[str] = []
    total = 0
    finished = 0
    opened = 0
    all_open = asyncio.Event()
    go = asyncio.Event()
    stop_at = 0.0

    def where(i: int) -> tuple[str, list[str], str]:
        game = "kingdom" if i % 2 == 0 else "middle-ages"
        order = ws_bases[i % len(ws_bases) :] + ws_bases[: i % len(ws_bases)]  # seat 0 on process i % N
        return bases[i % len(bases)], order, game

    async def table(i: int) -> None:
        nonlocal total, finished, opened
        base, order, game = where(i)
        t = Table(random.Random(rnd.random()), think)
        await t.open(base, order, game, errors)
        opened += 1
        if opened == games:
            all_open.set()
        await go.wait()
        while True:  # a finished game is followed by a new one at the same table
            played = await t.play(stop_at, times)  # (not `total += await ...`: that reads total first)
            total += played
            if time.monotonic() >= stop_at:
                return
            finished += 1
            t = Table(random.Random(rnd.random()), think)
            await t.open(base, order, game, errors)

    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.monotonic()
    tasks = [asyncio.create_task(table(i)) for i in range(games)]
    waiter = asyncio.create_task(all_open.wait())
    await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if not all_open.is_set():  # a table failed while opening
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise SystemExit(
            f"opening the games failed: {[t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()][:1]}"
        )
    open_seconds = time.monotonic() - t0
    cpu1 = sum(cpu_seconds(p) for p in pids)
    system1 = sum(cpu_times(p)[1] for p in pids)
    others1 = sum(cpu_seconds(p) for p in service_pids())
    driver1 = time.process_time()
    start = time.monotonic()
    stop_at = start + seconds
    go.set()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - start
    cpu2 = sum(cpu_seconds(p) for p in pids)
    system2 = sum(cpu_times(p)[1] for p in pids)
    driver2 = time.process_time()
    others2 = sum(cpu_seconds(p) for p in service_pids())
    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(p / 100 * len(times)))] * 1000 if times else float("nan")

    out = {
        "games": games,
        "think_s": think,
        "seconds": round(elapsed, 1),
        "actions": total,
        "finished_games": finished,
        "actions_per_s": round(total / elapsed, 1),
        "p50_ms": round(pct(50), 2),
        "p95_ms": round(pct(95), 2),
        "p99_ms": round(pct(99), 2),
        "mean_ms": round(statistics.fmean(times) * 1000, 2) if times else None,
        "errors": len(errors),
        "open_seconds": round(open_seconds, 1),
    }
    if pids:
        out["server_cpu_ms_per_game_opened"] = round((cpu1 - cpu0) / games * 1000, 2)
        if total:
            out["server_cpu_ms_per_action"] = round((cpu2 - cpu1) / total * 1000, 3)
            # the part spent in the kernel (sockets: on loopback the sender also runs the receiving side)
            out["server_system_share"] = round((system2 - system1) / max(cpu2 - cpu1, 1e-9), 2)
    if total:
        # what the others on the same cores spend per action: this driver, and (--throwaway) the
        # PostgreSQL and Redis processes (processes that ended meanwhile are not counted)
        out["driver_cpu_ms_per_action"] = round((driver2 - driver1) / total * 1000, 3)
        if service_pids():
            out["database_and_redis_cpu_ms_per_action"] = round((others2 - others1) / total * 1000, 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games played at once (default 100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (default 20, at most 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player waits before each action (default 0: as fast as possible)",
    )
    parser.add_argument("--port", type=int, default=0, help="port of a server already running (default: start one)")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (default 1)")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--redis", default=None, help="Redis URL for the fan-out between the processes")
    parser.add_argument(
        "--throwaway",
        action="store_true",
        help="start a throwaway PostgreSQL (fsync on) and Redis for the run, in a temporary folder "
        "(Debian's postgresql and redis-server, as the tests: tests/server/services.py)",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 1000 or not 0 < args.seconds <= 300 or not 0 <= args.think <= 60:
        parser.error("--games must be from 1 to 1000, --seconds from 0 to 300 and --think from 0 to 60")
    if not 1 <= args.processes <= 16:
        parser.error("--processes must be from 1 to 16")
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # two sockets a game
    procs: list[subprocess.Popen] = []
    services = SERVICES
    with tempfile.TemporaryDirectory() as tmp:
        ports = [args.port] if args.port else []
        try:
            if args.throwaway:
                sys.path.insert(0, str(ROOT))
                from tests.server.services import Postgres, Redis

                folder = Path(tempfile.mkdtemp(prefix="builders-load-", dir="/tmp"))
                os.chmod(folder, 0o755)  # PostgreSQL runs as nobody when this runs as root
                services.append(Postgres(folder / "pg", fsync=True).start())
                services.append(Redis(folder / "redis").start())
                args.db, args.redis = services[0].url(), services[1].url
            if not ports:
                db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
                for _ in range(args.processes):
                    ports.append(free_port())
                    procs.append(start_server(db, ports[-1], args.redis, Path(tmp) / f"server{len(procs)}.log"))
            report = asyncio.run(drive(ports, args.games, args.seconds, args.seed, args.think, [p.pid for p in procs]))
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
            for service in services:
                service.stop()
            if services:
                shutil.rmtree(services[0].folder.parent, ignore_errors=True)
    report.update(processes=len(ports), db=(args.db or "sqlite").split("://")[0].split("+")[0], redis=bool(args.redis))
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report))
    print(
        f"{report['games']} games at once on {report['processes']} process(es), {report['db']}"
        f"{' + redis' if report['redis'] else ''}, think {report['think_s']} s: {report['actions_per_s']} actions/s; "
        f"round trip p50 {report['p50_ms']} ms, p95 {report['p95_ms']} ms, p99 {report['p99_ms']} ms; "
        f"server CPU {report.get('server_cpu_ms_per_action')} ms per action "
        f"({report['actions']} actions, {report['errors']} errors); the games opened in "
        f"{report['open_seconds']} s, {report.get('server_cpu_ms_per_game_opened')} ms of server CPU each"
    )


if __name__ == "__main__":
    main()
