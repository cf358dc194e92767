"""The store on its own (SQLite): every write is guarded by the version it was made from, a refused
write says why and leaves the database as it was, and the reads return what was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from builders.server.store import Stale, Store, StoredStep, database_url, typed


def summary(version, actions, status="running", turn=1, to_move=0, result=None):
    return {
        "status": status,
        "version": version,
        "actions": actions,
        "turn": turn,
        "to_move": to_move,
        "result": result,
    }


def row(game_id, created, status="running"):
    return {
        "id": game_id,
        "game": "middle-ages",
        "name": None,
        "created": created,
        "setup": {"players": 2},
        "seats": [{"seat": 0, "type": "human"}, {"seat": 1, "type": "human"}],
        **summary(0, 0, status=status),
    }


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield s
    s.close()


def test_database_urls(tmp_path):
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url(str(tmp_path / "g.db")) == f"sqlite:///{tmp_path / 'g.db'}"
    assert database_url("~/g.db") == f"sqlite:///{Path('~/g.db').expanduser()}"


def test_actions_are_written_only_at_the_version_they_were_made_from(store):
    store.create(row("g1", 1.0))
    assert store.version("g1") == 0 and store.version("nope") is None
    a0 = StoredStep(0, "coins 1", [], False, "k0")
    store.append("g1", 0, a0, summary(1, 1), version=0)
    assert store.version("g1") == 1 and store.steps("g1") == [a0]
    with pytest.raises(Stale) as e:
        store.append("g1", 1, StoredStep(0, "coins 1", [], False), summary(2, 2), version=0)
    assert str(e.value) == "the game is no longer at version 0"
    with pytest.raises(Stale) as e:  # the version matches but action 0 is there already
        store.append("g1", 0, StoredStep(0, "coins 2", [], False), summary(2, 2), version=1)
    assert str(e.value) == "action 0 is already stored"
    # neither refusal wrote anything, not even the summary
    assert store.version("g1") == 1 and store.steps("g1") == [a0]
    assert store.game("g1")["actions"] == 1
    a1 = StoredStep(1, "open B02", ["B17"], True)
    store.append("g1", 1, a1, summary(2, 2, turn=2, to_move=1), version=1)
    assert store.steps("g1") == [a0, a1]
    game = store.game("g1")
    assert (game["version"], game["actions"], game["turn"], game["to_move"]) == (2, 2, 2, 1)
    assert store.stats == {"append": 2, "undo": 0, "update": 0, "stale": 2}
    assert store.counts() == {"games": 1, "actions": 2}


def test_only_the_last_action_is_taken_back(store):
    store.create(row("g1", 1.0))
    a0, a1 = StoredStep(0, "coins 1", [], False), StoredStep(0, "coins 2", [], False)
    store.append("g1", 0, a0, summary(1, 1), version=0)
    store.append("g1", 1, a1, summary(2, 2), version=1)
    refusals = [
        ((0, a0, summary(3, 1), 2), "action 0 is not the last one"),
        ((1, a0, summary(3, 1), 2), "action 1 is not 'coins 1' of seat 0"),
        ((1, StoredStep(1, "coins 2", [], False), summary(3, 1), 2), "action 1 is not 'coins 2' of seat 1"),
        ((1, a1, summary(3, 1), 1), "the game is no longer at version 1"),
    ]
    for args, message in refusals:
        with pytest.raises(Stale) as e:
            store.pop("g1", *args)
        assert str(e.value) == message
        assert store.steps("g1") == [a0, a1] and store.version("g1") == 2
    store.pop("g1", 1, a1, summary(3, 1), version=2)
    assert store.steps("g1") == [a0] and store.version("g1") == 3 and store.game("g1")["actions"] == 1
    assert store.stats == {"append": 2, "undo": 1, "update": 0, "stale": 4}


def test_updates_listing_and_versions(store):
    for i, status in enumerate(["running", "finished", "open", "running"]):
        store.create(row(f"g{i}", float(10 - i), status=status))
    store.update("g0", {"name": "first"})
    assert store.version("g0") == 0 and store.game("g0")["name"] == "first"
    store.update("g0", {"name": "again"}, version=0)
    assert store.version("g0") == 1 and store.game("g0")["name"] == "again"
    with pytest.raises(Stale) as e:
        store.update("g0", {"name": "late"}, version=0)
    assert str(e.value) == "the game is no longer at version 0"
    assert store.game("g0")["name"] == "again" and store.version("g0") == 1
    assert store.stats["update"] == 2 and store.stats["stale"] == 1
    # newest first (g0 was made last); a status filter; a limit
    assert [g["id"] for g in store.list_games(None, 10)] == ["g0", "g1", "g2", "g3"]
    assert [g["id"] for g in store.list_games("running", 10)] == ["g0", "g3"]
    assert [g["id"] for g in store.list_games(None, 2)] == ["g0", "g1"]
    # oldest first, finished games left out
    assert store.unfinished_ids() == ["g3", "g2", "g0"]
    assert store.versions(["g1", "g0", "nope"]) == {"g0": 1, "g1": 0}
    assert store.game("nope") is None and store.steps("nope") == []
    store.ping()


@pytest.fixture(params=["sqlite", "postgresql"])
def both(request, tmp_path):
    """A store on SQLite, and one on a throwaway PostgreSQL (where an action is a single statement)."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    s = Store(url)
    yield s
    s.close()


