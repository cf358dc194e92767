"""KingdomState: one Kingdom Builder position with its history.

Settlements are bit masks (one bit per hex, see :mod:`builders.kingdom.board`); tiles are masks of
the location hexes they came from (``held``, ``used`` this turn, ``new`` = taken this turn,
``taken`` = every location ever taken from). Terrain cards are codes 0-4 (data.TERRAINS order);
the deck is kept with its top card last.

Record formats: format 2 (written now) follows rules.md as amended: the discard pile is shuffled into
a new deck as soon as the deck runs out (A turn 4), so no position has an empty deck while the discard
pile holds cards. Format 1 (written before) reshuffled only when a draw found the deck empty; a state
made for a format-1 record (``legacy``) keeps that rule so that old records replay exactly as played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from builders.core.errors import IllegalAction
from builders.core.rng import Rng
from builders.core.state import Chance, GameState, Result, check_not_over, public_history
from builders.kingdom import dump, notation, rules, scoring
from builders.kingdom.board import BIT, Board, bits, cell
from builders.kingdom.data import TERRAINS
from builders.kingdom.notation import END, SHIFT, SRC_SHIFT

_CHANCE = [Chance(t) for t in TERRAINS]
_CODE_OF_TERRAIN = {t: i for i, t in enumerate(TERRAINS)}

_SLOTS = (
    "board",
    "num_players",
    "cards",
    "_setup",
    "start_player",
    "to_move",
    "own",
    "occ",
    "near",
    "supply",
    "hand",
    "deck",
    "discard",
    "removed",
    "held",
    "used",
    "new",
    "taken",
    "left",
    "built",
    "final_round",
    "over",
    "turn",
    "history",
    "forced",
    "rng",
    "legacy",
    "_legal",
)


class KingdomState(GameState[int]):
    """A Kingdom Builder position. Build one with ``KingdomBuilder().new_state(setup)`` or
    :meth:`from_json`. Its fields are those of :class:`builders.kingdom.protocol.Position`."""

    GAME = "kingdom"
    RECORD_FORMAT = 2
    __slots__ = _SLOTS

    board: Board
    cards: tuple[str, ...]
    _setup: dict[str, Any]
    start_player: int
    to_move: int
    own: list[int]
    occ: int
    near: list[int]
    supply: list[int]
    hand: list[int]
    deck: list[int]
    discard: list[int]
    removed: list[int]
    held: list[int]
    used: list[int]
    new: list[int]
    taken: list[int]
    left: list[int]
    built: int
    final_round: bool
    over: bool
    turn: int
    legacy: bool
    _legal: tuple[int, ...] | None

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def blank(
        cls, board: Board, num_players: int, cards: tuple[str, ...], setup: dict[str, Any], start_player: int, rng: Rng
    ) -> KingdomState:
        """An empty map before any draw: every tile in place, full supplies, no cards."""
        st = object.__new__(cls)
        st.board = board
        st.num_players = num_players
        st.cards = cards
        st._setup = setup
        st.start_player = start_player
        st.to_move = start_player
        st.own = [0] * num_players
        st.occ = 0
        st.near = [0] * num_players
        st.supply = [40] * num_players
        st.hand = [-1] * num_players
        st.deck = []
        st.discard = []
        st.removed = []
        st.held = [0] * num_players
        st.used = [0] * num_players
        st.new = [0] * num_players
        st.taken = [0] * num_players
        st.left = [2] * len(board.locations)
        st.built = 0
        st.final_round = False
        st.over = False
        st.turn = 0
        st.history = []
        st.forced = []
        st.rng = rng
        st.legacy = False
        st._legal = None
        return st

    #: the reader of JSON positions, ``builders.kingdom.position.load_position``; that module sets
    #: it when it is imported (importing ``builders.kingdom`` does), so that this module, which the
    #: position reader builds on, does not import it back
    position_loader: ClassVar[Callable[..., KingdomState]]

    @classmethod
    def from_json(cls, position: dict[str, Any], seed: int = 0) -> KingdomState:
        """The state of a JSON position (see :mod:`builders.kingdom.position`)."""
        return cls.position_loader(position, seed=seed)

    def copy(self) -> KingdomState:
        st = object.__new__(KingdomState)
        st.board = self.board
        st.num_players = self.num_players
        st.cards = self.cards
        st._setup = self._setup
        st.start_player = self.start_player
        st.to_move = self.to_move
        st.own = self.own[:]
        st.occ = self.occ
        st.near = self.near[:]
        st.supply = self.supply[:]
        st.hand = self.hand[:]
        st.deck = self.deck[:]
        st.discard = self.discard[:]
        st.removed = self.removed[:]
        st.held = self.held[:]
        st.used = self.used[:]
        st.new = self.new[:]
        st.taken = self.taken[:]
        st.left = self.left[:]
        st.built = self.built
        st.final_round = self.final_round
        st.over = self.over
        st.turn = self.turn
        st.history = self.history[:]
        st.forced = self.forced[:]
        st.rng = self.rng.copy()
        st.legacy = self.legacy
        st._legal = self._legal  # the same position: its remembered actions hold for the copy
        return st

    def _restore(self, other: KingdomState) -> None:
        for name in _SLOTS:
            setattr(self, name, getattr(other, name))

    # -- the decision -------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.to_move

    def is_over(self) -> bool:
        return self.over

    @property
    def record_format(self) -> int:
        """The record format whose rules this state follows (1 for a replayed format-1 record)."""
        return 1 if self.legacy else self.RECORD_FORMAT

    #: Every legal action, in a fixed order: builds, tile actions, end (see rules.legal_actions: the
    #: function itself, without a method around it, as it runs at every decision). The state keeps
    #: a copy of the list until the next ``apply``, which then needs no second legality check.
    legal_actions = rules.legal_actions

    def is_legal(self, action: int) -> bool:
        return rules.is_legal(self, action)

    def apply(self, action: int) -> None:
        legal = self._legal
        if legal is None or type(action) is not int or action not in legal:
            if not rules.is_legal(self, action):
                if self.over:
                    check_not_over(self)
                raise IllegalAction(rules.why_illegal(self, action))
        if self.forced:
            snapshot = self.copy()
            try:
                self._apply(action)
            except BaseException:
                self._restore(snapshot)
                raise
        else:
            self._apply(action)

    def _apply(self, action: int) -> None:
        self._legal = None
        self.history.append(action)
        p = self.to_move
        if action < 400:  # mandatory build (rules.place, inlined: the most frequent action)
            board = self.board
            b = BIT[action]
            self.own[p] |= b
            occ = self.occ = self.occ | b
            self.near[p] |= board.nbr_mask[action]
            adj = board.adj_loc[action]  # 0 for most hexes
            if adj and adj & ~self.taken[p]:
                rules.take_tiles(self, p, action)
            supply = self.supply[p] = self.supply[p] - 1
            built = self.built = self.built + 1
            if not supply:
                self.final_round = True
            elif built < 3:
                terrain = board.code_mask[self.hand[p]]
                if terrain & occ == terrain:  # no free hex of the played terrain left
                    self._replace_card(p)
            return
        if action == END:
            self._end_turn(p)
            return
        code = action >> SHIFT
        dst = action & 511
        tile = rules.ready_tile(self, p, code - 1)
        self.used[p] |= tile
        if code >= 6:  # barn, harbor, paddock
            rules.move(self, p, (action >> SRC_SHIFT) & 511, dst)
        else:
            self.supply[p] -= 1
            rules.place(self, p, dst)
            if not self.supply[p]:
                self.final_round = True
        t = self.hand[p]
        if self.built < 3 and self.supply[p] and t >= 0 and not self.board.code_mask[t] & ~self.occ:
            self._replace_card(p)

    # -- cards --------------------------------------------------------------------------------
    def _draw(self) -> int:
        """Draw the top card (or the forced one). Returns -1 when there is no card left at all.

        Format 2: when the draw took the last card, the discard pile becomes the new deck at once.
        Format 1 (``legacy``): the discard pile is shuffled only when a draw finds the deck empty."""
        deck = self.deck
        if not deck and self.discard:  # format 1 only: format 2 never leaves an empty deck here
            self._reshuffle()
            deck = self.deck
        forced = self.take_forced() if self.forced else None
        if forced is not None:
            code = _CODE_OF_TERRAIN.get(forced)
            if code is None:
                raise notation.bad_draw(forced, in_deck=False)
            if code not in deck:
                raise notation.bad_draw(forced, in_deck=True)
            # take it out of the deck wherever it is (the top is the end of the list)
            i = len(deck) - 1 - deck[::-1].index(code)
            del deck[i]
        elif deck:
            code = deck.pop()
        else:
            return -1
        self.history.append(_CHANCE[code])
        if not deck and self.discard and not self.legacy:
            self._reshuffle()
        return code

    def _reshuffle(self) -> None:
        """rules.md, A turn 4: the discard pile is shuffled into a new deck (hands and removed cards
        stay out of it)."""
        deck = self.deck = self.discard
        self.discard = []
        self.rng.shuffle(deck)

    def _replace_card(self, p: int) -> None:
        """Building rule 4: while the played terrain has no free hex, remove it and draw again."""
        code_mask = self.board.code_mask
        while self.hand[p] >= 0 and not code_mask[self.hand[p]] & ~self.occ:
            self.removed.append(self.hand[p])
            self.hand[p] = self._draw()

    def _end_turn(self, p: int) -> None:
        if self.hand[p] >= 0:
            self.discard.append(self.hand[p])
            if not self.deck and not self.legacy:
                # the deck ran out with the discard pile empty (every card in hands or removed):
                # the discarded card alone becomes the new deck at once
                self._reshuffle()
        self.hand[p] = -1
        self.used[p] = 0
        self.new[p] = 0
        self.built = 0
        if self.final_round and p == (self.start_player - 1) % self.num_players:
            self.over = True
            return
        self.hand[p] = self._draw()
        self.turn += 1
        q = self.to_move = (p + 1) % self.num_players
        t = self.hand[q]
        if t >= 0 and self.supply[q] and not self.board.code_mask[t] & ~self.occ:
            self._replace_card(q)

    # -- results ------------------------------------------------------------------------------
    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over")
        return scoring.result(self)

    def score_breakdown(self) -> list[dict[str, int]]:
        """The gold each seat would score now, per card (castles first), at any time of the game."""
        return [scoring.breakdown(self, seat) for seat in range(self.num_players)]

    def scoring_hexes(self, seat: int, card: str) -> list[tuple[int, int]]:
        """The hexes (settlements, castles, locations) that score ``card`` (or "castles") for seat."""
        return scoring.scoring_hexes(self, seat, card)

    # -- notation -----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return notation.to_string(action)

    def parse_action(self, text: str) -> int:
        action = notation.parse(text)
        if not rules.is_legal(self, action):
            raise IllegalAction(rules.why_illegal(self, action))
        return action

    def to_record(self) -> dict[str, Any]:
        """The record, in the format of the rules this state follows (a replayed format-1 game
        goes on as format 1)."""
        record = super().to_record()
        record["format"] = self.record_format
        return record

    # -- information --------------------------------------------------------------------------
    @property
    def setup(self) -> dict[str, Any]:
        import copy

        return copy.deepcopy(self._setup)

    def to_json(self) -> dict[str, Any]:
        return dump.dump_position(self)

    def observation(self, seat: int | None) -> dict[str, Any]:
        return dump.observation(self, seat)

    def resample_hidden(self, seat: int, rng: Rng) -> KingdomState:
        """A copy with the deck order and the hidden hand cards of the other seats redrawn.

        The card of the player to move is public once their turn began (rules.md, "A turn" 1).
        The result depends only on what ``seat`` sees and on ``rng``: the unseen cards are pooled in
        sorted order before the shuffle, the copy gets a generator drawn from ``rng`` for its own
        reshuffles of the discard pile, and pending forced draws and the
        drawn cards of the history (which would show what was hidden) are dropped."""
        st = self.copy()
        hidden = [
            q
            for q in range(self.num_players)
            if q != seat and st.hand[q] >= 0 and not (q == st.to_move and not st.over)
        ]
        pool = sorted(st.deck + [st.hand[q] for q in hidden])
        rng.shuffle(pool)
        for q in hidden:
            st.hand[q] = pool.pop()
        st.deck = pool
        st.forced = []
        st.rng = Rng(rng.next64())
        st.history = public_history(st.history)
        st._legal = None
        return st

    def preview_turn(self, seat: int, terrain: int) -> KingdomState:
        """A copy in which ``seat`` starts a turn holding terrain card ``terrain`` (a code), with
        every settlement and tile as now: a position to plan in (the bots look at the next turn
        with each card), not one the game reaches; its deck, discard pile and other hands are
        this state's."""
        st = self.copy()
        st.to_move = seat
        st.hand[seat] = terrain
        st.built = 0
        st.used[seat] = 0
        st.new[seat] = 0
        st._legal = None
        return st

    # -- helpers ------------------------------------------------------------------------------
    def settlements(self, seat: int) -> list[tuple[int, int]]:
        """The hexes of ``seat``'s settlements, as (R, C), in index order."""
        return [cell(h) for h in bits(self.own[seat])]

    def mandatory_done(self) -> bool:
        return rules.mandatory_done(self)

    def __repr__(self) -> str:
        return (
            f"KingdomState(turn={self.turn}, to_move={self.to_move}, built={self.built}, "
            f"supply={self.supply}, over={self.over})"
        )


def bit_of(row: int, col: int) -> int:
    return BIT[row * 20 + col]
