"""Action codes of The Builders: Middle Ages and the numbers of the rules (no logic that needs a
position). Every other module of the engine depends on this one, never the other way round.

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

from builders.middle_ages.cards import BUILDING_DECK, MACHINES, NUM_CARDS, WORKERS

END = 0
BUY = 1
COINS = 1  # COINS + k, k = 1, 2, 3
OPEN = 256
RECRUIT = 512
SEND = 1024

FREE_ACTIONS = 3  # per turn
ACTION_PRICE = 5  # coins per bought action
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
        return 0 <= site < NUM_CARDS and site in BUILDING_DECK and (worker in WORKERS or worker in MACHINES)
    return False
