"""The server's CPU per action without the network: the games of ``server_load.py`` (half Kingdom
Builder, half The Builders, two people each, every seat with one socket) played through the game
service (``GameService.act_as``, that is ``Playing.act_as``) in this one process, on a temporary SQLite
file. Each player to move picks a random legal action from its own view, as the load driver does.
Reports this process's CPU time per action while playing (games are opened first, not counted).

``--follow`` lays the games out as ``server_load.py --processes 2`` does: a second service on the same
database holds every game too, with seat 1's socket (the first keeps seat 0's), and takes in each
action as another server process does (:mod:`builders.server.cluster`: the change's message, then the
action played along and the views of its socket); the CPU of both is reported, without Redis and with
SQLite.

    python benchmarks/server_service.py --games 100 --actions 20000
    python benchmarks/server_service.py --games 100 --actions 20000 --follow
    python benchmarks/server_service.py --games 100 --actions 20000 --profile /tmp/hot.prof
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from builders.server.bots import BotRunner  # noqa: E402
from builders.server.cluster import Cluster  # noqa: E402
from builders.server.games import GameService  # noqa: E402
from builders.server.schemas import CreateGame  # noqa: E402
from builders.server.store import Store  # noqa: E402

_TO_MOVE = re.compile(r'"to_move":(\d+|null)')


class Socket:
    """A connected client that keeps the last message it was sent."""

    def __init__(self, seat: int):
        self.seat = seat
        self.lang = "en"
        self.last = ""

    def send(self, text: str) -> None:
        self.last = text


def open_games(service: GameService, games: int, seed: int, follower: GameService | None = None) -> list[tuple]:
    """Create the games, each with a socket per seat (seat 1's on ``follower`` when there is one)."""
    tables = []
    for i in range(games):
        game = "kingdom" if i % 2 == 0 else "middle-ages"
        req = {"game": game, "seats": [{"type": "human"}] * 2, "setup": {"seed": seed * 100_003 + i}}
        created = service.create(CreateGame.model_validate(req))
        live = service.live[created["id"]]
        sockets = [Socket(0), Socket(1)]
        for s in sockets:
            where = follower if follower is not None and s.seat == 1 else service
            there = asyncio.run(where.fetch(live.id)) if where is follower else live
            where.add_client(there, s)
            s.last = where.message_for(there, s)
        tables.append((live, sockets))
    return tables


async def play(
    service: GameService, tables: list[tuple], actions: int, rnd: random.Random, relay: Any = None
) -> tuple[int, float, float]:
    """Play ``actions`` actions over the games, one game after another in turn (a finished game is
    left out); each is chosen from the mover's last message, which is decoded as a client would.
    Returns the actions played and the CPU time spent in ``act_as`` and in ``relay()`` (the follower
    taking the change in; the client's part left out)."""
    done, spent, followed = 0, 0.0, 0.0
    live_tables = list(tables)
    while done < actions and live_tables:
        for table in list(live_tables):
            live, sockets = table
            mover = None
            for s in sockets:
                head = _TO_MOVE.search(s.last, 0, 400)
                if head and head.group(1) == str(s.seat):
                    mover = s
                    break
            if mover is None:
                live_tables.remove(table)
                continue
            view = orjson.loads(mover.last)
            action = rnd.choice(view["legal"])
            started = time.process_time()
            await service.act_as(live, mover.seat, action, view["version"])
            spent += time.process_time() - started
            if relay is not None:
                started = time.process_time()
                relay()
                followed += time.process_time() - started
            done += 1
            if done >= actions:
                break
    return done, spent, followed


def follower_of(service: GameService, store: Store, url: str) -> tuple[GameService, Any]:
    """A second service on the database at ``url`` and ``relay()``, which hands it the changes
    ``service`` published since the last call, as Redis would (the cluster's own messages)."""
    second = GameService(Store(url), BotRunner("inline"), bot_delay=0)
    publisher, listener = Cluster(service, store, lease=False), Cluster(second, second.store, lease=False)
    publisher.outbox = asyncio.Queue()
    service.on_change.append(publisher.changed)

    def relay() -> None:
        outbox = publisher.outbox
        while not outbox.empty():
            listener._received(outbox.get_nowait())

    return second, relay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--follow", action="store_true", help="a second service follows every game (see above)")
    parser.add_argument("--profile", help="write a cProfile (CPU-time clock) of the play to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/games.sqlite3"
        store = Store(url)
        service = GameService(store, BotRunner("inline"), bot_delay=0)
        follower, relay = follower_of(service, store, url) if args.follow else (None, None)
        tables = open_games(service, args.games, args.seed, follower)
        rnd = random.Random(args.seed)
        profile = cProfile.Profile(time.process_time) if args.profile else None
        if profile is not None:
            profile.enable()
        done, cpu, followed = asyncio.run(play(service, tables, args.actions, rnd, relay))
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        store.close()
        if follower is not None:
            follower.store.close()
    print(f"{done} actions, {cpu / done * 1000:.3f} ms of CPU per action", end="")
    if follower is not None:
        print(
            f" (the acting service), {followed / done * 1000:.3f} ms (the follower), {(cpu + followed) / done * 1000:.3f} ms together"
        )
    else:
        print()


if __name__ == "__main__":
    main()
