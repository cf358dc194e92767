"""The rules as small functions over a position: the reasons an action is illegal, and the test that
no VP can be gained any more. The action codes and the numbers of the rules are in
:mod:`builders.middle_ages.codes` (and are importable from here too).
"""

from __future__ import annotations

from typing import Protocol

from builders.core.errors import shown
from builders.core.messages import Message, msg
from builders.middle_ages.cards import COST, GUARD, IDS, PROD, REQ
from builders.middle_ages.codes import (  # noqa: F401 - the action codes and numbers, importable from here
    ACTION_PRICE,
    BUY,
    COIN_GAIN,
    COINS,
    END,
    END_TRIGGER_VP,
    FREE_ACTIONS,
    OPEN,
    RECRUIT,
    ROW_SIZE,
    SEND,
    START_COINS,
    is_action_code,
    send_actions,
    send_code,
    send_parts,
)
from builders.middle_ages.notation import action_text


class Position(Protocol):
    """What these rules read of a position (:class:`builders.middle_ages.state.MiddleAgesState`)."""

    num_players: int
    over: bool
    cur: int
    actions: int
    coins: list[int]
    crew: list[list[int]]
    sites: list[list[int]]
    sent: list[int]
    progress: list[int]
    brow: list[int]
    bdeck: list[int]
    wrow: list[int]
    wdeck: list[int]
    #: the packed production of every worker in the worker row and deck
    unrecruited: int


def _actions(n: int) -> Message:
    return msg("{n} action", n=n) if n == 1 else msg("{n} actions", n=n)


def _coins(n: int) -> Message:
    return msg("{n} coin", n=n) if n == 1 else msg("{n} coins", n=n)


def _needs(text: str, k: int, left: int) -> Message:
    return msg("{action} needs {actions}; you have {left}", action=text, actions=_actions(k), left=left)


def why_illegal(state: Position, action: object) -> Message | None:
    """Why ``action`` cannot be played now, as a message (``str()`` of it is the English text); None if
    it is legal."""
    if state.over:
        return msg("the game is over")
    if not is_action_code(action):
        return msg("{action} is not an action of The Builders: Middle Ages", action=shown(action))
    assert isinstance(action, int)
    p = state.cur
    left = state.actions
    coins = state.coins[p]
    text = action_text(action)
    if action == END:
        if left:
            return msg(
                "you must spend your {actions} before ending the turn",
                actions=msg("{n} remaining action", n=left) if left == 1 else msg("{n} remaining actions", n=left),
            )
        return None
    if action == BUY:
        if coins < ACTION_PRICE:
            return msg("buy needs {price} coins; you have {coins}", price=ACTION_PRICE, coins=coins)
        return None
    if action <= COINS + 3:
        k = action - COINS
        if k > left:
            return _needs(text, k, left)
        return None
    if action < RECRUIT:
        card = action - OPEN
        if action not in state.brow:
            return msg("{card} is not in the building row", card=IDS[card])
        if left < 1:
            return _needs(text, 1, left)
        return None
    if action < SEND:
        card = action - RECRUIT
        if action not in state.wrow:
            return msg("{card} is not in the worker row", card=IDS[card])
        if left < 1:
            return _needs(text, 1, left)
        return None
    worker, site = send_parts(action)
    if worker not in state.crew[p]:
        return msg("{card} is not in your crew", card=IDS[worker])
    if site not in state.sites[p]:
        return msg("you have no site {card}", card=IDS[site])
    need = send_actions(state.sent[site])
    cost = COST[worker]
    if need > left or cost > coins:
        if need > left and cost > coins:
            lacking = msg("{actions} and {coins}", actions=_actions(left), coins=_coins(coins))
        else:
            lacking = _actions(left) if need > left else _coins(coins)
        return msg(
            "{action} costs {actions} and {coins}; you have {lacking}",
            action=text,
            actions=_actions(need),
            coins=_coins(cost),
            lacking=lacking,
        )
    return None


def can_gain_vp(state: Position) -> bool:
    """False when no building or machine VP can be gained any more, whatever anyone does.

    That is so when the building row and deck are empty and no open site can ever be completed: a
    site can be completed when the workers on it, plus every free worker of its owner, plus every
    worker not yet recruited (row and deck) produce its requirement (coins and actions are no limit
    over enough turns). If no site passes this test, no site is ever completed, so no worker ever
    comes back and the test keeps failing. With no open site at all (the case rules.md names) it
    fails at once.
    """
    if state.brow or state.bdeck:
        return True
    free = state.unrecruited
    progress = state.progress
    for p in range(state.num_players):
        sites = state.sites[p]
        if sites:
            mine = free + sum(map(_PROD_OF, state.crew[p]))
            for s in sites:
                if (((progress[s] + mine) | GUARD) - REQ[s]) & GUARD == GUARD:  # cards.covers, inlined
                    return True
    return False


_PROD_OF = PROD.__getitem__
