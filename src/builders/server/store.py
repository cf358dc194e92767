"""Persistence: games and their accepted actions in a SQL database (SQLite by default).

Every write is one transaction, committed before the caller goes on: the game service tells nobody
of an action before :meth:`Store.append` has returned.

Several server processes may share one database. Each write of a game names the version it was made
from: the game's row is updated only if it is still at that version (``UPDATE ... WHERE version = v``),
in the same transaction as the insert of action ``n`` (whose key ``(game_id, n)`` is unique) or the
delete of exactly the action meant (number, seat and text); on PostgreSQL the update and the insert
of an action are one statement (one round trip). A process whose copy is stale gets
:class:`Stale` and nothing is written. SQLite runs in WAL mode with
``synchronous=NORMAL``: a committed transaction survives the server process being killed at any
moment (only a power cut may lose the last transactions).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    String,
    bindparam,
    case,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, OperationalError

from builders.server.models import ActionRow, Base, ChatRow, GameRow, SeatOwnerRow
from builders.server.records import Options, Seat, seats_from_json, seats_to_json


def default_db_url() -> str:
    """A SQLite file in the user's data folder (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("builders", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


#: the columns of a game's summary, updated with every action
SUMMARY_COLUMNS = ("status", "version", "actions", "turn", "to_move", "result", "bot_turn")


def deadline(options: dict[str, Any] | None) -> float | None:
    """When the running clock of a game with ``options`` runs out (None: no clock runs). Stored with
    the options, so the clocks of games not in memory are found by a query when they are due."""
    clock = (options or {}).get("clock")
    if not clock or clock.get("running") is None:
        return None
    return float(clock["since"]) + float(clock["left"][clock["running"]])


def typed(row: Mapping[str, Any]) -> dict[str, Any]:
    """A game's row with its seats and options read as records (builders.server.records)."""
    out = dict(row)
    if "seats" in out:
        out["seats"] = seats_from_json(out["seats"] or [])
    if "options" in out:
        out["options"] = Options.from_json(out["options"])
    return out


