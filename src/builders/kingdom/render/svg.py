"""The position as a standalone SVG picture: exact pointy-top hexes (width sqrt(3) * size, row height
1.5 * size), terrain drawings, castles, locations, settlements and a side panel."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape

from builders.core.errors import InvalidPosition
from builders.kingdom.checks import shown
from builders.kingdom.data import LETTER_TERRAIN, TERRAIN_LETTER
from builders.kingdom.render.common import (
    CARD_TEXT,
    Hex,
    KIND_COLOUR,
    KIND_MARK,
    LETTER_NAME,
    SEAT_COLOURS,
    SEAT_NAMES,
    SIZE,
    _View,
    _hex,
    _list,
    _read,
    _status_line,
)

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


def render_svg(position: dict[str, Any], *, highlight: Sequence[Sequence[int]] = (), title: str | None = None) -> str:
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
        raise InvalidPosition(f"title must be text, not {shown(title)}")

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
