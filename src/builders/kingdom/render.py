"""Drawing Kingdom Builder positions: in the terminal (rich, or plain text) and as SVG pictures.

Everything here works from the position JSON (see :func:`builders.kingdom.state` ``to_json``) and the
board data alone, so any position file can be drawn, also one written by hand.

Geometry: global (R, C), 0-19, row 0 on top, pointy-top hexes, odd rows shifted half a hex to the right.
In the terminal each hex is a 3-character cell followed by a 1-character gap, and odd rows are indented
by 2 characters (half a cell). In SVG the hexes are exact: width sqrt(3) * size, row height 1.5 * size.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from builders.core.errors import InvalidPosition
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS, LETTER_TERRAIN, TERRAIN_LETTER, map_rows

__all__ = [
    "SEAT_COLOURS",
    "render_terminal",
    "render_terminal_text",
    "render_svg",
    "score_table",
]

SIZE = 20
SUPPLY = 40
TILES_PER_LOCATION = 2
TILE_STATES = ("ready", "used", "new")

#: seat colours (0 red, 1 blue, 2 white, 3 black), used in the terminal and in SVG
SEAT_COLOURS: tuple[str, ...] = ("#e0512b", "#2f6fdb", "#f4f1e6", "#2e2e33")
SEAT_NAMES: tuple[str, ...] = ("red", "blue", "white", "black")
#: text colour that reads well on each seat colour
SEAT_INK: tuple[str, ...] = ("#ffffff", "#ffffff", "#1d1d1d", "#ffffff")

#: two-letter marks of the location kinds (two kinds share each initial)
KIND_MARK: dict[str, str] = {
    "oracle": "Or",
    "farm": "Fa",
    "oasis": "Oa",
    "tower": "To",
    "tavern": "Ta",
    "barn": "Ba",
    "harbor": "Ha",
    "paddock": "Pa",
}
KIND_COLOUR: dict[str, str] = {
    "oracle": "#7b4fb8",
    "farm": "#9a7a1c",
    "oasis": "#1f9486",
    "tower": "#4f6472",
    "tavern": "#b8432f",
    "barn": "#8a3324",
    "harbor": "#1d67a3",
    "paddock": "#a0612a",
}

LETTER_NAME: dict[str, str] = {
    "G": "grass",
    "C": "canyon",
    "D": "desert",
    "F": "flower field",
    "T": "forest",
    "W": "water",
    "M": "mountain",
    "K": "castle",
    "L": "location",
}

#: what each card pays, in short (the full wording is in the rules)
CARD_TEXT: dict[str, str] = {
    "castles": "3 per castle with one of your settlements next to it",
    "fishermen": "1 per settlement next to water",
    "miners": "1 per settlement next to a mountain",
    "merchants": "4 per castle or location your settlements link to another one",
    "workers": "1 per settlement next to a castle or location",
    "discoverers": "1 per row holding one of your settlements",
    "knights": "2 per settlement on your fullest row",
    "hermits": "1 per separate group of your settlements",
    "lords": "12 for the most settlements in a sector, 6 for the second most",
    "citizens": "1 per 2 settlements in your largest group",
    "farmers": "3 per settlement in your weakest sector",
}

Hex = tuple[int, int]


# --------------------------------------------------------------------------------------------------
# Reading the position


@dataclass(frozen=True)
class _Tile:
    kind: str
    origin: Hex
    state: str


@dataclass(frozen=True)
class _Player:
    seat: int
    settlements: tuple[Hex, ...]
    supply: int
    terrain: str | None
    tiles: tuple[_Tile, ...]


@dataclass(frozen=True)
class _View:
    sections: tuple[tuple[str, bool], ...]
    rows: tuple[str, ...]
    cards: tuple[str, ...]
    players: tuple[_Player, ...]
    occupant: dict[Hex, int]
    tiles_left: dict[Hex, int]
    to_move: int
    turn: int | None
    deck_count: int | None
    discard: tuple[str, ...] | None
    removed: tuple[str, ...] | None
    built_this_turn: int | None
    final_round: bool
    game_over: bool

    def kind_at(self, r: int, c: int) -> str:
        return self.sections[(r >= 10) * 2 + (c >= 10)][0]

    def section_of(self, r: int, c: int) -> int:
        return (r >= 10) * 2 + (c >= 10)


def _fail(message: str) -> None:
    raise InvalidPosition(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if not _is_int(value):
        _fail(f"{where} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        _fail(f"{where} is {value}: it must be {bound}")
    return value


def _hex(value: Any, where: str) -> Hex:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(_is_int(v) for v in value):
        _fail(f"{where} must be a [row, column] pair of whole numbers, not {value!r}")
    r, c = value
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        _fail(f"{where} is [{r}, {c}]: off the map (rows and columns run from 0 to {SIZE - 1})")
    return (r, c)


def _list(value: Any, where: str) -> list:
    if not isinstance(value, (list, tuple)):
        _fail(f"{where} must be a list, not {value!r}")
    return list(value)


def _terrain_cards(value: Any, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    cards = tuple(_list(value, where))
    for i, card in enumerate(cards):
        if card not in TERRAINS:
            _fail(f"{where}[{i}]: unknown terrain card {card!r} (known: {', '.join(TERRAINS)})")
    return cards


def _read(position: Any) -> _View:
    """Check ``position`` and bring it into one shape, defaults filled in."""
    if not isinstance(position, Mapping):
        _fail(f"a position must be a JSON object, not {type(position).__name__}")
    for key in ("sections", "cards", "players"):
        if key not in position:
            _fail(f"the position has no {key!r}")

    sections_in = _list(position["sections"], "sections")
    if len(sections_in) != 4:
        _fail(f"sections must list 4 [name, turned] pairs (slots 0-3), not {len(sections_in)}")
    sections: list[tuple[str, bool]] = []
    for i, pair in enumerate(sections_in):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            _fail(f"sections[{i}] must be a [name, turned] pair, not {pair!r}")
        name, turned = pair
        if name not in SECTION_NAMES:
            _fail(f"sections[{i}]: unknown section {name!r} (known: {', '.join(SECTION_NAMES)})")
        if not isinstance(turned, bool):
            _fail(f"sections[{i}]: 'turned' must be true or false, not {turned!r}")
        if any(name == other for other, _ in sections):
            _fail(f"sections[{i}]: section {name!r} is used twice (the 4 sections must differ)")
        sections.append((name, turned))
    rows = map_rows(sections)

    cards = _list(position["cards"], "cards")
    if len(cards) != 3:
        _fail(f"cards must list 3 Kingdom Builder cards, not {len(cards)}")
    for i, card in enumerate(cards):
        if card not in CARDS:
            _fail(f"cards[{i}]: unknown card {card!r} (known: {', '.join(CARDS)})")
    if len(set(cards)) != 3:
        _fail(f"cards must be 3 different cards, not {cards!r}")

    players_in = _list(position["players"], "players")
    if not 2 <= len(players_in) <= 4:
        _fail(f"a game has 2 to 4 players, not {len(players_in)}")
    players: list[_Player] = []
    occupant: dict[Hex, int] = {}
    for seat, p in enumerate(players_in):
        where = f"players[{seat}]"
        if not isinstance(p, Mapping):
            _fail(f"{where} must be a JSON object, not {p!r}")
        if "settlements" not in p:
            _fail(f"{where} has no 'settlements'")
        settlements: list[Hex] = []
        for i, h in enumerate(_list(p["settlements"], f"{where}.settlements")):
            r, c = _hex(h, f"{where}.settlements[{i}]")
            letter = rows[r][c]
            if letter in "MKL":
                _fail(f"{where}.settlements[{i}] is [{r}, {c}], a {LETTER_NAME[letter]} hex: nothing is built there")
            if (r, c) in occupant:
                _fail(f"{where}.settlements[{i}]: hex [{r}, {c}] already holds a settlement of seat {occupant[(r, c)]}")
            occupant[(r, c)] = seat
            settlements.append((r, c))
        supply = p.get("supply")
        supply = SUPPLY - len(settlements) if supply is None else _int(supply, f"{where}.supply", 0, SUPPLY)
        terrain = p.get("terrain")
        if terrain is not None and terrain not in TERRAINS:
            _fail(f"{where}.terrain: unknown terrain {terrain!r} (known: {', '.join(TERRAINS)}, or null)")
        tiles: list[_Tile] = []
        for i, t in enumerate(_list(p.get("tiles") or [], f"{where}.tiles")):
            tw = f"{where}.tiles[{i}]"
            if not isinstance(t, Mapping):
                _fail(f"{tw} must be an object with 'kind', 'from' and 'state', not {t!r}")
            kind = t.get("kind")
            if kind not in SECTION_NAMES:
                _fail(f"{tw}: unknown tile kind {kind!r} (known: {', '.join(SECTION_NAMES)})")
            if "from" not in t:
                _fail(f"{tw} has no 'from' (the location hex it was taken from)")
            r, c = _hex(t["from"], f"{tw}.from")
            if rows[r][c] != "L":
                _fail(f"{tw}.from is [{r}, {c}], which is not a location hex")
            here = sections[(r >= 10) * 2 + (c >= 10)][0]
            if here != kind:
                _fail(f"{tw}: a {kind} tile cannot come from [{r}, {c}], a {here} location")
            state = t.get("state", "ready")
            if state not in TILE_STATES:
                _fail(f"{tw}.state must be one of {', '.join(TILE_STATES)}, not {state!r}")
            tiles.append(_Tile(kind, (r, c), state))
        for i, h in enumerate(_list(p.get("taken_from") or [], f"{where}.taken_from")):
            r, c = _hex(h, f"{where}.taken_from[{i}]")
            if rows[r][c] != "L":
                _fail(f"{where}.taken_from[{i}] is [{r}, {c}], which is not a location hex")
        players.append(_Player(seat, tuple(settlements), supply, terrain, tuple(tiles)))

    tiles_left = {(r, c): TILES_PER_LOCATION for r in range(SIZE) for c in range(SIZE) if rows[r][c] == "L"}
    if position.get("tiles_left") is not None:
        for i, entry in enumerate(_list(position["tiles_left"], "tiles_left")):
            if not isinstance(entry, Mapping) or "at" not in entry:
                _fail(f"tiles_left[{i}] must be an object with 'at' and 'count', not {entry!r}")
            r, c = _hex(entry["at"], f"tiles_left[{i}].at")
            if rows[r][c] != "L":
                _fail(f"tiles_left[{i}].at is [{r}, {c}], which is not a location hex")
            tiles_left[(r, c)] = _int(entry.get("count"), f"tiles_left[{i}].count", 0, TILES_PER_LOCATION)

    to_move = position.get("to_move")
    to_move = 0 if to_move is None else _int(to_move, "to_move", 0, len(players) - 1)
    turn = position.get("turn")
    turn = None if turn is None else _int(turn, "turn", 0)
    deck_count = position.get("deck_count")
    if deck_count is not None:
        deck_count = _int(deck_count, "deck_count", 0)
    elif position.get("deck") is not None:
        deck_count = len(_list(position["deck"], "deck"))
    discard, removed = (_terrain_cards(position.get(key), key) for key in ("discard", "removed"))
    built = position.get("built_this_turn")
    if built is not None:
        if isinstance(built, (list, tuple)):
            built = len([_hex(h, f"built_this_turn[{i}]") for i, h in enumerate(built)])
        else:
            built = _int(built, "built_this_turn", 0)
    flags = {}
    for key in ("final_round", "game_over"):
        value = position.get(key, False)
        if not isinstance(value, bool):
            _fail(f"{key} must be true or false, not {value!r}")
        flags[key] = value

    return _View(
        sections=tuple(sections),
        rows=rows,
        cards=tuple(cards),
        players=tuple(players),
        occupant=occupant,
        tiles_left=tiles_left,
        to_move=to_move,
        turn=turn,
        deck_count=deck_count,
        discard=discard,
        removed=removed,
        built_this_turn=built,
        final_round=flags["final_round"],
        game_over=flags["game_over"],
    )


def _status_line(view: _View) -> str:
    parts = []
    if view.turn is not None:
        parts.append(f"turn {view.turn}")
    if view.game_over:
        parts.append("game over")
    else:
        parts.append(f"seat {view.to_move} to move")
        if view.built_this_turn is not None:
            parts.append(f"{view.built_this_turn} built this turn")
        if view.final_round:
            parts.append("final round")
    if view.deck_count is not None:
        parts.append(f"deck {view.deck_count} card{'s' if view.deck_count != 1 else ''}")
    if view.discard is not None:
        counts = [f"{t} {view.discard.count(t)}" for t in TERRAINS if t in view.discard]
        parts.append("discard: " + (", ".join(counts) if counts else "empty"))
    if view.removed:
        counts = [f"{t} {view.removed.count(t)}" for t in TERRAINS if t in view.removed]
        parts.append("out of the game: " + ", ".join(counts))
    return " | ".join(parts)


def _tile_words(tiles: Sequence[_Tile]) -> str:
    if not tiles:
        return "none"
    return ", ".join(f"{t.kind} ({t.state}) from {t.origin[0]},{t.origin[1]}" for t in tiles)


# --------------------------------------------------------------------------------------------------
# Terminal

CELL = 3  # characters per hex, followed by one blank
STRIDE = CELL + 1
LABEL = 3  # width of the row numbers on the left

#: background and ink of each map letter in the terminal
TERM_BG: dict[str, str] = {
    "G": "#9fd16a",
    "C": "#c9793c",
    "D": "#ecd07a",
    "F": "#c78ad6",
    "T": "#2f6e35",
    "W": "#3f86d0",
    "M": "#8a8a8a",
    "K": "#5e4a3a",
    "L": "#f3e3b8",
}
TERM_INK: dict[str, str] = {
    "G": "#4e7d25",
    "C": "#7a3f14",
    "D": "#a88a2c",
    "F": "#7e3f8e",
    "T": "#a7d39a",
    "W": "#cfe5ff",
    "M": "#f0f0f0",
    "K": "#ffd54a",
    "L": "#4a3212",
}
TERM_GLYPH: dict[str, str] = {"W": "~", "M": "^", "K": "K"}


def _cell(view: _View, r: int, c: int, plain: bool) -> Text:
    """A hex of the wide layout: 3 characters in plain text (the blank after it is added by the
    caller), 4 characters filled with the hex's colour otherwise."""
    letter = view.rows[r][c]
    seat = view.occupant.get((r, c))
    if plain:
        if letter == "L":
            return Text(f"{KIND_MARK[view.kind_at(r, c)]}{view.tiles_left[(r, c)]}")
        return Text(f" {letter}{seat if seat is not None else ' '}")
    bg = TERM_BG[letter]
    cell = Text()
    if seat is not None:
        colour = SEAT_COLOURS[seat]
        cell.append("▐", style=f"{colour} on {bg}")
        cell.append(str(seat), style=f"bold {SEAT_INK[seat]} on {colour}")
        cell.append("▌", style=f"{colour} on {bg}")
    elif letter == "L":
        kind = view.kind_at(r, c)
        cell.append(KIND_MARK[kind], style=f"bold {KIND_COLOUR[kind]} on {bg}")
        left = view.tiles_left[(r, c)]
        cell.append(str(left), style=f"bold {'#1d1d1d' if left else '#a09070'} on {bg}")
    else:
        glyph = TERM_GLYPH.get(letter, letter.lower())
        cell.append(f" {glyph} ", style=f"{'bold ' if letter == 'K' else ''}{TERM_INK[letter]} on {bg}")
    cell.append(" ", style=f"on {bg}")
    return cell


