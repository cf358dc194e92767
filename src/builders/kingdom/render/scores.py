"""The final score table (rich): a row per card, a column per seat, the winners marked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from builders.core.errors import InvalidPosition
from builders.kingdom.checks import shown
from builders.kingdom.render.common import SEAT_COLOURS, SEAT_INK, _is_int, _read

# --------------------------------------------------------------------------------------------------
# Score table


def score_table(position: dict[str, Any], result: dict[str, Any]) -> RenderableType:
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
            raise InvalidPosition(f"result players[{i}] must be an object, not {shown(entry)}")
        seat = entry.get("seat", i)
        if not _is_int(seat) or not 0 <= seat < len(view.players) or seat in by_seat:
            raise InvalidPosition(f"result players[{i}]: bad or repeated seat {shown(seat)}")
        points = entry.get("cards", {})
        if not isinstance(points, Mapping) or not all(_is_int(v) for v in points.values()):
            raise InvalidPosition(f"result players[{i}].cards must map card names to whole numbers")
        if not _is_int(entry.get("total")):
            raise InvalidPosition(f"result players[{i}].total must be a whole number, not {shown(entry.get('total'))}")
        by_seat[seat] = entry
    winners = result.get("winners", [])
    if not isinstance(winners, (list, tuple)) or not all(_is_int(w) and w in by_seat for w in winners):
        raise InvalidPosition(f"result winners must list seats of the game, not {shown(winners)}")

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
