"""Kingdom Builder's part of the OpenSpiel game (:mod:`builders.rl.openspiel`): a terrain card (outcome
0-4, grass, canyon, desert, flower, forest) drawn from the deck, or from the discard pile reshuffled
when the deck is empty (rules.md, "A turn")."""

from __future__ import annotations

from collections import Counter
from typing import Any

from builders.core.state import Chance
from builders.rl.kit import SpielParts

TERRAINS = ("grass", "canyon", "desert", "flower", "forest")


def kingdom_max_length(players: int, params: dict[str, Any] | None = None) -> int:
    """The most player decisions (indices, picks included) a Kingdom Builder game can have, from the rules.

    Every turn builds 3 settlements of the 40 of the supply (fewer only with fewer left: a card with no
    free hex is replaced), so a seat has at most 14 turns. A settlement costs at most 2 indices (a
    tile's build: the tile, then the hex); a seat holds at most 6 move tiles (2 locations of each of
    the 3 move kinds), each used once a turn for 3 indices; and a turn ends with one index. So a seat
    plays at most 40 * 2 + 14 * (6 * 3 + 1) = 346 indices."""
    return players * (40 * 2 + 14 * (6 * 3 + 1))


def _end() -> int:
    from builders.kingdom.notation import END

    return END


def _draws_with(st: Any, pending: Any, drawn: list[int]) -> int:
    probe = st.copy()
    probe.forced = [TERRAINS[c] for c in drawn]
    before = len(probe.history)
    probe.apply(pending)
    return sum(isinstance(e, Chance) for e in probe.history[before:])


def pool(st: Any, pending: Any, drawn: list[int]) -> Counter[int]:
    """The cards the next draw may give: the draws so far replayed on the counts of the deck and the
    discard pile (the card played at ``end`` joins the pile first)."""
    deck = Counter(st.deck)
    discard = Counter(st.discard)
    if pending == _end() and st.hand[st.current_player] >= 0:
        discard[st.hand[st.current_player]] += 1
    for c in drawn:
        if not sum(deck.values()):
            deck, discard = discard, Counter()
        deck[c] -= 1
        deck = +deck
    return +(deck if sum(deck.values()) else discard)


def apply_chance(st: Any, pending: Any, drawn: list[int]) -> bool:
    """Play ``pending`` with the cards ``drawn`` once they are all the draws it makes (True)."""
    if _draws_with(st, pending, drawn) > len(drawn):
        return False  # another card is drawn in the same action
    st.forced = [TERRAINS[c] for c in drawn]
    st.apply(pending)
    st.forced = []
    return True


PARTS = SpielParts(
    long_name="Kingdom Builder (builders)",
    max_length=kingdom_max_length,
    max_chance_outcomes=5,
    outcome_string=lambda c: f"draw {TERRAINS[c]}",
    pool=pool,
    apply_chance=apply_chance,
)