def _column_labels(indent: int) -> str:
    return " " * (LABEL + indent) + "".join(f"{c:^{CELL}} " for c in range(SIZE)).rstrip()


def _map_text(view: _View, plain: bool) -> Text:
    label_style = "" if plain else "dim"
    out = Text(no_wrap=True, overflow="crop")
    out.append(_column_labels(0) + "\n", style=label_style)
    for r in range(SIZE):
        indent = 2 if r % 2 else 0
        out.append(f"{r:>{LABEL - 1}} " + " " * indent, style=label_style)
        for c in range(SIZE):
            out.append_text(_cell(view, r, c, plain))
            if plain:
                out.append(" ")
        out.append(" " * (2 - indent) + f"{r:<2}" + "\n", style=label_style)
    out.append(_column_labels(2), style=label_style)
    return out


def _legend(view: _View, plain: bool) -> Text:
    kinds = [name for name, _ in view.sections]
    text = Text()
    if plain:
        text.append(", ".join(f"{k} {LETTER_NAME[k]}" for k in "GCDFTWMK"))
        text.append("\n" + ", ".join(f"{KIND_MARK[k]} {k}" for k in kinds) + " location (the digit: tiles left)")
        text.append("\n" + "G0: a settlement of seat 0 on grass (seats 0-3)")
        return text
    for k in "GCDFTWMK":
        glyph = TERM_GLYPH.get(k, k.lower())
        text.append(f" {glyph} ", style=f"{TERM_INK[k]} on {TERM_BG[k]}")
        text.append(f" {LETTER_NAME[k]}  ")
    text.append("\n")
    for k in kinds:
        text.append(KIND_MARK[k] + "2", style=f"bold {KIND_COLOUR[k]} on {TERM_BG['L']}")
        text.append(f" {k}  ")
    text.append("(the digit: tiles left)\n")
    for seat in range(len(view.players)):
        text.append(f" {seat} ", style=f"bold {SEAT_INK[seat]} on {SEAT_COLOURS[seat]}")
        text.append(f" seat {seat} ({SEAT_NAMES[seat]})  ")
    return text