def stored(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` of a game's row with its seats and options, records, as the JSON they are stored as
    (the same shape whatever version wrote them; JSON given is kept as it is)."""
    seats, options = values.get("seats"), values.get("options")
    if seats and isinstance(seats[0], Seat):
        values = {**values, "seats": seats_to_json(seats)}
    if isinstance(options, Options):
        values = {**values, "options": options.to_json()}
    return values


@dataclass
class StoredStep:
    seat: int
    action: str
    chance: list[str]
    by_bot: bool
    #: the client's key for the action (HTTP ``Idempotency-Key``, ``id`` on the socket), if it gave one
    key: str | None = None


class Stale(Exception):
    """The stored game is not at the version a write was made from (another process changed it)."""


class Busy(Exception):
    """A write that may not wait found SQLite's write lock held (by another process, or the
    connection is in use): nothing was written; write again, waiting, in a thread."""


#: SQLite: the writes that may not wait commit on one connection of their own, without checkpoints
#: (which write the database file and may take milliseconds); a thread checkpoints every this many
CHECKPOINT_EVERY = 1000


def database_url(db: str) -> str:
    """``db`` as a database URL: a URL is kept (``postgresql://`` uses psycopg 3), a plain file path
    becomes a SQLite URL."""
    if db.startswith(("postgresql://", "postgres://")):  # the driver installed with the server
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


class Store:
    def __init__(self, url: str, *, create: bool = True):
        url = database_url(url)
        self.url = url
        self.sqlite = url.startswith("sqlite")
        # no SQL parameters in error messages and logs: they hold seat data
        kwargs: dict[str, Any] = {"hide_parameters": True}
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            # a database that is away is noticed within seconds (connecting, or waiting for the pool),
            # and the request answered 503, instead of hanging
            kwargs.update(pool_size=10, max_overflow=20, pool_timeout=5, connect_args={"connect_timeout": 3})
        self.engine: Engine = create_engine(url, **kwargs)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            # a connection unused for a while is pinged before use (a restarted database is then
            # reconnected to): one round trip then, instead of one before every statement
            event.listen(self.engine, "checkout", _ping_if_idle)
            event.listen(self.engine, "checkin", _note_checkin)
        #: the same pool, one statement per transaction (the single-statement writes below)
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        #: reads: on PostgreSQL without a transaction around them (no BEGIN and ROLLBACK round trips);
        #: a read of several statements checks the version again (see :meth:`snapshot`)
        self.reader = self.engine if self.sqlite else self.autocommit
        if create:
            Base.metadata.create_all(self.engine)
        #: writes committed and refused as stale, for /metrics
        self.stats = {"append": 0, "undo": 0, "update": 0, "stale": 0}
        #: SQLite: the connection of the writes that may not wait (see append), its lock, the appends
        #: since its last checkpoint and the checkpoint running
        self._nowait: Any = None
        self._nowait_lock = threading.Lock()
        self._unchecked = 0
        self._checkpointing: threading.Thread | None = None
        # statements built once (undo); an action is written by the driver itself (see append)
        self._update_game = (
            update(GameRow)
            .where(GameRow.id == bindparam("game_id_"), GameRow.version == bindparam("from_"))
            .values({name: bindparam(name) for name in SUMMARY_COLUMNS})
        )
        self._update_game_options = (
            update(GameRow)
            .where(GameRow.id == bindparam("game_id_"), GameRow.version == bindparam("from_"))
            .values({name: bindparam(name) for name in (*SUMMARY_COLUMNS, "options", "deadline")})
        )

    def close(self) -> None:
        with self._nowait_lock:
            if self._nowait is not None:
                self._nowait.close()
                self._nowait = None
        if self._checkpointing is not None:
            self._checkpointing.join()
        self.engine.dispose()

    # -- writes --------------------------------------------------------------------------------
    def create(self, row: dict[str, Any]) -> None:
        row = stored(row)
        row = {**row, "deadline": deadline(row.get("options"))}
        with self.engine.begin() as conn:
            conn.execute(insert(GameRow), [row])
            _write_owners(conn, row["id"], row["seats"], new=True)

    def append(
        self, game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int, wait: bool = True
    ) -> None:
        """Add action number ``n`` and update the game's summary (and its ``options``, if the summary
        has them), in one transaction, if the stored game is at ``version`` with ``n`` actions (else
        :class:`Stale`, nothing written).

        ``wait`` false (SQLite only): write at once or not at all (:class:`Busy` when the write lock
        is held), so that the event loop may write without handing over to a thread: a SQLite
        commit takes tens of microseconds, less than the hand-over."""
        if "options" in summary:
            summary = stored(summary)
        if self.sqlite:
            if wait:
                self._append_sqlite(game_id, n, step, summary, version)
            else:
                self._append_nowait(game_id, n, step, summary, version)
        else:
            self._append_single(game_id, n, step, summary, version)

    def _append_nowait(self, game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int) -> None:
        import sqlite3

        if not self._nowait_lock.acquire(blocking=False):
            raise Busy(game_id)
        try:
            if self._nowait is None:
                pooled = self.engine.raw_connection()  # kept: it leaves the pool for good
                try:
                    pooled.driver_connection.execute("PRAGMA busy_timeout=0")
                    pooled.driver_connection.execute("PRAGMA wal_autocheckpoint=0")
                except BaseException:
                    pooled.invalidate()
                    raise
                self._nowait = pooled
            conn = self._nowait.driver_connection
            try:
                stale = self._append_on(conn, game_id, n, step, summary, version)
            except sqlite3.OperationalError as e:
                if conn.in_transaction:
                    conn.rollback()
                if e.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise Busy(game_id) from None
                self._nowait.invalidate(e)
                self._nowait = None
                raise OperationalError("append", None, e) from e
            except sqlite3.Error as e:
                self._nowait.invalidate(e)
                self._nowait = None
                raise OperationalError("append", None, e) from e
        finally:
            self._nowait_lock.release()
        if stale is not None:
            self.stats["stale"] += 1
            raise Stale(stale)
        self.stats["append"] += 1
        self._unchecked += 1
        if self._unchecked >= CHECKPOINT_EVERY and self._checkpointing is None:
            self._unchecked = 0
            self._checkpointing = threading.Thread(target=self._checkpoint, name="sqlite-checkpoint", daemon=True)
            self._checkpointing.start()

    def _checkpoint(self) -> None:
        """Copy the appends of the log (WAL) into the database file, on a pooled connection."""
        try:
            pooled = self.engine.raw_connection()
            try:
                pooled.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                pooled.close()
        except Exception:
            pass  # the next one, or any other connection's commit, checkpoints
        finally:
            self._checkpointing = None

    @staticmethod
    def _append_on(
        conn: Any, game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int
    ) -> str | None:
        """The append on the SQLite connection ``conn``, committed; why it is stale (nothing written),
        or None."""
        import sqlite3

        params = Store._append_params(game_id, n, step, summary, version)
        stale = None
        if not conn.in_transaction:
            conn.execute("BEGIN")
        try:
            # most actions change neither the status nor whose turn is a bot's: the update that leaves
            # those indexed columns out writes 2 pages of the log fewer (their indexes); where they
            # change it matches no row, and the whole update is made
            if "options" in params:
                found = conn.execute(_SQLITE_UPDATE_OPTIONS, params).rowcount
            else:
                found = (
                    conn.execute(_SQLITE_UPDATE_SAME, params).rowcount or conn.execute(_SQLITE_UPDATE, params).rowcount
                )
            if found != 1:
                stale = f"the game is no longer at version {version}"
            else:
                conn.execute(_SQLITE_INSERT, params)
        except sqlite3.IntegrityError:
            stale = f"action {n} is already stored"
        except BaseException:
            conn.rollback()
            raise
        if stale is None:
            conn.commit()
        else:
            conn.rollback()
        return stale

    @staticmethod
    def _append_params(game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int) -> dict[str, Any]:
        params = {
            "game_id": game_id,
            "from_": version,
            "status": summary["status"],
            "version": summary["version"],
            "actions": summary["actions"],
            "turn": summary["turn"],
            "to_move": summary["to_move"],
            "result": _json(summary["result"]),
            "n": n,
            "seat": step.seat,
            "action": step.action,
            "chance": _json(list(step.chance)),
            "by_bot": step.by_bot,
            "at": time.time(),
            "client_key": step.key,
            "bot_turn": bool(summary.get("bot_turn")),
        }
        if "options" in summary:
            params["options"] = _json(summary["options"])
            params["deadline"] = deadline(summary["options"])
        return params

    def _append_sqlite(self, game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int) -> None:
        """SQLite: the guarded update of the game, then the insert of the action, in one transaction
        sent by the driver itself (this is the server's hottest write). The update comes first: it
        takes the database's write lock, so a racing process waits and then finds the version moved."""
        import sqlite3

        pooled = self.engine.raw_connection()
        try:
            stale = self._append_on(pooled.driver_connection, game_id, n, step, summary, version)
        except sqlite3.Error as e:
            pooled.invalidate(e)
            raise OperationalError("append", None, e) from e
        finally:
            pooled.close()  # back to the pool
        if stale is not None:
            self.stats["stale"] += 1
            raise Stale(stale)
        self.stats["append"] += 1

    def _append_single(self, game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int) -> None:
        """PostgreSQL: the guarded update of the game and the insert of its action in one statement,
        so one round trip (a statement is a transaction of its own: both happen or neither), sent
        by the driver itself (this is the server's hottest statement)."""
        import psycopg

        params = self._append_params(game_id, n, step, summary, version)
        sql = _APPEND_OPTIONS if "options" in params else _APPEND
        pooled = self.engine.raw_connection()
        try:
            conn = pooled.driver_connection
            conn.autocommit = True
            try:
                added = conn.execute(sql, params).rowcount
            except psycopg.errors.UniqueViolation:
                added = 0  # action n (or its client key) is stored already
            finally:
                if not conn.closed:
                    conn.autocommit = False  # as the pool hands connections out
        except psycopg.Error as e:
            pooled.invalidate(e)
            raise OperationalError(sql, None, e) from e
        finally:
            pooled.close()  # back to the pool
        if added != 1:
            self.stats["stale"] += 1
            raise Stale(f"the game is no longer at version {version} with {n} actions")
        self.stats["append"] += 1

    def pop(self, game_id: str, n: int, step: StoredStep, summary: dict[str, Any], version: int) -> None:
        """Take back action number ``n`` (the last one), which must be ``step`` (same seat and text),
        and update the summary, in one transaction, if the game is at ``version`` (else :class:`Stale`)."""
        summary = stored({"bot_turn": False, **summary})
        if "options" in summary:
            summary["deadline"] = deadline(summary["options"])
        with self.engine.begin() as conn:
            moved = conn.execute(
                self._update_game_options if "options" in summary else self._update_game,
                {"game_id_": game_id, "from_": version, **summary},
            )
            if moved.rowcount != 1:
                self.stats["stale"] += 1
                raise Stale(f"the game is no longer at version {version}")
            gone = conn.execute(
                delete(ActionRow).where(
                    ActionRow.game_id == game_id,
                    ActionRow.n == n,
                    ActionRow.seat == step.seat,
                    ActionRow.action == step.action,
                )
            )
            if gone.rowcount != 1:
                self.stats["stale"] += 1
                raise Stale(f"action {n} is not {step.action!r} of seat {step.seat}")
            later = conn.execute(
                select(func.count()).select_from(ActionRow).where(ActionRow.game_id == game_id, ActionRow.n > n)
            ).scalar_one()
            if later:
                self.stats["stale"] += 1
                raise Stale(f"action {n} is not the last one")
        self.stats["undo"] += 1

    def update(self, game_id: str, values: dict[str, Any], version: int | None = None, bump: bool = True) -> None:
        """Update the game's row; with ``version``, only if it is at that version, and move it to
        the next one (else :class:`Stale`; ``bump`` false: it stays at that version, for a write
        that changes nothing a client sees, such as a clock's checkpoint)."""
        values = stored(values)
        if "options" in values:
            values = {**values, "deadline": deadline(values["options"])}
        with self.engine.begin() as conn:
            query = update(GameRow).where(GameRow.id == game_id)
            if version is not None:
                query = query.where(GameRow.version == version)
                if bump:
                    values = {**values, "version": version + 1}
            moved = conn.execute(query.values(**values))
            if version is not None and moved.rowcount != 1:
                self.stats["stale"] += 1
                raise Stale(f"the game is no longer at version {version}")
            if "seats" in values:
                _write_owners(conn, game_id, values["seats"])
        self.stats["update"] += 1

    def delete_game(self, game_id: str, version: int | None = None) -> None:
        """Delete a game with its actions, chat and seats (an aborted game): only while it is at
        ``version``, if given (else :class:`Stale`, and nothing is deleted)."""
        with self.engine.begin() as conn:
            if (
                version is not None
                and conn.execute(select(GameRow.version).where(GameRow.id == game_id)).scalar_one_or_none() != version
            ):
                raise Stale(game_id)
            for table in (ChatRow, SeatOwnerRow, ActionRow):
                conn.execute(delete(table).where(table.game_id == game_id))
            conn.execute(delete(GameRow).where(GameRow.id == game_id))

    def version(self, game_id: str) -> int | None:
        """The stored version of a game (None: no such game)."""
        with self.reader.connect() as conn:
            return conn.execute(select(GameRow.version).where(GameRow.id == game_id)).scalar_one_or_none()

    def versions(self, ids: list[str]) -> dict[str, int]:
        """The stored versions of the games ``ids`` (those that exist)."""
        out: dict[str, int] = {}
        with self.reader.connect() as conn:
            for start in range(0, len(ids), 500):
                out.update(
                    conn.execute(
                        select(GameRow.id, GameRow.version).where(GameRow.id.in_(ids[start : start + 500]))
                    ).all()
                )
        return out

    def ping(self) -> None:
        """Raises if the database cannot be reached."""
        with self.engine.connect() as conn:
            conn.execute(select(1)).scalar_one()

    # -- reads ---------------------------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any] | None:
        with self.reader.connect() as conn:
            return _game(conn, game_id)

    def snapshot(self, game_id: str) -> tuple[dict[str, Any], list[StoredStep]] | None:
        """The game's row and its steps as of one version (None: no such game). Every change moves
        the version, so steps read between two reads of the same version belong to it."""
        with self.reader.connect() as conn:
            for _ in range(50):
                row = _game(conn, game_id)
                if row is None:
                    return None
                steps = _steps(conn, game_id)
                if conn.execute(select(GameRow.version).where(GameRow.id == game_id)).scalar() == row["version"]:
                    return typed(row), steps
        return typed(row), steps  # changing all the time: as read (a later write then finds it stale)

    def steps(self, game_id: str) -> list[StoredStep]:
        with self.reader.connect() as conn:
            return _steps(conn, game_id)

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(select(GameRow.id).where(GameRow.status != "finished").order_by(GameRow.created)).scalars()
            )

    def attention_ids(self, clocks: bool = True) -> list[str]:
        """The unfinished games that need the process acting for the machine: a bot to move, or
        (``clocks``) a clock running; oldest first. Indexed lookups, whatever the number of games stored."""
        wanted = (
            or_(GameRow.bot_turn.is_(True), GameRow.deadline.is_not(None)) if clocks else GameRow.bot_turn.is_(True)
        )
        with self.reader.connect() as conn:
            return list(
                conn.execute(
                    select(GameRow.id).where(GameRow.status != "finished", wanted).order_by(GameRow.created)
                ).scalars()
            )

    def due_ids(self, before: float) -> list[str]:
        """The unfinished games whose running clock runs out before ``before`` (epoch seconds)."""
        with self.reader.connect() as conn:
            return list(
                conn.execute(
                    select(GameRow.id).where(GameRow.deadline <= before, GameRow.status != "finished")
                ).scalars()
            )

    def idle_games(self, before: float) -> list[dict[str, Any]]:
        """The unfinished games with a person to move that nobody has moved in since ``before`` (nor
        created since, without a move): their ``id``, ``seats``, ``to_move`` and ``options``."""
        with self.reader.connect() as conn:
            return [
                typed(r)
                for r in conn.execute(
                    select(GameRow.id, GameRow.seats, GameRow.to_move, GameRow.options).where(
                        GameRow.status != "finished",
                        GameRow.bot_turn.is_(False),
                        func.coalesce(GameRow.moved, GameRow.created) < before,
                    )
                ).mappings()
            ]

    def games_by(self, creator: int | None, address: str | None) -> dict[str, int]:
        """How many games waiting for players (``open``) and not over (``unfinished``) the account
        ``creator`` created, and how many were created from ``address`` (a digest)."""
        out = {"account_open": 0, "account_unfinished": 0, "address_open": 0, "address_unfinished": 0}
        waiting = func.sum(case((GameRow.status == "open", 1), else_=0))
        with self.reader.connect() as conn:
            for who, column, value in (("account", GameRow.creator, creator), ("address", GameRow.address, address)):
                if value is None:
                    continue
                found = conn.execute(
                    select(func.count(), waiting).where(column == value, GameRow.status != "finished")
                ).one()
                out[f"{who}_unfinished"], out[f"{who}_open"] = int(found[0] or 0), int(found[1] or 0)
        return out

    def list_games(self, status: str | None, limit: int, per_creator: int | None = None) -> list[dict[str, Any]]:
        """The listed (not private) games, newest first; with ``per_creator``, at most that many open
        games of each creator (their account, else their address), so that nobody fills the lobby."""
        table = GameRow.__table__
        listed = select(table).where(GameRow.private.is_(False))
        newest = (GameRow.created.desc(), GameRow.id)
        with self.reader.connect() as conn:
            if per_creator is None or status not in (None, "open"):
                query = listed.order_by(*newest).limit(limit)
                if status is not None:
                    query = query.where(GameRow.status == status)
                return [typed(r) for r in conn.execute(query).mappings()]
            owner = func.coalesce(cast(GameRow.creator, String), GameRow.address, GameRow.id)
            rank = func.row_number().over(partition_by=owner, order_by=newest).label("rank_")
            ranked = listed.add_columns(rank).where(GameRow.status == "open").subquery()
            rows = [
                typed(r)
                for r in conn.execute(
                    select(ranked)
                    .where(ranked.c.rank_ <= per_creator)
                    .order_by(ranked.c.created.desc(), ranked.c.id)
                    .limit(limit)
                ).mappings()
            ]
            for r in rows:
                del r["rank_"]
            if status is None:
                rows += [
                    typed(r)
                    for r in conn.execute(
                        listed.where(GameRow.status != "open").order_by(*newest).limit(limit)
                    ).mappings()
                ]
                rows.sort(key=lambda r: (-r["created"], r["id"]))
        return rows[:limit]

    def games_of(self, account_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """The games in which ``account_id`` has a seat, newest first."""
        query = (
            select(GameRow.__table__)
            .join(SeatOwnerRow, SeatOwnerRow.game_id == GameRow.id)
            .where(SeatOwnerRow.account_id == account_id)
            .distinct()
            .order_by(GameRow.created.desc(), GameRow.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [typed(r) for r in conn.execute(query).mappings()]

    def bots_only_games(self) -> list[Options]:
        """The options of the games not over with no person playing in them (a bot in every seat
        from the start, or since the last person left)."""
        with self.engine.connect() as conn:
            found = (
                conn.execute(select(GameRow.options).where(GameRow.bots_only.is_(True), GameRow.status != "finished"))
                .scalars()
                .all()
            )
        return [Options.from_json(options) for options in found]

    def bots_only_of(self, account_id: int) -> list[dict[str, Any]]:
        """The games of bots alone not over that ``account_id`` created, newest first."""
        with self.engine.connect() as conn:
            query = (
                select(GameRow.__table__)
                .where(GameRow.bots_only.is_(True), GameRow.status != "finished")
                .order_by(GameRow.created.desc(), GameRow.id)
            )
            return [
                typed(r)
                for r in conn.execute(query).mappings()
                if r["options"] and r["options"].get("creator") == account_id
            ]

    def counts(self) -> dict[str, int]:
        """Games and actions stored (for tests: bad requests must change neither)."""
        with self.engine.connect() as conn:
            games = conn.execute(select(func.count()).select_from(GameRow)).scalar_one()
            actions = conn.execute(select(func.count()).select_from(ActionRow)).scalar_one()
        return {"games": games, "actions": actions}


def _game(conn, game_id: str) -> dict[str, Any] | None:
    row = conn.execute(select(GameRow.__table__).where(GameRow.id == game_id)).mappings().first()
    return dict(row) if row is not None else None


def _steps(conn, game_id: str) -> list[StoredStep]:
    rows = conn.execute(
        select(ActionRow.seat, ActionRow.action, ActionRow.chance, ActionRow.by_bot, ActionRow.client_key)
        .where(ActionRow.game_id == game_id)
        .order_by(ActionRow.n)
    ).all()
    return [StoredStep(r.seat, r.action, list(r.chance or []), bool(r.by_bot), r.client_key) for r in rows]


def _write_owners(conn, game_id: str, seats: list[dict[str, Any]], new: bool = False) -> None:
    """The seat_owners rows of a game, from its seats (in the caller's transaction; ``new``: a game
    created in this transaction, which has none yet)."""
    if not new:
        conn.execute(delete(SeatOwnerRow).where(SeatOwnerRow.game_id == game_id))
    owned = [
        {"game_id": game_id, "seat": s["seat"], "account_id": s["account"]}
        for s in seats
        if s.get("account") is not None
    ]
    if owned:
        conn.execute(insert(SeatOwnerRow), owned)


_APPEND = (
    "WITH moved AS (UPDATE games SET status = %(status)s, version = %(version)s, actions = %(actions)s, "
    "turn = %(turn)s, to_move = %(to_move)s, result = %(result)s::json, bot_turn = %(bot_turn)s, "
    "moved = %(at)s{options} "
    "WHERE id = %(game_id)s AND version = %(from_)s RETURNING id) "
    "INSERT INTO actions (game_id, n, seat, action, chance, by_bot, at, client_key) "
    "SELECT id, %(n)s, %(seat)s, %(action)s, %(chance)s::json, %(by_bot)s, %(at)s, %(client_key)s FROM moved"
)
_APPEND_OPTIONS = _APPEND.format(options=", options = %(options)s::json, deadline = %(deadline)s")
_APPEND = _APPEND.format(options="")

_SQLITE_UPDATE = (
    "UPDATE games SET status = :status, version = :version, actions = :actions, turn = :turn, "
    "to_move = :to_move, result = :result, bot_turn = :bot_turn, moved = :at{options} "
    "WHERE id = :game_id AND version = :from_"
)
_SQLITE_UPDATE_OPTIONS = _SQLITE_UPDATE.format(options=", options = :options, deadline = :deadline")
_SQLITE_UPDATE = _SQLITE_UPDATE.format(options="")
#: the update of a game whose status and bot turn stay as they are (it does not touch their indexes)
_SQLITE_UPDATE_SAME = (
    "UPDATE games SET version = :version, actions = :actions, turn = :turn, to_move = :to_move, "
    "result = :result, moved = :at WHERE id = :game_id AND version = :from_ AND status = :status "
    "AND bot_turn = :bot_turn"
)
_SQLITE_INSERT = (
    "INSERT INTO actions (game_id, n, seat, action, chance, by_bot, at, client_key) "
    "VALUES (:game_id, :n, :seat, :action, :chance, :by_bot, :at, :client_key)"
)


def _json(value: Any) -> str | None:
    """A JSON column's value as the text PostgreSQL reads (NULL for None, as the models store it)."""
    return None if value is None else orjson.dumps(value).decode()


#: seconds a pooled connection may have been unused before it is pinged at checkout
PING_AFTER = 10.0


def _note_checkin(_dbapi_conn, record) -> None:
    record.info["used"] = time.monotonic()


def _ping_if_idle(dbapi_conn, record, _proxy) -> None:
    """Ping a connection unused for PING_AFTER seconds; a dead one is replaced by the pool."""
    if time.monotonic() - record.info.get("used", 0.0) < PING_AFTER:
        return
    try:
        cur = dbapi_conn.cursor()
        try:
            cur.execute("SELECT 1")
        finally:
            cur.close()
        if not getattr(dbapi_conn, "autocommit", True):
            dbapi_conn.rollback()  # the ping opened a transaction: end it
    except Exception as e:
        raise DisconnectionError(f"the pooled connection is gone: {type(e).__name__}") from e


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached just now (gone, restarting, its pool
    exhausted, locked): the request may succeed if tried again, so it is answered 503."""
    from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(exc, (DisconnectionError, PoolTimeout, OperationalError, InterfaceError)):
        return True
    return isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)
