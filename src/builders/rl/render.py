"""Drawing an environment's game: "human" (printed), "ansi" (text) and "rgb_array" (pixels).

Each game's codec draws it (``render``, ``render_rgb``): a game whose engine draws an SVG has it
drawn with CairoSVG; one without a picture in the engine has its terminal drawing set in a character
grid (:func:`text_picture`), dark on light, one cell per character.
"""

from __future__ import annotations

import numpy as np

RENDER_MODES = ("human", "ansi", "rgb_array")
#: the character cell of a text picture, in pixels
CELL_W, CELL_H = 7, 14


def check_render_mode(render_mode: str | None, modes) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {list(modes)} or None, not {render_mode!r}")
    return render_mode


def render(codec, state, mode: str | None):
    """The drawing of ``state`` in ``mode`` (None warns and returns None, as Gymnasium asks)."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
        return None
    if mode == "rgb_array":
        return codec.render_rgb(state)
    text = codec.render(state)
    if mode == "human":
        print(text)
        return None
    return text


def text_picture(text: str) -> np.ndarray:
    """``text`` as an (H, W, 3) uint8 picture, each character in a cell of its own (so tables stay
    aligned whatever the font)."""
    from PIL import Image, ImageDraw, ImageFont

    lines = text.rstrip("\n").split("\n")
    width = max((len(line) for line in lines), default=1)
    image = Image.new("RGB", (CELL_W * width + 16, CELL_H * len(lines) + 16), (250, 247, 240))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            if not ch.isspace():
                draw.text((8 + CELL_W * col, 8 + CELL_H * row), ch, fill=(40, 32, 24), font=font)
    return np.asarray(image)