#: one-letter marks of the location kinds in the narrow layout (lower case: terrains are upper case)
KIND_LETTER: dict[str, str] = {
    "oracle": "o",
    "farm": "f",
    "oasis": "a",
    "tower": "t",
    "tavern": "v",
    "barn": "b",
    "harbor": "h",
    "paddock": "p",
}
#: the full layout's width: row numbers, 20 cells of 4, the half-cell shift, row numbers
FULL_WIDTH = LABEL + STRIDE * SIZE + 2 + 2


def _narrow_cell(view: _View, r: int, c: int, plain: bool) -> Text:
    """A 2-character cell of the narrow layout (hexes side by side, odd rows shifted by 1)."""
    letter = view.rows[r][c]
    seat = view.occupant.get((r, c))
    if letter == "L":
        kind = view.kind_at(r, c)
        mark = f"{KIND_LETTER[kind]}{view.tiles_left[(r, c)]}"
        return Text(mark) if plain else Text(mark, style=f"bold {KIND_COLOUR[kind]} on {TERM_BG['L']}")
    if plain:
        return Text(f"{letter}{seat if seat is not None else ' '}")
    bg = TERM_BG[letter]
    if seat is not None:
        cell = Text(str(seat), style=f"bold {SEAT_INK[seat]} on {SEAT_COLOURS[seat]}")
        cell.append("▌", style=f"{SEAT_COLOURS[seat]} on {bg}")
        return cell
    glyph = TERM_GLYPH.get(letter, letter.lower())
    return Text(f"{glyph} ", style=f"{'bold ' if letter == 'K' else ''}{TERM_INK[letter]} on {bg}")


