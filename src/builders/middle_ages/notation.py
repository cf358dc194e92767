"""Action notation: ``open B07``, ``recruit W12``, ``send W12 B07``, ``send M3 B07``, ``coins 2``,
``buy``, ``end``. Card ids are read case-insensitively and with or without the leading zero
(``w7`` is ``W07``); actions are always written in the canonical form."""

from __future__ import annotations

from builders.core.errors import IllegalAction, shown
from builders.core.messages import msg
from builders.middle_ages.cards import BUILDING_DECK, CARDS, IDS, MACHINES, WORKERS, card_id_index
from builders.middle_ages.codes import BUY, COINS, END, OPEN, RECRUIT, SEND, send_code, send_parts

VERBS = "open, recruit, send, coins, buy or end"
#: what recruiting a card that is not a worker says, by the card's kind
_NOT_A_WORKER = {
    "building": lambda card: msg("{card} is a building, not a worker", card=card),
    "machine": lambda card: msg("{card} is a machine, not a worker", card=card),
}


def bad_draw(name: object, building: bool) -> IllegalAction:
    """The error of a recorded draw ``name`` that is not in the building (or the worker) deck."""
    if building:
        return IllegalAction(msg("the recorded draw {name} is not in the building deck", name=name))
    return IllegalAction(msg("the recorded draw {name} is not in the worker deck", name=name))


def action_text(action: int) -> str:
    """The notation of a well-formed action code."""
    if action == END:
        return "end"
    if action == BUY:
        return "buy"
    if action <= COINS + 3:
        return f"coins {action - COINS}"
    if action < RECRUIT:
        return f"open {IDS[action - OPEN]}"
    if action < SEND:
        return f"recruit {IDS[action - RECRUIT]}"
    worker, site = send_parts(action)
    return f"send {IDS[worker]} {IDS[site]}"


def _card(text: str) -> int:
    index = card_id_index(text)
    if index is None:
        raise IllegalAction(
            msg("{text} is not a card id (workers W01-W42, buildings B01-B34, machines M1-M8)", text=shown(text))
        )
    return index


def _site(text: str) -> int:
    index = _card(text)
    if index not in BUILDING_DECK:
        raise IllegalAction(msg("{card} is a worker, not a building or a machine", card=IDS[index]))
    return index


def parse(text: str) -> int:
    """The action code of ``text``; raises IllegalAction if it is not well formed (legality is checked
    by the state)."""
    if not isinstance(text, str):
        raise IllegalAction(msg("an action is written as text, not {value}", value=shown(text)))
    words = text.split()
    verb = words[0].lower() if words else ""
    args = words[1:]
    if verb in ("end", "buy"):
        if args:
            raise IllegalAction(msg("{verb} takes no argument: write just {verb}", verb=verb))
        return END if verb == "end" else BUY
    if verb == "coins":
        if len(args) != 1 or args[0] not in ("1", "2", "3"):
            raise IllegalAction(
                msg(
                    "coins takes the number of actions to spend: coins 1 (1 coin), "
                    "coins 2 (3 coins) or coins 3 (6 coins)"
                )
            )
        return COINS + int(args[0])
    if verb == "open":
        if len(args) != 1:
            raise IllegalAction(msg("open takes one building or machine of the row, e.g. open B07"))
        return OPEN + _site(args[0])
    if verb == "recruit":
        if len(args) != 1:
            raise IllegalAction(msg("recruit takes one worker of the row, e.g. recruit W12"))
        index = _card(args[0])
        if index not in WORKERS:
            raise IllegalAction(_NOT_A_WORKER[CARDS[index].kind](IDS[index]))
        return RECRUIT + index
    if verb == "send":
        if len(args) != 2:
            raise IllegalAction(
                msg("send takes a worker (or a completed machine) and one of your sites, e.g. send W12 B07")
            )
        worker = _card(args[0])
        if worker not in WORKERS and worker not in MACHINES:
            raise IllegalAction(msg("{card} is a building, not a worker or a machine", card=IDS[worker]))
        return send_code(worker, _site(args[1]))
    written = text if len(text) <= 40 else text[:37] + "..."
    raise IllegalAction(
        msg('"{text}" is not an action (expected open, recruit, send, coins, buy or end)', text=written)
    )
