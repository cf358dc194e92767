"""The server's CPU per action without the network: the games of ``server_load.py`` (half Kingdom
Builder, half The Builders, two people each, every seat with one socket) played through the game
service (``GameService.act_as``, that is ``Playing.act_as``) in this one process, on a temporary SQLite
file. Each player to move picks a random legal action from its own view, as the load driver does.
Reports this process's CPU time per action while playing (games are opened first, not counted).

    python benchmarks/server_service.py --games 100 --actions 20000
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

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from builders.server.bots import BotRunner  # noqa: E402
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


def open_games(service: GameService, games: int, seed: int) -> list[tuple]:
    tables = []
    for i in range(games):
        game = "kingdom" if i % 2 == 0 else "middle-ages"
        req = {"game": game, "seats": [{"type": "human"}] * 2, "setup": {"seed": seed * 100_003 + i}}
        created = service.create(CreateGame.model_validate(req))
        live = service.live[created["id"]]
        sockets = [Socket(0), Socket(1)]
        for s in sockets:
            service.add_client(live, s)
            s.last = service.message_for(live, s)
        tables.append((live, sockets))
    return tables


async def play(service: GameService, tables: list[tuple], actions: int, rnd: random.Random) -> tuple[int, float]:
    """Play ``actions`` actions over the games, one game after another in turn (a finished game is
    left out); each is chosen from the mover's last message, which is decoded as a client would.
    Returns the actions played and the CPU time spent in ``act_as`` (the client's part left out)."""
    done, spent = 0, 0.0
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
            done += 1
            if done >= actions:
                break
    return done, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write a cProfile (CPU-time clock) of the play to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/games.sqlite3")
        service = GameService(store, BotRunner("inline"), bot_delay=0)
        tables = open_games(service, args.games, args.seed)
        rnd = random.Random(args.seed)
        profile = cProfile.Profile(time.process_time) if args.profile else None
        if profile is not None:
            profile.enable()
        done, cpu = asyncio.run(play(service, tables, args.actions, rnd))
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        store.close()
    print(f"{done} actions, {cpu / done * 1000:.3f} ms of CPU per action")


if __name__ == "__main__":
    main()
