"""The position in the terminal: the map in colour (rich) or as plain text, a legend and a panel per player.

Each hex is a 3-character cell followed by a 1-character gap, and odd rows are indented by 2 characters
(half a cell)."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.text import Text

from builders.kingdom.data import TERRAIN_LETTER
from builders.kingdom.render.common import (
    CARD_TEXT,
    KIND_COLOUR,
    KIND_MARK,
    LETTER_NAME,
    SEAT_COLOURS,
    SEAT_INK,
    SEAT_NAMES,
    SIZE,
    _Player,
    _View,
    _read,
    _status_line,
    _tile_words,
)

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

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
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


def render_terminal(position: dict[str, Any]) -> RenderableType:
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


def render_terminal_text(position: dict[str, Any]) -> str:
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
