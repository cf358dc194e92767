"""KingdomState: one Kingdom Builder position with its history.

Settlements are bit masks (one bit per hex, see :mod:`builders.kingdom.board`); tiles are masks of
the location hexes they came from (``held``, ``used`` this turn, ``new`` = taken this turn,
``taken`` = every location ever taken from). Terrain cards are codes 0-4 (data.TERRAINS order);
the deck is kept with its top card last.
"""

from __future__ import annotations

from typing import Any

from builders.core.errors import IllegalAction
from builders.core.rng import Rng
from builders.core.state import Chance, GameState, Result, check_not_over, public_history
from builders.kingdom import notation, rules
from builders.kingdom.board import BIT, Board
from builders.kingdom.data import TERRAINS
from builders.kingdom.notation import END, SHIFT, SRC_SHIFT

_CHANCE = [Chance(t) for t in TERRAINS]
_CODE_OF_TERRAIN = {t: i for i, t in enumerate(TERRAINS)}

_SLOTS = (
    "board", "num_players", "cards", "_setup", "start_player", "to_move", "own", "occ", "near",
    "supply", "hand", "deck", "discard", "removed", "held", "used", "new", "taken", "left", "built",
    "final_round", "over", "turn", "history", "forced", "rng",
)


class KingdomState(GameState):
    """A Kingdom Builder position. Build one with ``KingdomBuilder().new_state(setup)`` or
    :meth:`from_json`."""

    GAME = "kingdom"
    __slots__ = _SLOTS

    board: Board

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def blank(cls, board: Board, num_players: int, cards: tuple[str, ...], setup: dict[str, Any],
              start_player: int, rng: Rng) -> KingdomState:
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
        return st

    @classmethod
    def from_json(cls, position: dict[str, Any], seed: int = 0) -> KingdomState:
        """The state of a JSON position (see :mod:`builders.kingdom.position`)."""
        from builders.kingdom.position import load_position

        return load_position(position, seed=seed)

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

    def legal_actions(self) -> list[int]:
        """Every legal action, in a fixed order: builds, tile actions, end."""
        return rules.legal_actions(self)

    def is_legal(self, action: int) -> bool:
        return rules.is_legal(self, action)

    def apply(self, action: int) -> None:
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
        self.history.append(action)
        p = self.to_move
        if action < 400:  # mandatory build
            self.supply[p] -= 1
            rules.place(self, p, action)
            self.built += 1
            if not self.supply[p]:
                self.final_round = True
            elif self.built < 3 and not self.board.code_mask[self.hand[p]] & ~self.occ:
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
        """Draw the top card (or the forced one); reshuffle the discard pile into an empty deck.
        Returns -1 when there is no card left at all."""
        deck = self.deck
        if not deck and self.discard:
            deck = self.deck = self.discard
            self.discard = []
            self.rng.shuffle(deck)
        forced = self.take_forced() if self.forced else None
        if forced is not None:
            code = _CODE_OF_TERRAIN.get(forced)
            if code is None:
                raise IllegalAction(f"{forced!r} is not a terrain card (expected one of {', '.join(TERRAINS)})")
            if code not in deck:
                raise IllegalAction(f"no {forced} card is left in the deck to draw")
            # take it out of the deck wherever it is (the top is the end of the list)
            i = len(deck) - 1 - deck[::-1].index(code)
            del deck[i]
        elif deck:
            code = deck.pop()
        else:
            return -1
        self.history.append(_CHANCE[code])
        return code

    def _replace_card(self, p: int) -> None:
        """Building rule 4: while the played terrain has no free hex, remove it and draw again."""
        code_mask = self.board.code_mask
        while self.hand[p] >= 0 and not code_mask[self.hand[p]] & ~self.occ:
            self.removed.append(self.hand[p])
            self.hand[p] = self._draw()

    def _end_turn(self, p: int) -> None:
        if self.hand[p] >= 0:
            self.discard.append(self.hand[p])
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
        from builders.kingdom.scoring import result

        return result(self)

    def score_breakdown(self) -> list[dict[str, int]]:
        """The gold each seat would score now, per card (castles first), at any time of the game."""
        from builders.kingdom.scoring import breakdown

        return [breakdown(self, seat) for seat in range(self.num_players)]

    def scoring_hexes(self, seat: int, card: str) -> list[tuple[int, int]]:
        """The hexes (settlements, castles, locations) that score ``card`` (or "castles") for seat."""
        from builders.kingdom.scoring import scoring_hexes

        return scoring_hexes(self, seat, card)

    # -- notation -----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return notation.to_string(action)

    def parse_action(self, text: str) -> int:
        action = notation.parse(text)
        if not rules.is_legal(self, action):
            raise IllegalAction(rules.why_illegal(self, action))
        return action

    # -- information --------------------------------------------------------------------------
    @property
    def setup(self) -> dict[str, Any]:
        import copy

        return copy.deepcopy(self._setup)

    def to_json(self) -> dict[str, Any]:
        from builders.kingdom.position import dump_position

        return dump_position(self)

    def observation(self, seat: int) -> dict[str, Any]:
        from builders.kingdom.position import observation

        return observation(self, seat)

    def resample_hidden(self, seat: int, rng: Rng) -> KingdomState:
        """A copy with the deck order and the hidden hand cards of the other seats redrawn.

        The card of the player to move is public once their turn began (rules.md, "A turn" 1).
        The result depends only on what ``seat`` sees and on ``rng``: the unseen cards are pooled in
        sorted order before the shuffle, the copy gets a generator drawn from ``rng`` for its own
        reshuffles of the discard pile, and pending forced draws and the
        drawn cards of the history (which would show what was hidden) are dropped."""
        st = self.copy()
        hidden = [q for q in range(self.num_players)
                  if q != seat and st.hand[q] >= 0 and not (q == st.to_move and not st.over)]
        pool = sorted(st.deck + [st.hand[q] for q in hidden])
        rng.shuffle(pool)
        for q in hidden:
            st.hand[q] = pool.pop()
        st.deck = pool
        st.forced = []
        st.rng = Rng(rng.next64())
        st.history = public_history(st.history)
        return st

    # -- helpers ------------------------------------------------------------------------------
    def settlements(self, seat: int) -> list[tuple[int, int]]:
        """The hexes of ``seat``'s settlements, as (R, C), in index order."""
        from builders.kingdom.board import bits, cell

        return [cell(h) for h in bits(self.own[seat])]

    def mandatory_done(self) -> bool:
        return rules.mandatory_done(self)

    def __repr__(self) -> str:
        return (f"KingdomState(turn={self.turn}, to_move={self.to_move}, built={self.built}, "
                f"supply={self.supply}, over={self.over})")


def bit_of(row: int, col: int) -> int:
    return BIT[row * 20 + col]
