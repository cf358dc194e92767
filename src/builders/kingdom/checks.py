"""Checks shared by setups (:mod:`builders.kingdom.setup`) and JSON positions
(:mod:`builders.kingdom.position`): players, sections, cards, decks and seeds, each with a one-sentence
error naming what is wrong and where. Any JSON value may come in: a wrong type is an error like any
other, never a TypeError.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeGuard

from builders.core.errors import BuildersError, InvalidSetup
from builders.core.messages import msg, word
from builders.core.rng import seed_from
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS
from builders.kingdom.rules import TERRAIN_WORD


def shown(value: Any, depth: int = 0) -> str:
    """A short readable form of a JSON value for an error message: long strings, long lists, deep
    nesting and huge numbers are cut (a plain repr of them can be endless or fail), and the whole is
    at most 100 characters."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        text = repr(value) if -(10**18) < value < 10**18 else "a number too large"
    elif isinstance(value, str):
        text = repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    elif isinstance(value, (list, tuple)):
        if depth >= 2:
            text = "[...]" if value else "[]"
        else:
            items = [shown(v, depth + 1) for v in value[:4]]
            text = "[" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "]"
    elif isinstance(value, dict):
        if depth >= 2:
            text = "{...}" if value else "{}"
        else:
            items = [f"{shown(k, depth + 1)}: {shown(v, depth + 1)}" for k, v in list(value.items())[:4]]
            text = "{" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "}"
    else:
        text = f"a {type(value).__name__}"
    if depth == 0 and len(text) > 100:
        text = text[:97] + "..."
    return text


#: the terrain deck of a setup, as its checks name it
DECK = word("cards", "deck")


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number (JSON integer), not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_players(players: Any) -> int:
    if not is_int(players):
        raise InvalidSetup(msg("players must be a whole number from 2 to 4, not {value}", value=shown(players)))
    if not 2 <= players <= 4:
        raise InvalidSetup(msg("Kingdom Builder is for 2 to 4 players, not {value}", value=shown(players)))
    return players


def check_sections(sections: Any, error: type[BuildersError] = InvalidSetup) -> tuple[tuple[str, bool], ...]:
    """4 distinct (name, turned) pairs for slots 0-3."""
    if not isinstance(sections, (list, tuple)):
        raise error(msg("sections must be a list of 4 [name, turned] pairs"))
    if len(sections) != 4:
        raise error(msg("the map needs 4 sections, not {count}", count=len(sections)))
    out: list[tuple[str, bool]] = []
    for slot, pair in enumerate(sections):
        if isinstance(pair, str):
            name, turned = pair, False
        elif isinstance(pair, (list, tuple)) and len(pair) == 2:
            name, turned = pair
        else:
            raise error(msg("section {slot} must be a [name, turned] pair, not {value}", slot=slot, value=shown(pair)))
        if not isinstance(name, str) or name not in SECTION_NAMES:
            raise error(
                msg(
                    "unknown section name {value} in slot {slot} (the sections are {names})",
                    value=shown(name),
                    slot=slot,
                    names=", ".join(SECTION_NAMES),
                )
            )
        if not isinstance(turned, bool):
            raise error(
                msg(
                    "section {slot} ({name}): turned must be true or false, not {value}",
                    slot=slot,
                    name=name,
                    value=shown(turned),
                )
            )
        if any(n == name for n, _ in out):
            raise error(msg("duplicate section {name!r}: the map needs 4 different sections", name=name))
        out.append((name, turned))
    return tuple(out)


def check_cards(cards: Any, error: type[BuildersError] = InvalidSetup) -> tuple[str, ...]:
    if not isinstance(cards, (list, tuple)):
        raise error(msg("cards must be a list of 3 Kingdom Builder card names"))
    if len(cards) != 3:
        raise error(msg("a game uses 3 Kingdom Builder cards, not {count}", count=len(cards)))
    for card in cards:
        if not isinstance(card, str) or card not in CARDS:
            raise error(msg("unknown card {value} (the cards are {names})", value=shown(card), names=", ".join(CARDS)))
    dup = [c for c, n in Counter(cards).items() if n > 1]
    if dup:
        raise error(msg("duplicate card {name!r}: the game uses 3 different cards", name=dup[0]))
    return tuple(cards)


def check_terrain_names(value: Any, error: type[BuildersError], what: Any) -> list[str]:
    """A list of terrain names (any number); ``what`` names the list in the message."""
    if not isinstance(value, (list, tuple)):
        raise error(msg("the {what} must be a list of terrain names, not {value}", what=what, value=shown(value)))
    for i, name in enumerate(value):
        if not isinstance(name, str) or name not in TERRAINS:
            raise error(
                msg(
                    "unknown terrain {value} at place {i} of the {what} (the terrains are {names})",
                    value=shown(name),
                    i=i,
                    what=what,
                    names=", ".join(TERRAINS),
                )
            )
    return list(value)


def check_deck(deck: Any, error: type[BuildersError] = InvalidSetup, what: Any = DECK) -> list[str]:
    """25 terrain names, 5 of each."""
    if not isinstance(deck, (list, tuple)):
        raise error(msg("the {what} must be a list of 25 terrain names, top first", what=what))
    for name in deck:
        if not isinstance(name, str) or name not in TERRAINS:
            raise error(
                msg(
                    "unknown terrain {value} in the {what} (the terrains are {names})",
                    value=shown(name),
                    what=what,
                    names=", ".join(TERRAINS),
                )
            )
    counts = Counter(deck)
    for name in TERRAINS:
        if counts[name] != 5:
            raise error(
                msg(
                    "the {what} has {count} {terrain}, not 5 (25 cards: 5 of each terrain)",
                    what=what,
                    count=counts[name],
                    terrain=TERRAIN_WORD[TERRAINS.index(name)],
                )
            )
    return list(deck)


def check_seed(seed: Any, error: type[BuildersError] = InvalidSetup) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise error(msg("the seed must be an integer, not {value}", value=shown(seed)))
    try:
        return seed_from(seed)
    except UnicodeEncodeError:
        raise error(msg("the seed is a string that is not valid text (unpaired surrogate)")) from None
