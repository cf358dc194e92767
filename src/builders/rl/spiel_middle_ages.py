"""The Builders: Middle Ages' part of the OpenSpiel game (:mod:`builders.rl.openspiel`): the worker that
refills the worker row (outcome = card index 0-41, drawn from the worker deck); when a building or
machine is taken, the row is refilled with the visible top of the building deck and the chance node
draws the new top (card index 42-83) from the cards below it (rules.md, "Information": the top of the
building deck is public). The rules set no bound on a game's length: a game is cut after
``max_rounds`` rounds, the leaders in VP winning."""

from __future__ import annotations

from collections import Counter
from typing import Any

from builders.rl.base import MAX_ROUNDS
from builders.rl.kit import SpielParts


def middle_ages_max_length(players: int, params: dict[str, Any] | None = None) -> int:
    """The most player decisions of a Builders game cut after ``max_rounds`` rounds.

    The rules alone set no bound (seats that only take coins never end the game), hence the cut. In
    T turns a seat has 3T free actions and P bought ones; every decision but "end" (one a turn) and
    "buy" (one per bought action) spends at least one action, so it makes at most 4T + 2P decisions.
    A bought action costs 5 coins; coins come from the 10 at the start, from actions (at most 2 an
    action: coins 3 gives 6) and from completed buildings (B in all): 5P <= 10 + 2(3T + P) + B, so
    3P <= 10 + 6T + B. Over all seats (sum of T = the turns of the game, B shared): at most
    8 turns + (20 n + 2 B) / 3."""
    from builders.middle_ages.cards import REWARD

    max_rounds = (params or {}).get("max_rounds", MAX_ROUNDS)
    return 8 * max_rounds * players + (20 * players + 2 * sum(REWARD)) // 3


def draws(st: Any, action: int) -> int:
    """How many chance draws ``action`` makes (0 if none)."""
    from builders.middle_ages.rules import OPEN, RECRUIT, SEND

    if RECRUIT <= action < SEND:
        return 1 if st.wdeck else 0
    if OPEN <= action < RECRUIT:
        return 1 if len(st.bdeck) >= 2 else 0  # the new top, when one is left below the visible one
    return 0


def pool(st: Any, pending: int, drawn: list[int]) -> Counter[int]:
    from builders.middle_ages.rules import RECRUIT

    if pending >= RECRUIT:
        return Counter(st.wdeck)
    return Counter(st.bdeck[:-1])  # the new top, from below the visible one


def apply_chance(st: Any, pending: int, drawn: list[int]) -> bool:
    from builders.middle_ages.cards import IDS
    from builders.middle_ages.rules import RECRUIT

    outcome = drawn[-1]
    if pending >= RECRUIT:
        st.forced = [IDS[outcome]]
        st.apply(pending)
    else:
        st.forced = [IDS[st.bdeck[-1]]]
        st.apply(pending)
        deck = st.bdeck
        deck.remove(outcome)
        deck.append(outcome)
    return True


def _outcome(c: int) -> str:
    from builders.middle_ages.cards import IDS

    return f"draw {IDS[c]}"


def cut_winners(st: Any) -> list[int]:
    """The leaders in VP of a game cut before its end."""
    best = max(st.vp)
    return [p for p, v in enumerate(st.vp) if v == best]


PARTS = SpielParts(
    long_name="The Builders: Middle Ages (builders)",
    max_length=middle_ages_max_length,
    max_chance_outcomes=84,
    outcome_string=_outcome,
    pool=pool,
    apply_chance=apply_chance,
    draws=draws,
    cut_winners=cut_winners,
)