def test_an_action_and_the_clock_moved_with_it_are_stored_together_or_not_at_all(both):
    store = both
    store.create({**row("g1", 1.0), "options": {"creator": None}})
    clock = {
        "kind": "live",
        "total": 60,
        "increment": 5,
        "left": [63.5, 60.0],
        "running": 1,
        "since": 10.0,
        "flagged": [],
    }
    a0 = StoredStep(0, "coins 1", [], False, "k0")
    store.append("g1", 0, a0, {**summary(1, 1, to_move=1), "options": {"creator": None, "clock": clock}}, version=0)
    game = store.game("g1")
    assert (game["version"], game["actions"], game["to_move"]) == (1, 1, 1)
    assert game["options"] == {"creator": None, "clock": clock}
    later = {**clock, "running": 0, "left": [63.5, 58.0], "since": 12.0}
    refused = [
        (1, StoredStep(1, "coins 2", [], False), 0),  # made from version 0: the game is at 1
        (0, StoredStep(1, "coins 2", [], False), 1),  # action 0 is stored already
        (1, StoredStep(1, "coins 2", [], False, "k0"), 1),  # its key is action 0's
    ]
    for n, step, version in refused:
        with pytest.raises(Stale, match="no longer at version|already stored"):
            store.append("g1", n, step, {**summary(2, 2), "options": {"creator": None, "clock": later}}, version)
        # nothing of the refused write stayed: not the summary, not the clock
        game = store.game("g1")
        assert (game["version"], game["actions"], game["to_move"]) == (1, 1, 1)
        assert game["options"]["clock"] == clock and store.steps("g1") == [a0]
    a1 = StoredStep(1, "open B02", ["B17", "B03"], False)
    store.append("g1", 1, a1, summary(2, 2, status="finished", to_move=None, result={"ranks": [1, 0]}), version=1)
    game = store.game("g1")
    assert (game["version"], game["status"], game["result"]) == (2, "finished", {"ranks": [1, 0]})
    assert game["options"]["clock"] == clock  # an action that does not move the clock leaves it
    assert store.steps("g1") == [a0, a1] and store.snapshot("g1") == (typed(game), [a0, a1])
    assert store.stats == {"append": 2, "undo": 0, "update": 0, "stale": 3}


@pytest.mark.parametrize("wait", [True, False])
def test_the_status_and_the_bot_turn_are_stored_whether_they_change_or_not(store, wait):
    """An append that keeps the status and the bot turn leaves their columns (and indexes) alone; one
    that changes them stores the new values; a stale one stores nothing either way."""
    store.create(row("g1", 1.0))
    steps = [  # (status, bot_turn) after each action
        ("running", False),
        ("running", False),
        ("running", True),
        ("running", True),
        ("running", False),
        ("finished", False),
    ]
    for n, (status, bot) in enumerate(steps):
        s = {**summary(n + 1, n + 1, status=status), "bot_turn": bot}
        store.append("g1", n, StoredStep(0, f"coins {n}", [], False), s, version=n, wait=wait)
        game = store.game("g1")
        assert (game["status"], game["bot_turn"], game["version"], game["actions"]) == (status, bot, n + 1, n + 1)
        # the same action again from the old version: refused, nothing changed
        with pytest.raises(Stale):
            store.append("g1", n + 1, StoredStep(0, "end", [], False), {**s, "bot_turn": not bot}, version=n, wait=wait)
        game = store.game("g1")
        assert (game["status"], game["bot_turn"], game["version"]) == (status, bot, n + 1)
        # the indexed lookups see the stored values
        assert store.attention_ids(clocks=False) == (["g1"] if bot and status != "finished" else [])
        assert store.unfinished_ids() == ([] if status == "finished" else ["g1"])
    assert store.stats["append"] == 6 and store.stats["stale"] == 6
