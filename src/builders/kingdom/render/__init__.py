"""Drawing Kingdom Builder positions, from the position JSON (``state.to_json()``, or any position file)
and the board data alone: in the terminal with rich or as plain text (:mod:`.terminal`), the final score
table (:mod:`.scores`) and SVG pictures (:mod:`.svg`); what they share, the reading of a position and
the colours, is in :mod:`.common`.
"""

from builders.kingdom.render.common import SEAT_COLOURS
from builders.kingdom.render.scores import score_table
from builders.kingdom.render.svg import render_svg
from builders.kingdom.render.terminal import render_terminal, render_terminal_text

__all__ = [
    "SEAT_COLOURS",
    "render_terminal",
    "render_terminal_text",
    "render_svg",
    "score_table",
]
