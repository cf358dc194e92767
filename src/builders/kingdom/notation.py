"""Action notation and the small-int action encoding.

One action per line::

    build R,C                      a settlement of the mandatory build
    oracle R,C | farm R,C | oasis R,C | tower R,C | tavern R,C     a tile build
    barn R,C>R,C | harbor R,C>R,C | paddock R,C>R,C                a tile move (from > to)
    end                            end the turn

An action is the int ``code << 18 | from << 9 | to`` (hex indices ``R * 20 + C``); a mandatory build
is just the hex index.
"""

from __future__ import annotations

import re

from builders.core.errors import IllegalAction
from builders.core.messages import msg

VERBS = ("build", "oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock", "end")
BUILD, ORACLE, FARM, OASIS, TOWER, TAVERN, BARN, HARBOR, PADDOCK, END_CODE = range(10)
CODE_OF_VERB = {v: i for i, v in enumerate(VERBS)}
#: build verbs that take one hex, move verbs that take two
ONE_HEX = frozenset({BUILD, ORACLE, FARM, OASIS, TOWER, TAVERN})
TWO_HEX = frozenset({BARN, HARBOR, PADDOCK})
END = END_CODE << 18
SHIFT = 18
SRC_SHIFT = 9
LOW = 511


def tile_code(kind: int) -> int:
    """The action code of the tile of kind ``kind`` (data.SECTION_NAMES order)."""
    return kind + 1


def encode(code: int, dst: int = 0, src: int = 0) -> int:
    return (code << SHIFT) | (src << SRC_SHIFT) | dst


def decode(action: int) -> tuple[int, int, int]:
    """(code, from, to) of an action."""
    return action >> SHIFT, (action >> SRC_SHIFT) & LOW, action & LOW


def _hex(i: int) -> str:
    return f"{i // 20},{i % 20}"


def to_string(action: int) -> str:
    code, src, dst = decode(action)
    if code == END_CODE:
        return "end"
    if code in TWO_HEX:
        return f"{VERBS[code]} {_hex(src)}>{_hex(dst)}"
    return f"{VERBS[code]} {_hex(dst)}"


_HEX = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def bad_draw(name: object, in_deck: bool) -> IllegalAction:
    """The error of a recorded terrain draw that cannot be made: ``name`` is no terrain card
    (``in_deck`` False), or none of it is left in the deck."""
    if not in_deck:
        return IllegalAction(
            msg("{name!r} is not a terrain card (expected one of grass, canyon, desert, flower, forest)", name=name)
        )
    return IllegalAction(msg("no {name} card is left in the deck to draw", name=name))


def parse_hex(text: str) -> int:
    """The index of hex ``"R,C"``; IllegalAction if it is malformed or off the map."""
    m = _HEX.match(text)
    if not m:
        raise IllegalAction(msg("{text!r} is not a hex (expected R,C, for example 3,7)", text=text.strip()))
    r, c = int(m.group(1)), int(m.group(2))
    if not (0 <= r < 20 and 0 <= c < 20):
        raise IllegalAction(msg("hex {hex} is off the map", hex=f"{r},{c}"))
    return r * 20 + c


def parse(text: str) -> int:
    """Parse one action (syntax and map bounds only; legality is the state's business)."""
    if not isinstance(text, str):
        raise IllegalAction(msg("an action is a string, not {type}", type=type(text).__name__))
    s = text.strip()
    verb, _, rest = s.partition(" ")
    code = CODE_OF_VERB.get(verb)
    if code is None:
        raise IllegalAction(
            msg(
                '"{text}" is not an action (expected build, oracle, farm, oasis, tower, tavern, barn, '
                "harbor, paddock or end)",
                text=s,
            )
        )
    rest = rest.strip()
    if code == END_CODE:
        if rest:
            raise IllegalAction(msg('"end" takes nothing after it, not {rest!r}', rest=rest))
        return END
    if not rest:
        raise IllegalAction(
            msg('"{verb}" needs a hex: {verb} {form}', verb=verb, form="R,C>R,C" if code in TWO_HEX else "R,C")
        )
    if code in TWO_HEX:
        src_text, sep, dst_text = rest.partition(">")
        if not sep:
            raise IllegalAction(
                msg('"{verb}" moves a settlement: {verb} R,C>R,C (from > to), not {rest!r}', verb=verb, rest=rest)
            )
        return encode(code, parse_hex(dst_text), parse_hex(src_text))
    if ">" in rest:
        raise IllegalAction(msg('"{verb}" builds on one hex: {verb} R,C, not {rest!r}', verb=verb, rest=rest))
    return encode(code, parse_hex(rest))
