"""The Builders: Middle Ages for learning: the flat action encoding and the observation vectors.

Action indices (``NUM_ACTIONS`` = 2,189), one index per engine action::

    0            end
    1            buy
    2-4          coins 1, coins 2, coins 3
    5-46         open B01-B34, M1-M8        (5 + building-deck slot)
    47-88        recruit W01-W42            (47 + worker slot)
    89-2188      send: 89 + 50 * site slot + worker slot (worker slot 0-41 W01-W42, 42-49 M1-M8)

A building-deck slot is 0-33 for B01-B34 and 34-41 for M1-M8.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from builders.core.errors import IllegalAction
from builders.middle_ages.cards import BUILDING_DECK, MACHINES, REQ, WORKERS, unpack
from builders.middle_ages.rules import BUY, COINS, END, OPEN, RECRUIT, send_code
from builders.rl.encoding import Layout, is_native

NUM_SITES = len(BUILDING_DECK)  # 42
NUM_WORKERS = len(WORKERS) + len(MACHINES)  # 50: workers, then machines (which work once completed)
OPEN0, RECRUIT0, SEND0 = 5, 47, 89
NUM_ACTIONS = SEND0 + NUM_SITES * NUM_WORKERS  # 2189
_FIRST_SITE = BUILDING_DECK[0]  # card index 42
_MACHINE0 = MACHINES[0]


def _worker_slot(card: int) -> int:
    return card if card < len(WORKERS) else len(WORKERS) + card - _MACHINE0


def _worker_card(slot: int) -> int:
    return slot if slot < len(WORKERS) else _MACHINE0 + slot - len(WORKERS)


# engine action code <-> index, as lookup tables
_CODES = np.full(NUM_ACTIONS, -1, dtype=np.int64)
_CODES[0], _CODES[1] = END, BUY
for _k in (1, 2, 3):
    _CODES[1 + _k] = COINS + _k
for _s in range(NUM_SITES):
    _CODES[OPEN0 + _s] = OPEN + _FIRST_SITE + _s
    for _w in range(NUM_WORKERS):
        _CODES[SEND0 + _s * NUM_WORKERS + _w] = send_code(_worker_card(_w), _FIRST_SITE + _s)
for _w in range(len(WORKERS)):
    _CODES[RECRUIT0 + _w] = RECRUIT + _w
_CODE_LIST = _CODES.tolist()
_SLOT_OF = {card: _worker_slot(card) for card in [*WORKERS, *MACHINES]}
#: the requirement of each building-deck card (stone, wood, knowledge, tile)
_REQ = np.array([unpack(REQ[c]) for c in BUILDING_DECK], dtype=np.int16)
_REQ_BYTES = [tuple(row) for row in _REQ.tolist()]
_INDEX_OF = {c: i for i, c in enumerate(_CODE_LIST)}
assert len(_INDEX_OF) == NUM_ACTIONS


def action_to_index(action: int) -> int:
    """The index of the engine action ``action``."""
    index = _INDEX_OF.get(action) if type(action) is int else None
    if index is None:
        raise IllegalAction(f"{action!r} is not an action of The Builders: Middle Ages")
    return index


def index_to_action(index: int) -> int:
    """The engine action of ``index`` (the inverse of action_to_index)."""
    if type(index) is not int and not isinstance(index, np.integer) or not 0 <= index < NUM_ACTIONS:
        raise IllegalAction(f"{index!r} is not an action index (0-{NUM_ACTIONS - 1})")
    return _CODE_LIST[int(index)]


def index_table() -> list[tuple[str, str]]:
    return [
        ("0", "end"),
        ("1", "buy"),
        ("2-4", "coins 1-3"),
        ("5-38", "open B01-B34"),
        ("39-46", "open M1-M8"),
        ("47-88", "recruit W01-W42"),
        ("89-2188", "send worker slot (W01-W42, M1-M8) to site slot: 89 + 50 * site + worker"),
    ]


def _site_bytes(card: int, packed: int) -> tuple[bytes, bytes]:
    """(resources on the site, resources still needed) of building-deck card ``card`` (4 bytes each)."""
    key = (card, packed)
    found = _SITE_BYTES.get(key)
    if found is None:
        have = packed.to_bytes(4, "little")
        need = bytes(max(r - h, 0) for r, h in zip(_REQ_BYTES[card - _FIRST_SITE], have))
        if len(_SITE_BYTES) > 100_000:
            _SITE_BYTES.clear()
        found = _SITE_BYTES[key] = (have, need)
    return found


_SITE_BYTES: dict[tuple[int, int], tuple[bytes, bytes]] = {}


class MiddleAgesEncoder:
    """The observations of one seat, kept between calls: each part is filled again only when its source
    in the state differs from what was last encoded (compared, never assumed: any state may come next)."""

    __slots__ = ("codec", "seat", "buf", "rows", "crews", "sites", "progress", "sent")

    def __init__(self, codec: MiddleAgesCodec, seat: int):
        self.codec = codec
        self.seat = seat
        self.buf = bytearray(codec.size)
        self.rows: tuple = ()
        n = codec.num_players
        self.crews: list[tuple] = [()] * n
        self.sites: list[list[int]] = [[] for _ in range(n)]
        self.progress: list[int] = []
        self.sent: list[int] = []

    def __call__(self, state, prefix: Sequence[int]) -> np.ndarray:
        codec = self.codec
        n = codec.num_players
        seat = self.seat
        brow0, top0, wrow0, crew0, done0, site0, have0, need0, sent0, coins0, vp0, progress0 = codec._at
        buf = self.buf
        bdeck = state.bdeck
        rows = (state.brow, bdeck[-1] if bdeck else -1, state.wrow)
        if rows != self.rows:
            buf[brow0 + OPEN + _FIRST_SITE : crew0] = bytes(crew0 - brow0 - OPEN - _FIRST_SITE)
            for c in state.brow:
                buf[brow0 + c] = 1
            if bdeck:
                buf[top0 + bdeck[-1]] = 1
            for c in state.wrow:
                buf[wrow0 + c] = 1
            self.rows = (state.brow[:], rows[1], state.wrow[:])
        crews, dones, site_lists = state.crew, state.done, state.sites
        sites_changed = False
        for k in range(n):
            q = (seat + k) % n
            crew, done, sites = crews[q], dones[q], site_lists[q]
            if (crew, done, sites) != self.crews[k]:
                row = crew0 + NUM_WORKERS * k
                buf[row : row + NUM_WORKERS] = bytes(NUM_WORKERS)
                for w in crew:
                    buf[row + _SLOT_OF[w]] = 1
                row = done0 + NUM_SITES * k
                buf[row + _FIRST_SITE : row + _FIRST_SITE + NUM_SITES] = bytes(NUM_SITES)
                for c in done:
                    buf[row + c] = 1
                row = site0 + NUM_SITES * k
                buf[row + _FIRST_SITE : row + _FIRST_SITE + NUM_SITES] = bytes(NUM_SITES)
                for c in sites:
                    buf[row + c] = 1
                self.crews[k] = (crew[:], done[:], sites[:])
                if sites != self.sites[k]:
                    self.sites[k] = sites[:]
                    sites_changed = True
        packed_of, sent_of = state.progress, state.sent
        if sites_changed or packed_of != self.progress or sent_of != self.sent:
            if sites_changed:  # every open site again
                buf[have0:coins0] = bytes(coins0 - have0)
                changed = [c for sites in self.sites for c in sites]
            else:  # the open sites whose resources or workers sent changed
                was, sent_was = self.progress, self.sent
                changed = [
                    c for sites in self.sites for c in sites if packed_of[c] != was[c] or sent_of[c] != sent_was[c]
                ]
            for c in changed:
                at = 4 * (c - _FIRST_SITE)
                buf[have0 + at : have0 + at + 4], buf[need0 + at : need0 + at + 4] = _site_bytes(c, packed_of[c])
                sent = sent_of[c]
                buf[sent0 + c - _FIRST_SITE] = sent if sent < 255 else 255
            self.progress = packed_of[:]
            self.sent = sent_of[:]
        coins, vp = state.coins, state.vp
        for k in range(n):
            q = (seat + k) % n
            value = coins[q]
            buf[coins0 + k] = value if value < 255 else 255
            value = vp[q]
            buf[vp0 + k] = value if value < 255 else 255
        actions, turn = state.actions, state.turn
        buf[progress0 : progress0 + 7] = bytes(
            (
                actions if actions < 255 else 255,
                turn if turn < 255 else 255,
                state.final_round,
                state.current_player == seat and not state.is_over(),
                len(bdeck),
                len(state.wdeck),
                (state.start - seat) % n,
            )
        )
        return np.frombuffer(bytearray(buf), dtype=np.uint8)


class MiddleAgesCodec(Layout):
    """Spaces, masks and observations of The Builders: Middle Ages for ``num_players`` seats."""

    game = "middle-ages"
    num_actions = NUM_ACTIONS

    def __init__(self, num_players: int):
        self.num_players = num_players
        self._offsets = o = self.offsets()
        self.size = o["end"]
        # where card c (or a worker slot) lands: part offsets less the first code or card of each part
        self._at = (
            o["building_row"] - OPEN - _FIRST_SITE,
            o["building_deck_top"] - _FIRST_SITE,
            o["worker_row"] - RECRUIT,
            o["crew"],
            o["completed"] - _FIRST_SITE,
            o["sites"] - _FIRST_SITE,
            o["site_progress"],
            o["site_need"],
            o["site_sent"],
            o["coins"],
            o["vp"],
            o["progress"],
        )

    def layout(self) -> tuple[tuple[str, tuple[int, ...], Any], ...]:
        """(key, shape, highest value) of each part of the observation, in the order of the flat vector."""
        n = self.num_players
        return (
            ("building_row", (NUM_SITES,), 1),
            ("building_deck_top", (NUM_SITES,), 1),
            ("worker_row", (len(WORKERS),), 1),
            ("crew", (n, NUM_WORKERS), 1),
            ("sites", (n, NUM_SITES), 1),
            ("completed", (n, NUM_SITES), 1),
            ("site_progress", (NUM_SITES, 4), 255),
            ("site_need", (NUM_SITES, 4), 255),
            ("site_sent", (NUM_SITES,), 255),
            ("coins", (n,), 255),
            ("vp", (n,), 255),
            ("progress", (7,), 255),
        )

    @staticmethod
    def mask(legal: Sequence[int], prefix: Sequence[int]) -> np.ndarray:
        buf = bytearray(NUM_ACTIONS)  # a Python loop over a few dozen actions costs less than numpy's calls
        index_of = _INDEX_OF
        for a in legal:
            buf[index_of[a]] = 1
        return np.frombuffer(buf, dtype=np.int8)

    @staticmethod
    def needs_more(prefix: Sequence[int]) -> bool:
        return False

    @staticmethod
    def phase(prefix: Sequence[int]) -> int:
        return 0

    @staticmethod
    def describe(index: int, prefix: Sequence[int]) -> str:
        from builders.middle_ages.notation import action_text

        if 0 <= index < NUM_ACTIONS:
            return action_text(_CODE_LIST[index])
        return f"index {index}"

    @staticmethod
    def why_not(state, index: int, prefix: Sequence[int]) -> str:
        try:
            state.parse_action(MiddleAgesCodec.describe(index, prefix))
        except IllegalAction as e:
            return str(e)
        return "it is not legal now"

    def encode(self, state, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """The flat uint8 observation of ``seat`` (the parts of :meth:`layout` in order): what the seat may
        know (rules.md "Information": everything but the deck orders below the building deck's top card).
        Per-seat rows are relative: row 0 is ``seat``. Counts above 255 are shown as 255."""
        if is_native(state):
            return self.native_encode(state, seat, prefix)
        return MiddleAgesEncoder(self, seat)(state, prefix)

    def native_encode(self, state, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """:meth:`encode` of a native core's state, filled by the core."""
        out = np.empty(self.size, dtype=np.uint8)
        state.rl_encode(seat, out)
        return out

    @staticmethod
    def native_mask(state, prefix: Sequence[int], out: np.ndarray | None = None) -> np.ndarray:
        """:meth:`mask` of a native core's state (its legal actions), filled by the core (in ``out``, an
        int8 array of NUM_ACTIONS entries, if given)."""
        if out is None:
            out = np.empty(NUM_ACTIONS, dtype=np.int8)
        state.rl_mask(out)
        return out

    @staticmethod
    def native_observer(state):
        """``fill(seat, obs, mask)`` of a native core's state: ``seat``'s observation and its mask as
        :meth:`builders.rl.base.Match.observe` hands them out, filled by the core in one call."""
        return state.rl_observe

    @staticmethod
    def native_player(state):
        """``play(index)`` of a native core's state: :meth:`native_play` in one call."""
        return state.rl_play

    @staticmethod
    def native_play(state, prefix: Sequence[int], index: int) -> int:
        """Play ``index`` on a native core's state if a legal action has it: the engine action, or -2
        if none has or forced draws wait (nothing changed)."""
        return state.rl_play(index)

    def encoder(self, seat: int) -> MiddleAgesEncoder:
        """An encoder of ``seat``'s observations that keeps the last one and fills again only the parts
        whose source changed (for the environments, which observe one game step by step)."""
        return MiddleAgesEncoder(self, seat)

    def encode_reference(self, state, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """:meth:`encode` written plainly with numpy (slower): the definition the fast encoder is tested
        against (tests/rl/test_fast_encoding.py)."""
        n = self.num_players
        o = self._offsets
        out = np.zeros(self.size, dtype=np.uint8)
        out[[o["building_row"] - OPEN - _FIRST_SITE + c for c in state.brow]] = 1
        if state.bdeck:
            out[o["building_deck_top"] + state.bdeck[-1] - _FIRST_SITE] = 1
        out[[o["worker_row"] - RECRUIT + c for c in state.wrow]] = 1
        crew_at, done_at, site_at = o["crew"], o["completed"], o["sites"]
        crew: list[int] = []
        done: list[int] = []
        sites: list[int] = []
        open_sites: list[int] = []
        slot_of = _SLOT_OF
        for k in range(n):
            q = (seat + k) % n
            row = crew_at + NUM_WORKERS * k
            crew += [row + slot_of[w] for w in state.crew[q]]
            row = done_at + NUM_SITES * k - _FIRST_SITE
            done += [row + c for c in state.done[q]]
            cards = state.sites[q]
            row = site_at + NUM_SITES * k - _FIRST_SITE
            sites += [row + c for c in cards]
            open_sites += cards
        out[crew] = 1
        out[done] = 1
        if open_sites:
            out[sites] = 1
            at = np.array(open_sites, dtype=np.int64) - _FIRST_SITE
            packed, sent_now = state.progress, state.sent
            have = np.array([packed[c] for c in open_sites], dtype="<u4").view(np.uint8).reshape(-1, 4)
            out[o["site_progress"] : o["site_need"]].reshape(NUM_SITES, 4)[at] = have
            out[o["site_need"] : o["site_sent"]].reshape(NUM_SITES, 4)[at] = np.maximum(_REQ[at] - have, 0)
            out[o["site_sent"] + at] = np.minimum([sent_now[c] for c in open_sites], 255)
        coins, vp = state.coins, state.vp
        at = o["coins"]
        out[at : at + n] = [min(coins[(seat + k) % n], 255) for k in range(n)]
        at = o["vp"]
        out[at : at + n] = [min(vp[(seat + k) % n], 255) for k in range(n)]
        over = state.is_over()
        at = o["progress"]
        out[at : at + 7] = (
            min(state.actions, 255),
            min(state.turn, 255),
            state.final_round,
            state.current_player == seat and not over,
            len(state.bdeck),
            len(state.wdeck),
            (state.start - seat) % n,
        )
        return out

    def new_state(self, setup: Any, seed: int, core: str | None = None):
        """The initial state of ``setup`` (None or "random": drawn from ``seed``; a setup dict) on
        ``core``: "native" or "python", or None for the core ``BUILDERS_CORE`` asks for."""
        from builders.middle_ages import native
        from builders.middle_ages.game import MiddleAges
        from builders.middle_ages.setup import check_setup, random_setup
        from builders.middle_ages.state import MiddleAgesState

        if setup is None or setup == "random":
            if core == "native" and type(seed) is int and 0 <= seed < 2**64 and native.available():
                return native.random_start(self.num_players, seed)  # drawn and dealt by the core
            setup = random_setup(self.num_players, seed)
        elif not isinstance(setup, dict):
            raise ValueError(f"setup must be None, 'random' or a setup dict, not {setup!r}")
        if core is None:
            return MiddleAges().new_state(setup)
        state = MiddleAgesState(check_setup(setup))
        return native.from_python(state) if core == "native" else state

    @staticmethod
    def render_rgb(state) -> np.ndarray:
        """The terminal drawing of the public view as an (H, W, 3) uint8 picture."""
        from builders.rl.render import text_picture

        return text_picture(MiddleAgesCodec.render(state))

    @staticmethod
    def render(state) -> str:
        import io

        from rich.console import Console

        from builders.middle_ages.render import position_tables

        view = state.observation(state.current_player)
        hidden = ["?"] * max(view["building_deck_size"] - 1, 0)
        pos = {
            **view,
            "building_deck": [view["building_deck_top"], *hidden] if view["building_deck_size"] else [],
            "worker_deck": ["?"] * view["worker_deck_size"],
        }
        buf = io.StringIO()
        Console(file=buf, width=120, color_system=None).print(position_tables(pos))
        return buf.getvalue()

    @staticmethod
    def score_margins(state) -> list[float]:
        scores = state.result().scores
        return [float(s - max(x for q, x in enumerate(scores) if q != p)) for p, s in enumerate(scores)]