def _narrow_map_text(view: _View, plain: bool) -> Text:
    label_style = "" if plain else "dim"
    out = Text(no_wrap=True, overflow="crop")
    tens = "".join(f"{c // 10 if c >= 10 else ' '} " for c in range(SIZE))
    units = "".join(f"{c % 10} " for c in range(SIZE))
    out.append(" " * LABEL + tens.rstrip() + "\n" + " " * LABEL + units.rstrip() + "\n", style=label_style)
    for r in range(SIZE):
        indent = r % 2
        out.append(f"{r:>{LABEL - 1}} " + " " * indent, style=label_style)
        for c in range(SIZE):
            out.append_text(_narrow_cell(view, r, c, plain))
        out.append(" " * (2 - indent) + f"{r}" + "\n", style=label_style)
    out.append(" " * (LABEL + 1) + tens.rstrip() + "\n" + " " * (LABEL + 1) + units.rstrip(), style=label_style)
    return out


def _narrow_legend(view: _View) -> Text:
    text = Text()
    for k in "GCDFTWMK":
        glyph = TERM_GLYPH.get(k, k.lower())
        text.append(f"{glyph} ", style=f"{TERM_INK[k]} on {TERM_BG[k]}")
        text.append(f" {LETTER_NAME[k]}  ")
    text.append("\n")
    for name, _ in view.sections:
        text.append(f"{KIND_LETTER[name]}2", style=f"bold {KIND_COLOUR[name]} on {TERM_BG['L']}")
        text.append(f" {name}  ")
    text.append("(the digit: tiles left)\n")
    for seat in range(len(view.players)):
        text.append(f"{seat}", style=f"bold {SEAT_INK[seat]} on {SEAT_COLOURS[seat]}")
        text.append("▌", style=f"{SEAT_COLOURS[seat]}")
        text.append(f" seat {seat} ({SEAT_NAMES[seat]})  ")
    return text


class _MapAndLegend:
    """The map with its legend: the full layout when the console is wide enough, else the narrow one."""

    def __init__(self, view: _View):
        self.view = view

    def __rich_console__(self, console, options):
        if options.max_width >= FULL_WIDTH:
            yield _map_text(self.view, plain=False)
            yield _legend(self.view, plain=False)
        else:
            yield _narrow_map_text(self.view, plain=False)
            yield _narrow_legend(self.view)


def _player_lines(view: _View, p: _Player) -> list[str]:
    return [
        f"supply {p.supply}, {len(p.settlements)} on the map",
        f"terrain card: {p.terrain or 'hidden/none'}",
        f"tiles: {_tile_words(p.tiles)}",
    ]


def _player_panel(view: _View, p: _Player) -> Panel:
    body = Text()
    body.append("supply ")
    body.append(str(p.supply), style="bold")
    body.append(f", {len(p.settlements)} on the map\nterrain card: ")
    if p.terrain:
        letter = TERRAIN_LETTER[p.terrain]
        body.append(f" {p.terrain} ", style=f"bold {TERM_INK[letter]} on {TERM_BG[letter]}")
    else:
        body.append("hidden/none", style="dim")
    body.append("\ntiles:")
    if not p.tiles:
        body.append(" none", style="dim")
    for t in p.tiles:
        style = {"ready": "bold", "used": "dim strike", "new": "italic"}[t.state]
        body.append("\n  ")
        body.append(f"{KIND_MARK[t.kind]} {t.kind}", style=f"{style} {KIND_COLOUR[t.kind]}")
        body.append(f" {t.state}, from {t.origin[0]},{t.origin[1]}", style="dim" if t.state == "used" else "")
    title = Text()
    title.append(f" {p.seat} ", style=f"bold {SEAT_INK[p.seat]} on {SEAT_COLOURS[p.seat]}")
    title.append(f" seat {p.seat} ({SEAT_NAMES[p.seat]})")
    moving = p.seat == view.to_move and not view.game_over
    if moving:
        title.append(" - to move", style="bold")
    return Panel(body, title=title, title_align="left", border_style="bold" if moving else "dim", width=38)


