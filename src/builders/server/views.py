"""The views of the games: the summaries (the lobby's lines), each seat's and the spectators' view
(its shared part encoded once per change and language, the spectator's observation built once per
change and every seat's from it), the socket's state messages and a finished game's replay."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import orjson

from builders.core.messages import msg
from builders.core.plugins import plugin
from builders.server.live import (
    ApiError,
    Client,
    Live,
    LogEntry,
    abort_refusal,
    deadline,
    dumps,
    final_result,
    log_in,
    public_seat,
    rebuild,
    scores,
    undo_refusal,
)
from builders.server.messages import DEFAULT as DEFAULT_LANGUAGE
from builders.server.presence import Audience
from builders.server.records import Options, Seat
from builders.server.store import Store

#: the most games a list shows
LIST_LIMIT = 200
#: open games of one creator shown in the lobby (the others are reached by their links)
LOBBY_PER_CREATOR = 3


def shared_text(shared: dict[str, Any], lang: str) -> str:
    """``dumps(shared)[1:-1]`` with its log (the second key, after ``status``) in ``lang``: the log's
    text is kept from one change to the next (a line never changes, the log grows by one a change),
    the rest is encoded once per change."""
    keys = iter(shared)
    if next(keys, None) != "status" or next(keys, None) != "log":
        return dumps({**shared, "log": log_in(shared["log"], lang)})[1:-1]
    lines = _log_text(shared["log"], lang)
    rest = dumps({k: v for k, v in shared.items() if k != "status" and k != "log"})[1:-1]
    return '"status":' + dumps(shared["status"]) + ',"log":[' + lines + "]" + ("," + rest if rest else "")


def _log_text(log: list[dict[str, Any]], lang: str) -> str:
    """The lines of ``log`` in ``lang`` encoded and joined by commas: the text is kept with the last
    line and handed on to the next one when a line is added (a change adds one line's text; after an
    undo it is joined anew once)."""
    last = log[-1] if log else None
    if not isinstance(last, LogEntry):
        return ",".join([_line_text(entry, lang) for entry in log])
    joined: dict[str, str] = last.__dict__.setdefault("joined", {})
    text = joined.get(lang)
    if text is None:
        before = log[-2] if len(log) > 1 else None
        held = before.__dict__.get("joined") if isinstance(before, LogEntry) else None
        head = held.pop(lang, None) if held else None
        if head is None:
            head = ",".join([_line_text(entry, lang) for entry in log[:-1]])
        text = joined[lang] = head + ("," if len(log) > 1 else "") + _line_text(last, lang)
    return text


def _line_text(entry: dict[str, Any], lang: str) -> str:
    """The JSON text of a line of the log in ``lang``."""
    if not isinstance(entry, LogEntry) or lang == DEFAULT_LANGUAGE:
        return dumps(entry)
    return dumps({**entry, "text": entry.text_in(lang)})


class Views:
    """Builds and caches (in ``live.cache``, cleared by every change) what clients are shown."""

    def __init__(
        self,
        store: Store,
        games: dict[str, Live],
        audience: Audience,
        names: Callable[[Iterable[int]], dict[int, str]] | None = None,
        lobby_per_creator: int = LOBBY_PER_CREATOR,
    ):
        self.store = store
        #: the games in memory (a game listed that is in memory is summed up from its copy)
        self.games = games
        self.audience = audience
        #: account ids -> display names
        self.names = names or (lambda ids: {})
        self.lobby_per_creator = lobby_per_creator

    def summary(self, live: Live) -> dict[str, Any]:
        """The summary of ``live`` (the lobby's line of it, and the part of the views it shares)."""
        cached = live.cache.get("summary")
        if cached is None:
            on = self.audience.connected(live)
            result = final_result(live.presenter, live.state, live.options)
            names = self._names(live.seats)
            cached = live.cache["summary"] = {
                "id": live.id,
                "game": live.game,
                "name": live.name,
                "status": live.status,
                "created": live.created,
                "seats": [public_seat(s, s.seat in on, names, bool(live.options.rated)) for s in live.seats],
                "to_move": live.to_move,
                "turn": live.state.turn,
                "version": live.version,
                "result": result,
                **_shown(live.options),
                "spectators": self.audience.spectators(live),
            }
        return cached

    def _names(self, seats: list[Seat]) -> dict[int, str]:
        """The display names of the accounts of ``seats``."""
        ids = {s.account for s in seats if s.account is not None}
        return self.names(ids) if ids else {}

    def list_games(
        self, status: str | None, rows: list[dict[str, Any]] | None = None, limit: int = LIST_LIMIT
    ) -> list[dict[str, Any]]:
        """Summaries of the listed (not private) games (``limit`` at most), or of ``rows``."""
        out = []
        listed = self.store.list_games(status, limit, self.lobby_per_creator) if rows is None else None
        for row in listed if listed is not None else rows or []:
            if rows is None and row.get("private"):
                continue
            live = self.games.get(row["id"])
            if live is not None:
                out.append(self.summary(live))
            else:
                options: Options = row["options"]
                out.append(
                    {
                        "id": row["id"],
                        "game": row["game"],
                        "name": row["name"],
                        "status": row["status"],
                        "created": row["created"],
                        "seats": [
                            public_seat(s, False, self._names(row["seats"]), bool(options.rated)) for s in row["seats"]
                        ],
                        "to_move": row["to_move"],
                        "turn": row["turn"],
                        "version": row["version"],
                        "result": row["result"],
                        **_shown(options),
                        "spectators": 0,
                    }
                )
        return out

    def _common(self, live: Live) -> dict[str, Any]:
        """The part of the views that every seat and spectator shares."""
        common = live.cache.get("common")
        if common is None:
            st = live.state
            summary = self.summary(live)
            common = {
                "status": summary["status"],
                "log": live.log,
                "scores": scores(live.presenter, st),
                "result": summary["result"],
                "seats": summary["seats"],
                "seeded": summary["seeded"],
                "rematch": summary["rematch"],
                "clock": live.options.clock.to_json() if live.options.clock else None,
                "events": live.options.events or [],
                "rating_changes": summary["rating_changes"],
                "can_abort": abort_refusal(live) is None,
                "first_game": bool(live.options.first_game),
                "rated": summary["rated"],
                "hints": summary["hints"],
                "colours": summary["colours"],
                "spectators": summary["spectators"],
                "table": plugin(live.game).web_table,
                "guide": plugin(live.game).web_guide,
                **live.presenter.shared(st, live.fixed),
            }
            live.cache["common"] = common
        return common

    def _own(self, live: Live, seat: int | None) -> dict[str, Any]:
        """The part of the view that is the seat's own."""
        st = live.state
        to_move = live.to_move
        playing = seat is not None and seat == to_move and live.seats[seat].type == "human"
        legal_actions = st.legal_actions() if playing else []
        return {
            "id": live.id,
            "game": live.game,
            "seat": seat,
            "version": live.version,
            "actions": len(live.steps),
            "turn": st.turn,
            "to_move": to_move,
            "view": self._observation(live, seat),
            "legal": [st.action_to_string(a) for a in legal_actions],
            "legal_costs": live.presenter.legal_costs(st, legal_actions) if playing else None,
            "can_undo": playing and undo_refusal(live, seat) is None,
        }

    @staticmethod
    def _observation(live: Live, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees of the position: the spectator's observation is made once per change,
        and every seat's from it."""
        public = live.cache.get("public")
        if public is None:
            public = live.cache["public"] = live.presenter.observe(live.state, None)
        return public if seat is None else live.presenter.seat_view(live.state, seat, public)

    def view(self, live: Live, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator) as JSON data."""
        return orjson.loads(self.view_text(live, seat))

    def view_text(self, live: Live, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> str:
        """The view of ``seat`` as JSON text, its log in ``lang``; the shared part is encoded once per
        change and language, the seat's own part once per change."""
        key = ("text", seat, lang)
        text = live.cache.get(key)
        if text is None:
            text = live.cache[key] = "".join(("{", *self._parts(live, seat, lang), "}"))
        return text

    def state_message(self, live: Live, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> str:
        """The socket message of :meth:`view_text` (encoded once per change, seat and language)."""
        key = ("message", seat, lang)
        text = live.cache.get(key)
        if text is None:
            text = live.cache[key] = "".join(('{"type":"state",', *self._parts(live, seat, lang), "}"))
        return text

    def _parts(self, live: Live, seat: int | None, lang: str) -> tuple[str, str, str]:
        """The inside of :meth:`view_text`'s object: the seat's own part, a comma, the shared part."""
        own = live.cache.get(("own_text", seat))
        if own is None:
            own = live.cache[("own_text", seat)] = dumps(self._own(live, seat))[1:-1]
        common = live.cache.get(("common_text", lang))
        if common is None:
            common = live.cache[("common_text", lang)] = shared_text(self._common(live), lang)
        return own, ",", common

    def message_for(self, live: Live, client: Client) -> str:
        """:meth:`state_message` for ``client``: its seat's view, in its language."""
        return self.state_message(live, client.seat, getattr(client, "lang", DEFAULT_LANGUAGE))

    def replay_view(self, live: Live, n: int, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The position of the finished game ``live`` after ``n`` actions, with the events (timeouts,
        resignations, seats handed over or taken back) of its first ``n`` actions."""
        if not live.over:
            raise ApiError(409, msg("a game can be replayed once it is over"))
        total = len(live.steps)
        if not 0 <= n <= total:
            raise ApiError(404, msg("the game has {total} actions: choose a position from 0 to {total}", total=total))
        st = rebuild(live, n)
        common = self._common(live)
        # what had happened to the seats by then (a move taken back later may leave an event's "after"
        # beyond the record's end: it is at the end)
        events = [e for e in common["events"] if min(e["after"], total) <= n]
        return {
            "id": live.id,
            "game": live.game,
            "status": "finished",
            "seat": None,
            "version": live.version,
            "actions": n,
            "turn": st.turn,
            "to_move": None if st.is_over() else st.current_player,
            "view": st.to_json(),
            "legal": [],
            "legal_costs": None,
            "can_undo": False,
            "log": log_in(live.log[:n], lang),
            "scores": scores(live.presenter, st),
            "result": common["result"],
            "seats": common["seats"],
            "colours": common["colours"],
            "table": common["table"],
            "events": events,
            **live.presenter.replay(live.fixed, common),
            "total": total,
        }


def _shown(options: Options) -> dict[str, Any]:
    """What a game's summary shows of its options."""
    clock = options.clock or None
    return {
        "private": bool(options.private),
        "seeded": bool(options.seeded),
        "rematch": options.rematch,
        "rated": bool(options.rated),
        "hints": bool(options.hints),
        "colours": options.colours,
        "rating_changes": options.rating_changes,
        "deadline": deadline(clock),
        "clock_kind": clock.kind if clock else None,
    }
