"""The parts of the cluster that one process shows: the lease row (taken, renewed, refused while
another live process holds it, taken over once it expired, was given up or its holder died) on a
real SQLite database, and the waits between attempts to reach Redis again."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest
from sqlalchemy import select

from builders.server import cluster
from builders.server.cluster import Backoff, Lease
from builders.server.migrate import prepare
from builders.server.models import LeaseRow
from builders.server.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store(prepare(f"sqlite:///{tmp_path / 'games.sqlite3'}", True), create=False)
    yield s
    s.close()


def row(store, name="machine"):
    with store.engine.connect() as conn:
        found = conn.execute(select(LeaseRow.holder, LeaseRow.expires).where(LeaseRow.name == name)).first()
    return tuple(found) if found else None


def test_a_lease_is_taken_renewed_and_refused_to_others_while_it_lasts(store):
    mine = Lease(store, seconds=30.0)
    assert mine.holder.startswith(f"{mine.host}:{os.getpid()}:") and len(mine.holder.rsplit(":", 1)[1]) == 8
    before = time.time()
    assert mine.hold() is True
    holder, expires = row(store)
    assert holder == mine.holder and before + 30.0 <= expires <= time.time() + 30.0
    assert mine.hold() is True  # renewed
    assert row(store)[1] >= expires
    mine.holder = "another-machine:1:0000abcd"  # a process elsewhere holds it
    store_row = row(store)
    with store.engine.begin() as conn:
        conn.execute(LeaseRow.__table__.update().values(holder=mine.holder))
    theirs = Lease(store, seconds=30.0)
    assert theirs.hold() is False
    assert row(store) == (mine.holder, store_row[1])  # unchanged
    other_name = Lease(store, name="other", seconds=30.0)
    assert other_name.hold() is True and row(store, "other")[0] == other_name.holder


def test_an_expired_or_released_lease_is_taken_over(store):
    first = Lease(store, seconds=30.0)
    first.holder = "another-machine:1:0000abcd"
    assert first.hold() is True
    second = Lease(store, seconds=30.0)
    assert second.hold() is False
    first.release()
    assert row(store) == ("another-machine:1:0000abcd", 0.0)
    assert second.hold() is True and row(store)[0] == second.holder
    second.release()
    gone = Lease(store, seconds=-1.0)  # its lease expires at once
    gone.holder = "another-machine:2:0000abcd"
    assert gone.hold() is True
    assert first.hold() is True and row(store)[0] == first.holder


def test_a_lease_whose_holder_died_on_this_machine_is_taken_over_at_once(store):
    here = Lease(store, seconds=30.0)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        alive = f"{here.host}:{child.pid}:0000abcd"
        assert here._dead_here(alive) is False  # a live process of this machine
        child.send_signal(signal.SIGKILL)
        for _ in range(100):  # killed, not reaped yet: a zombie is dead too
            with open(f"/proc/{child.pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
            time.sleep(0.05)
        assert here._dead_here(alive) is True
        with store.engine.begin() as conn:
            conn.execute(LeaseRow.__table__.insert().values(name="machine", holder=alive, expires=time.time() + 30))
        assert here.hold() is True and row(store)[0] == here.holder
    finally:
        child.wait()
    assert here._dead_here(f"{here.host}:{child.pid}:0000abcd") is True  # reaped: no such process
    assert here._dead_here(f"{here.host}:{os.getpid()}:0000abcd") is True  # this very process
    assert here._dead_here(f"{here.host}:1:0000abcd") is False  # a live process (init)
    assert here._dead_here(f"elsewhere:{child.pid}:0000abcd") is False
    assert here._dead_here(f"{here.host}:notapid:0000abcd") is False
    assert here._dead_here("no-colons") is False


def test_the_waits_to_reach_redis_again_double_up_to_the_most(monkeypatch):
    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    monkeypatch.setattr(cluster.asyncio, "sleep", sleep)
    monkeypatch.setattr(cluster.random, "random", lambda: 1.0)
    backoff = Backoff(0.1, 1.0)

    async def run(times):
        for _ in range(times):
            await backoff.wait()

    asyncio.run(run(6))
    assert waits == pytest.approx([0.15, 0.3, 0.6, 1.2, 1.5, 1.5])
    backoff.reset()
    assert backoff.next == 0.1
    monkeypatch.setattr(cluster.random, "random", lambda: 0.0)
    asyncio.run(run(1))
    assert waits[-1] == pytest.approx(0.1)
    assert (Backoff().first, Backoff().most) == (cluster.RETRY_FIRST, cluster.RETRY_MOST) == (0.1, 1.0)