def render_terminal(position: dict) -> RenderableType:
    """The position for the terminal: the map in colour with coordinates, a legend, a panel per
    player and the three cards.

    Raises :class:`~builders.core.errors.InvalidPosition` for a malformed position.
    """
    view = _read(position)
    cards = Text("cards: ", style="bold")
    for i, card in enumerate(view.cards):
        cards.append(("\n  " if i else "") + card, style="bold")
        cards.append(f": {CARD_TEXT[card]}", style="")
    cards.append("\n  castles", style="bold")
    cards.append(f": {CARD_TEXT['castles']}")
    status = Text(_status_line(view), style="bold")
    return Group(
        status,
        _MapAndLegend(view),
        Columns([_player_panel(view, p) for p in view.players]),
        cards,
    )


def render_terminal_text(position: dict) -> str:
    """The same layout as :func:`render_terminal` as plain text: a letter per terrain, a digit per seat.

    Each hex is 3 characters and a blank; odd rows are indented by 2. A terrain hex reads `` G `` (empty)
    or `` G1`` (a settlement of seat 1); a location hex reads its kind's 2-letter mark and the number of
    tiles left (``Ta2``).
    """
    view = _read(position)
    lines = [_status_line(view), *_map_text(view, plain=True).plain.split("\n")]
    lines += _legend(view, plain=True).plain.split("\n")
    for p in view.players:
        moving = " - to move" if p.seat == view.to_move and not view.game_over else ""
        lines.append(f"seat {p.seat} ({SEAT_NAMES[p.seat]}){moving}: " + "; ".join(_player_lines(view, p)))
    lines.append("cards: " + "; ".join(f"{card}: {CARD_TEXT[card]}" for card in view.cards))
    lines.append(f"castles: {CARD_TEXT['castles']}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


# --------------------------------------------------------------------------------------------------
# Score table


def score_table(position: dict, result: dict) -> RenderableType:
    """The final score: one row per card (castles first, then the position's cards, then anything else
    the result names) and a total row; one column per seat; winners marked with a star."""
    view = _read(position)
    if not isinstance(result, Mapping) or not isinstance(result.get("players"), (list, tuple)):
        raise InvalidPosition("a result must be an object with 'players' (and 'winners')")
    entries = result["players"]
    if len(entries) != len(view.players):
        raise InvalidPosition(f"the result has {len(entries)} players, the position {len(view.players)}")
    by_seat: dict[int, Mapping[str, Any]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise InvalidPosition(f"result players[{i}] must be an object, not {entry!r}")
        seat = entry.get("seat", i)
        if not _is_int(seat) or not 0 <= seat < len(view.players) or seat in by_seat:
            raise InvalidPosition(f"result players[{i}]: bad or repeated seat {seat!r}")
        points = entry.get("cards", {})
        if not isinstance(points, Mapping) or not all(_is_int(v) for v in points.values()):
            raise InvalidPosition(f"result players[{i}].cards must map card names to whole numbers")
        if not _is_int(entry.get("total")):
            raise InvalidPosition(f"result players[{i}].total must be a whole number, not {entry.get('total')!r}")
        by_seat[seat] = entry
    winners = result.get("winners", [])
    if not isinstance(winners, (list, tuple)) or not all(_is_int(w) and w in by_seat for w in winners):
        raise InvalidPosition(f"result winners must list seats of the game, not {winners!r}")

    rows = ["castles", *view.cards]
    for seat in sorted(by_seat):
        rows += sorted(k for k in by_seat[seat]["cards"] if k not in rows)
    table = Table(title="Final score", title_style="bold", show_footer=False)
    table.add_column("card", style="bold")
    seats = sorted(by_seat)
    for seat in seats:
        head = Text(f" {seat} ", style=f"bold {SEAT_INK[seat]} on {SEAT_COLOURS[seat]}")
        head.append(f" seat {seat}")
        if seat in winners:
            head.append(" ★ winner", style="bold")
        table.add_column(head, justify="right")
    for name in rows:
        cells = [str(by_seat[seat]["cards"].get(name, 0)) for seat in seats]
        table.add_row(name, *cells, end_section=name == rows[-1])
    table.add_row(
        "total",
        *(Text(str(by_seat[s]["total"]) + (" ★" if s in winners else ""), style="bold") for s in seats),
    )
    return table


# --------------------------------------------------------------------------------------------------
# SVG

R = 22.0  # hex size: centre to corner
HEX_W = math.sqrt(3) * R
ROW_H = 1.5 * R
MARGIN = 34.0
TITLE_H = 54.0
PANEL_W = 330.0

SVG_FILL: dict[str, str] = {
    "G": "#b5dc7c",
    "C": "#d79a62",
    "D": "#f3dc94",
    "F": "#dfb1e0",
    "T": "#5f9a52",
    "W": "#76b6e4",
    "M": "#b3aea6",
    "K": "#ddd5c4",
    "L": "#f7eccb",
}
FONT = "font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\""


def _n(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _centre(r: int, c: int, ox: float, oy: float) -> tuple[float, float]:
    return ox + HEX_W * (c + 0.5 + 0.5 * (r % 2)), oy + R + ROW_H * r


def _corners(x: float, y: float, size: float = R) -> list[tuple[float, float]]:
    """Corners of a pointy-top hex, clockwise from the top."""
    return [
        (x + size * math.cos(math.radians(a)), y + size * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


def _points(corners: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in corners)


def _neighbour(r: int, c: int, edge: int) -> Hex:
    """The hex across edge ``edge`` (0 = top-right edge, clockwise) of (r, c)."""
    odd = r % 2
    return [
        (r - 1, c + odd),  # north-east
        (r, c + 1),  # east
        (r + 1, c + odd),  # south-east
        (r + 1, c - 1 + odd),  # south-west
        (r, c - 1),  # west
        (r - 1, c - 1 + odd),  # north-west
    ][edge]


#: terrain drawings, centred on (0, 0), for a hex of size R
_DEFS = """<defs>
<g id="sym-G" fill="none" stroke="#6a9f3c" stroke-width="1.4" stroke-linecap="round">
<path d="M-10,-1 l-2,-5 M-8,-1 l0,-6 M-6,-1 l2,-5"/>
<path d="M5,-5 l-2,-5 M7,-5 l0,-6 M9,-5 l2,-5"/>
<path d="M-1,10 l-2,-5 M1,10 l0,-6 M3,10 l2,-5"/>
</g>
<g id="sym-C" fill="none" stroke-linecap="round">
<path d="M-14,-6 q4,-3 8,0 t8,0 t8,0 t6,0" stroke="#a9693a" stroke-width="1.6"/>
<path d="M-15,1 q4,-3 8,0 t8,0 t8,0 t7,0" stroke="#b8774a" stroke-width="1.6"/>
<path d="M-13,8 q4,-3 8,0 t8,0 t8,0 t5,0" stroke="#a9693a" stroke-width="1.6"/>
</g>
<g id="sym-D">
<path d="M-14,5 q7,-9 14,0 z" fill="#e6c46f"/>
<path d="M-2,0 q7,-10 15,0 z" fill="#ebcb7c"/>
<circle cx="-6" cy="-8" r="1" fill="#c9a24f"/>
<circle cx="2" cy="-11" r="1" fill="#c9a24f"/>
<circle cx="7" cy="8" r="1" fill="#c9a24f"/>
<circle cx="-3" cy="11" r="1" fill="#c9a24f"/>
</g>
<g id="flower">
<circle cx="0" cy="-2.4" r="2" fill="#fff6fb"/>
<circle cx="2.3" cy="-0.7" r="2" fill="#fff6fb"/>
<circle cx="1.4" cy="2" r="2" fill="#fff6fb"/>
<circle cx="-1.4" cy="2" r="2" fill="#fff6fb"/>
<circle cx="-2.3" cy="-0.7" r="2" fill="#fff6fb"/>
<circle cx="0" cy="0" r="1.5" fill="#f0b429"/>
</g>
<g id="sym-F">
<use xlink:href="#flower" x="-7" y="-6"/>
<use xlink:href="#flower" x="7" y="-3"/>
<use xlink:href="#flower" x="-2" y="8"/>
<circle cx="4" cy="-12" r="1.3" fill="#a4449a"/>
<circle cx="-12" cy="4" r="1.3" fill="#a4449a"/>
<circle cx="10" cy="8" r="1.3" fill="#a4449a"/>
</g>
<g id="tree">
<rect x="-1" y="4" width="2" height="4" fill="#5b3b1e"/>
<path d="M0,-9 L6,5 L-6,5 Z" fill="#2f6b2c" stroke="#214d20" stroke-width="0.8" stroke-linejoin="round"/>
</g>
<g id="sym-T">
<use xlink:href="#tree" x="-7" y="-3"/>
<use xlink:href="#tree" x="6" y="-6"/>
<use xlink:href="#tree" x="2" y="7"/>
</g>
<g id="sym-W" fill="none" stroke="#eaf5ff" stroke-width="1.5" stroke-linecap="round">
<path d="M-13,-5 q3,-3 6,0 t6,0 t6,0"/>
<path d="M-6,3 q3,-3 6,0 t6,0 t6,0"/>
<path d="M-12,10 q3,-3 6,0 t6,0"/>
</g>
<g id="sym-M" stroke-linejoin="round">
<path d="M-15,10 L-4,-12 L7,10 Z" fill="#807a70" stroke="#5e5850" stroke-width="1"/>
<path d="M-4,-12 L-7.6,-4.8 L-5,-6 L-3,-4 L-0.6,-5.2 Z" fill="#ffffff"/>
<path d="M0,10 L8,-4 L16,10 Z" fill="#938c82" stroke="#5e5850" stroke-width="1"/>
<path d="M8,-4 L5.7,0 L8,-1 L10.3,0 Z" fill="#ffffff"/>
</g>
<g id="sym-K" transform="scale(1.2)" stroke="#4d4438" stroke-width="1" stroke-linejoin="round">
<path d="M-12,11 V-4 H-9 V-1 H-6 V-4 H-3 V-1 H3 V-4 H6 V-1 H9 V-4 H12 V11 Z" fill="#9c9282"/>
<path d="M-4,-1 L-4,-9 L-2,-9 L-2,-7 L0,-7 L0,-9 L2,-9 L2,-7 L4,-7 L4,-9 L4,-1 Z" fill="#aaa090"/>
<path d="M-3,11 L-3,5 Q0,1 3,5 L3,11 Z" fill="#4d3a28"/>
<path d="M0,-9 L0,-16" fill="none"/>
<path d="M0,-16 L6,-14 L0,-12 Z" fill="#c8392b" stroke="#8e2519" stroke-width="0.6"/>
</g>
</defs>"""


def _house(x: float, y: float, seat: int, r: int, c: int, scale: float = 1.0) -> str:
    pts = [(-8, 8), (8, 8), (8, -1), (0, -9), (-8, -1)]
    poly = _points((x + px * scale, y + py * scale) for px, py in pts)
    door = "#5b5b5b" if seat == 3 else "#3a2a1c"
    return (
        f'<polygon class="house" data-seat="{seat}" data-r="{r}" data-c="{c}" points="{poly}" '
        f'fill="{SEAT_COLOURS[seat]}" stroke="#1b1b1b" stroke-width="{_n(1.6 * scale)}" stroke-linejoin="round"/>'
        f'<rect x="{_n(x - 2 * scale)}" y="{_n(y + 2 * scale)}" width="{_n(4 * scale)}" height="{_n(6 * scale)}" '
        f'fill="{door}"/>'
    )


def _location(x: float, y: float, kind: str, left: int, r: int, c: int) -> str:
    colour = KIND_COLOUR[kind]
    bx, by = x + 9.5, y - 10.5
    badge_fill = "#3b2f22" if left else "#b9ad98"
    return (
        f'<circle cx="{_n(x)}" cy="{_n(y + 1)}" r="12.5" fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>'
        f'<text x="{_n(x)}" y="{_n(y + 5)}" font-size="11" font-weight="bold" fill="#ffffff" '
        f'text-anchor="middle" {FONT}>{KIND_MARK[kind]}</text>'
        f'<g class="badge" data-r="{r}" data-c="{c}" data-count="{left}">'
        f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="6.5" fill="{badge_fill}" stroke="#ffffff" stroke-width="1.2"/>'
        f'<text x="{_n(bx)}" y="{_n(by + 3.3)}" font-size="9.5" font-weight="bold" fill="#ffffff" '
        f'text-anchor="middle" {FONT}>{left}</text></g>'
    )


def _panel(view: _View, x0: float, y0: float) -> tuple[list[str], float]:
    """The side panel (cards, then players) from (x0, y0); returns its elements and its bottom."""
    out: list[str] = []
    y = y0

    def text(x: float, y: float, s: str, size: float = 12, weight: str = "normal", fill: str = "#3b2f22") -> None:
        out.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="{weight}" fill="{fill}" {FONT}>'
            f"{escape(s)}</text>"
        )

    text(x0, y, "Kingdom Builder cards", 14, "bold")
    y += 8
    for card in (*view.cards, "castles"):
        y += 17
        text(x0 + 4, y, card.capitalize(), 12.5, "bold", "#5a3e1b" if card != "castles" else "#7a6a55")
        for line in textwrap.wrap(CARD_TEXT[card], 46):
            y += 14
            text(x0 + 14, y, line, 11, fill="#5c5044")
    y += 30
    text(x0, y, "Players", 14, "bold")
    y += 6
    for p in view.players:
        moving = p.seat == view.to_move and not view.game_over
        y += 12
        top = y
        height = 56 + 19 * (1 + max(1, (len(p.tiles) + 1) // 2))
        out.append(
            f'<rect x="{_n(x0)}" y="{_n(top)}" width="{_n(PANEL_W - 20)}" height="{_n(height)}" rx="8" '
            f'fill="#fffaf0" stroke="{"#3b2f22" if moving else "#d8ccb4"}" stroke-width="{2 if moving else 1}"/>'
        )
        out.append(_house(x0 + 20, top + 20, p.seat, -1, -1, 1.1).replace('class="house"', 'class="seat-mark"'))
        name = f"Seat {p.seat} ({SEAT_NAMES[p.seat]})"
        text(x0 + 36, top + 24, name, 13, "bold")
        if moving:
            text(x0 + PANEL_W - 90, top + 24, "to move", 11.5, "bold", "#b8432f")
        y = top + 44
        text(x0 + 12, y, f"supply {p.supply}  ·  {len(p.settlements)} on the map", 11.5)
        y += 19
        text(x0 + 12, y, "terrain card:", 11.5)
        if p.terrain:
            letter = TERRAIN_LETTER[p.terrain]
            out.append(
                f'<rect x="{_n(x0 + 92)}" y="{_n(y - 11)}" width="70" height="15" rx="4" fill="{SVG_FILL[letter]}" '
                f'stroke="#8a7b66" stroke-width="0.8"/>'
            )
            text(x0 + 97, y, p.terrain, 11, "bold", "#3b2f22")
        else:
            text(x0 + 92, y, "hidden / none", 11.5, fill="#9a8d7a")
        y += 19
        text(x0 + 12, y, "tiles:", 11.5)
        if not p.tiles:
            text(x0 + 50, y, "none", 11.5, fill="#9a8d7a")
        for i, t in enumerate(p.tiles):
            tx = x0 + 50 + (i % 2) * 126
            ty = y + (i // 2) * 19
            faded = t.state == "used"
            dash = ' stroke-dasharray="3,2"' if t.state == "new" else ""
            out.append(
                f'<g class="tile" data-kind="{t.kind}" data-state="{t.state}" opacity="{0.45 if faded else 1}">'
                f'<rect x="{_n(tx)}" y="{_n(ty - 11)}" width="120" height="15" rx="7" fill="{KIND_COLOUR[t.kind]}" '
                f'stroke="#2b2118" stroke-width="1"{dash}/>'
                f'<text x="{_n(tx + 60)}" y="{_n(ty)}" font-size="10" font-weight="bold" fill="#ffffff" '
                f'text-anchor="middle" {FONT}>{escape(t.kind)} · {t.state}</text></g>'
            )
        y = top + height
    return out, y


def render_svg(position: dict, *, highlight: Sequence[Sequence[int]] = (), title: str | None = None) -> str:
    """The position as a standalone SVG document (a string).

    Exact pointy-top odd-r hexes (400 polygons of class ``hex`` with ``data-r``/``data-c``), terrain
    drawings, castles, location hexes with their kind and a badge (class ``badge``) of the tiles left,
    thicker section borders, settlements as houses (class ``house``) in seat colours, coordinates on
    every edge, a side panel with the cards and the players. ``highlight`` hexes get an outline (class
    ``highlight``). No external resources; the same input always gives the same text.

    Raises :class:`~builders.core.errors.InvalidPosition` for a malformed position or highlight.
    """
    view = _read(position)
    marks = [_hex(h, f"highlight[{i}]") for i, h in enumerate(_list(highlight, "highlight"))]
    if title is not None and not isinstance(title, str):
        raise InvalidPosition(f"title must be text, not {title!r}")

    ox, oy = MARGIN, TITLE_H + 22
    map_w = HEX_W * (SIZE + 0.5)
    map_h = 2 * R + ROW_H * (SIZE - 1)
    px = ox + map_w + MARGIN + 6
    panel, panel_bottom = _panel(view, px, oy + 4)
    width = px + PANEL_W
    height = max(oy + map_h + 30, panel_bottom + 20)

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}">',
        f"<title>{escape(title if title is not None else 'Kingdom Builder')}</title>",
        _DEFS,
        f'<rect width="{_n(width)}" height="{_n(height)}" fill="#f6f0e2"/>',
    ]
    heading = title if title is not None else "Kingdom Builder"
    out.append(
        f'<text x="{_n(ox)}" y="32" font-size="22" font-weight="bold" fill="#3b2f22" {FONT}>{escape(heading)}</text>'
    )
    status = escape(_status_line(view))
    out.append(f'<text x="{_n(ox)}" y="52" font-size="12.5" fill="#6b5e4e" {FONT}>{status}</text>')

    # the map's shadow, then the hexes
    outline = []
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = _centre(r, c, ox, oy)
            outline.append(f'<polygon points="{_points(_corners(x + 2, y + 3, R + 0.5))}"/>')
    out.append(f'<g fill="#d9ccb0">{"".join(outline)}</g>')

    out.append('<g class="map">')
    for r in range(SIZE):
        for c in range(SIZE):
            x, y = _centre(r, c, ox, oy)
            letter = view.rows[r][c]
            kind = LETTER_TERRAIN.get(letter) or LETTER_NAME[letter]
            if letter == "L":
                kind = view.kind_at(r, c)
            out.append(
                f'<polygon class="hex" data-r="{r}" data-c="{c}" data-kind="{kind}" points="{_points(_corners(x, y))}" '
                f'fill="{SVG_FILL[letter]}" stroke="#6f6252" stroke-opacity="0.45" stroke-width="1"/>'
            )
            if letter == "L":
                out.append(_location(x, y, view.kind_at(r, c), view.tiles_left[(r, c)], r, c))
            elif (r, c) in view.occupant:
                continue
            else:
                out.append(f'<use xlink:href="#sym-{letter}" x="{_n(x)}" y="{_n(y)}"/>')
    out.append("</g>")

    # section borders and the map's edge
    segments = []
    for r in range(SIZE):
        for c in range(SIZE):
            corners = _corners(*_centre(r, c, ox, oy))
            for edge in range(6):
                nr, nc = _neighbour(r, c, edge)
                outside = not (0 <= nr < SIZE and 0 <= nc < SIZE)
                if outside or view.section_of(nr, nc) != view.section_of(r, c):
                    (ax, ay), (bx, by) = corners[edge], corners[(edge + 1) % 6]
                    segments.append(f"M{_n(ax)},{_n(ay)}L{_n(bx)},{_n(by)}")
    out.append(
        f'<path class="sections" d="{"".join(segments)}" fill="none" stroke="#3b2f22" stroke-width="2.8" '
        f'stroke-linecap="round"/>'
    )

    # settlements
    for p in view.players:
        for r, c in p.settlements:
            x, y = _centre(r, c, ox, oy)
            out.append(_house(x, y + 1, p.seat, r, c, 1.3))

    # highlighted hexes
    for r, c in marks:
        x, y = _centre(r, c, ox, oy)
        out.append(
            f'<polygon class="highlight" data-r="{r}" data-c="{c}" points="{_points(_corners(x, y, R - 2.6))}" '
            f'fill="#ffffff" fill-opacity="0.25" stroke="#e3007d" stroke-width="3.2" stroke-linejoin="round"/>'
        )

    # coordinates
    labels = []
    for c in range(SIZE):
        x, y = _centre(0, c, ox, oy)
        labels.append(f'<text x="{_n(x)}" y="{_n(y - R - 6)}" text-anchor="middle">{c}</text>')
        x, y = _centre(SIZE - 1, c, ox, oy)
        labels.append(f'<text x="{_n(x)}" y="{_n(y + R + 14)}" text-anchor="middle">{c}</text>')
    for r in range(SIZE):
        x, y = _centre(r, 0, ox, oy)
        labels.append(f'<text x="{_n(x - HEX_W / 2 - 6)}" y="{_n(y + 4)}" text-anchor="end">{r}</text>')
        x, y = _centre(r, SIZE - 1, ox, oy)
        labels.append(f'<text x="{_n(x + HEX_W / 2 + 6)}" y="{_n(y + 4)}" text-anchor="start">{r}</text>')
    out.append(f'<g class="coords" font-size="11" fill="#7a6a55" {FONT}>{"".join(labels)}</g>')

    out.extend(panel)
    out.append("</svg>")
    return "\n".join(out) + "\n"
