"""The rules as data and small functions: action codes, action costs, the reasons an action is illegal,
and the test that no VP can be gained any more.

Actions are small integers (cheap to make, compare and hash):

==================  ===================================  ============================
action              code                                 notation
==================  ===================================  ============================
end the turn        ``END`` = 0                          ``end``
buy an action       ``BUY`` = 1                          ``buy``
take coins          ``COINS + k`` (k = 1, 2, 3 actions)  ``coins 1|2|3``
open a site         ``OPEN + card``                      ``open B07``
recruit a worker    ``RECRUIT + card``                   ``recruit W12``
send a worker       ``SEND + (site << 7) + worker``      ``send W12 B07``
==================  ===================================  ============================

``card``, ``site`` and ``worker`` are card indices (:mod:`builders.middle_ages.cards`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from builders.middle_ages.cards import (
    BUILDING_DECK, COST, IDS, MACHINES, NUM_CARDS, PROD, REQ, WORKERS, covers,
)

if TYPE_CHECKING:
    from builders.middle_ages.state import MiddleAgesState

END = 0
BUY = 1
COINS = 1                    # COINS + k, k = 1, 2, 3
OPEN = 256
RECRUIT = 512
SEND = 1024

FREE_ACTIONS = 3             # per turn
ACTION_PRICE = 5             # coins per bought action
START_COINS = 10
ROW_SIZE = 5
END_TRIGGER_VP = 17
#: coins gained for 0, 1, 2, 3 actions
COIN_GAIN = (0, 1, 3, 6)


def send_code(worker: int, site: int) -> int:
    return SEND + (site << 7) + worker


def send_parts(action: int) -> tuple[int, int]:
    """(worker, site) of a send action."""
    return action & 127, (action >> 7) - (SEND >> 7)


def send_actions(already_sent: int) -> int:
    """Actions to send one more worker to a site that has had ``already_sent`` workers this turn."""
    return already_sent + 1


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def is_action_code(action: object) -> bool:
    """True if ``action`` is well formed (whatever the position)."""
    if type(action) is not int:
        return False
    if action in (END, BUY) or COINS + 1 <= action <= COINS + 3:
        return True
    if OPEN <= action < OPEN + NUM_CARDS:
        return action - OPEN in BUILDING_DECK
    if RECRUIT <= action < RECRUIT + NUM_CARDS:
        return action - RECRUIT in WORKERS
    if action >= SEND:
        worker, site = send_parts(action)
        return (0 <= site < NUM_CARDS and site in BUILDING_DECK
                and (worker in WORKERS or worker in MACHINES))
    return False


def why_illegal(state: MiddleAgesState, action: object) -> str | None:
    """Why ``action`` cannot be played now, in words; None if it is legal."""
    from builders.middle_ages.notation import action_text

    if state.over:
        return "the game is over"
    if not is_action_code(action):
        return f"{action!r} is not an action of The Builders: Middle Ages"
    assert isinstance(action, int)
    p = state.cur
    left = state.actions
    coins = state.coins[p]
    text = action_text(action)
    if action == END:
        if left:
            return f"you must spend your {plural(left, 'remaining action')} before ending the turn"
        return None
    if action == BUY:
        if coins < ACTION_PRICE:
            return f"buy needs {ACTION_PRICE} coins; you have {coins}"
        return None
    if action <= COINS + 3:
        k = action - COINS
        if k > left:
            return f"{text} needs {plural(k, 'action')}; you have {left}"
        return None
    if action < RECRUIT:
        card = action - OPEN
        if action not in state.brow:
            return f"{IDS[card]} is not in the building row"
        if left < 1:
            return f"{text} needs 1 action; you have 0"
        return None
    if action < SEND:
        card = action - RECRUIT
        if action not in state.wrow:
            return f"{IDS[card]} is not in the worker row"
        if left < 1:
            return f"{text} needs 1 action; you have 0"
        return None
    worker, site = send_parts(action)
    if worker not in state.crew[p]:
        return f"{IDS[worker]} is not in your crew"
    if site not in state.sites[p]:
        return f"you have no site {IDS[site]}"
    need = send_actions(state.sent[site])
    cost = COST[worker]
    if need > left or cost > coins:
        lacking = []
        if need > left:
            lacking.append(plural(left, "action"))
        if cost > coins:
            lacking.append(plural(coins, "coin"))
        return (f"{text} costs {plural(need, 'action')} and {plural(cost, 'coin')}; "
                f"you have {' and '.join(lacking)}")
    return None


def can_gain_vp(state: MiddleAgesState) -> bool:
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
    free = 0
    for code in state.wrow:
        free += PROD[code - RECRUIT]
    for w in state.wdeck:
        free += PROD[w]
    for p in range(state.num_players):
        mine = free
        for w in state.crew[p]:
            mine += PROD[w]
        for s in state.sites[p]:
            if covers(state.progress[s] + mine, REQ[s]):
                return True
    return False
