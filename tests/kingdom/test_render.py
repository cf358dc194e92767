"""Drawing positions: plain text and rich in the terminal, SVG pictures, the score table."""

from __future__ import annotations

import copy
import io
import math
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from builders.core.errors import InvalidPosition
from builders.kingdom.data import SECTIONS, map_rows
from builders.kingdom.render import (
    SEAT_COLOURS,
    render_svg,
    render_terminal,
    render_terminal_text,
    score_table,
)

SVG = "{http://www.w3.org/2000/svg}"
FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
CARDS3 = ["fishermen", "merchants", "knights"]
#: the location hexes of the first-game map, with their kinds (from boards.md, by hand)
FIRST_LOCATIONS = {
    (6, 2): "tavern",
    (6, 7): "tavern",
    (2, 18): "paddock",
    (6, 11): "paddock",
    (12, 7): "oasis",
    (17, 5): "oasis",
    (11, 17): "farm",
    (15, 12): "farm",
}
MARK = {"tavern": "Ta", "paddock": "Pa", "oasis": "Oa", "farm": "Fa"}


def first_game(**extra):
    pos = {
        "sections": copy.deepcopy(FIRST),
        "cards": list(CARDS3),
        "players": [
            {"settlements": [[7, 6], [8, 6], [3, 4]], "supply": 37, "terrain": "grass"},
            {"settlements": [[0, 0], [19, 19]], "supply": 38, "terrain": None},
            {"settlements": [[13, 4]], "supply": 39},
        ],
    }
    pos.update(extra)
    return pos


def map_lines(text: str) -> list[str]:
    """The 20 map rows of a plain rendering (each starts with its row number)."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(" 0 "))
    return lines[start : start + 20]


def cells(line: str, r: int) -> list[str]:
    """The 20 three-character cells of map row ``r``: 3 characters of row number, then 2 more on odd rows."""
    offset = 3 + (2 if r % 2 else 0)
    return [line[offset + 4 * c : offset + 4 * c + 3] for c in range(20)]


def svg_root(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def hex_polygons(root: ET.Element) -> list[ET.Element]:
    return [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "hex"]


def centre(points: str) -> tuple[float, float]:
    pts = [tuple(map(float, p.split(","))) for p in points.split()]
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


# ------------------------------------------------------------------ plain text


def test_text_first_game_rows_and_offsets():
    lines = map_lines(render_terminal_text(first_game(players=[{"settlements": []}, {"settlements": []}])))
    # row 3 of the first game: tavern "WWFKGGTTMM" then paddock "MCMMWMDFFF"
    assert [cell.strip() for cell in cells(lines[3], 3)][:10] == list("WWFKGGTTMM")
    assert "".join(cell.strip() for cell in cells(lines[3], 3)) == "WWFKGGTTMMMCMMWMDFFF"
    # row 13: oasis "WWWFGTFFFF", farm "CCFFWDDCCF"
    assert "".join(cell.strip() for cell in cells(lines[13], 13)) == "WWWFGTFFFFCCFFWDDCCF"
    rows = map_rows([tuple(s) for s in FIRST])
    for r, line in enumerate(lines):
        assert line.startswith(f"{r:>2} ")
        for c, cell in enumerate(cells(line, r)):
            if (r, c) in FIRST_LOCATIONS:
                assert cell == MARK[FIRST_LOCATIONS[(r, c)]] + "2", (r, c)
            else:
                assert cell == f" {rows[r][c]} ", (r, c)


def test_text_odd_rows_are_indented_by_half_a_cell():
    rows = map_rows([tuple(s) for s in FIRST])
    lines = map_lines(render_terminal_text(first_game(players=[{"settlements": []}, {"settlements": []}])))
    for r in range(20):
        first = 4 + (2 if r % 2 else 0)  # the first letter: column 4 on even rows, 6 on odd rows
        assert lines[r][2:first] == " " * (first - 2), r
        assert lines[r][first] == rows[r][0], r
        # the last cell ends 2 characters further right on odd rows
        assert lines[r][first + 4 * 19] == rows[r][19], r
    assert lines[0].startswith(" 0  F   D   D   M")
    assert lines[1].startswith(" 1    F   F   D   D")


def test_text_settlements_show_seat_digits():
    text = render_terminal_text(first_game())
    lines = map_lines(text)
    assert cells(lines[7], 7)[6] == " G0"
    assert cells(lines[8], 8)[6] == " T0"
    assert cells(lines[3], 3)[4] == " G0"
    assert cells(lines[0], 0)[0] == " F1"
    assert cells(lines[19], 19)[19] == " W1"  # a settlement moved onto water by the Harbor
    assert cells(lines[13], 13)[4] == " G2"
    digits = sum(1 for r, line in enumerate(lines) for cell in cells(line, r) if cell[2].isdigit() and cell[0] == " ")
    assert digits == 6


def test_text_coordinates_on_the_edges():
    text = render_terminal_text(first_game())
    lines = text.split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith(" 0 ")) - 1
    header, footer = lines[top], lines[top + 21]
    # column numbers centred over the cells of row 0 (top) and row 19 (bottom)
    for c in range(20):
        assert header[3 + 4 * c : 6 + 4 * c].strip() == str(c)
        assert footer[5 + 4 * c : 8 + 4 * c].strip() == str(c)
    for r, line in enumerate(map_lines(text)):
        assert line.split()[-1] == str(r)


def test_text_tiles_left_and_player_panels():
    pos = first_game(
        tiles_left=[{"at": [6, 2], "count": 1}, {"at": [2, 18], "count": 0}],
        to_move=1,
    )
    pos["players"][0]["tiles"] = [{"kind": "tavern", "from": [6, 2], "state": "new"}]
    pos["players"][0]["settlements"].append([5, 2])
    pos["players"][0]["supply"] = 36
    text = render_terminal_text(pos)
    lines = map_lines(text)
    assert cells(lines[6], 6)[2] == "Ta1"
    assert cells(lines[2], 2)[18] == "Pa0"
    assert cells(lines[6], 6)[7] == "Ta2"
    seat0 = next(line for line in text.split("\n") if line.startswith("seat 0 ("))
    assert "supply 36" in seat0 and "4 on the map" in seat0
    assert "terrain card: grass" in seat0
    assert "tavern (new) from 6,2" in seat0
    assert "to move" not in seat0
    seat1 = next(line for line in text.split("\n") if line.startswith("seat 1 ("))
    assert "to move" in seat1 and "terrain card: hidden/none" in seat1 and "tiles: none" in seat1
    assert "cards: fishermen" in text and "merchants" in text and "knights" in text


def test_text_turned_sections_draw_turned():
    pos = first_game(players=[{"settlements": []}, {"settlements": []}])
    pos["sections"] = [["tavern", True], ["paddock", False], ["oasis", False], ["farm", True]]
    lines = map_lines(render_terminal_text(pos))
    for r in range(10):
        for c in range(10):
            got = cells(lines[r], r)[c]
            want = SECTIONS["tavern"][9 - r][9 - c]
            if want == "L":
                assert got == "Ta2"
            else:
                assert got == f" {want} ", (r, c)
            got = cells(lines[10 + r], 10 + r)[10 + c]
            want = SECTIONS["farm"][9 - r][9 - c]
            assert got == ("Fa2" if want == "L" else f" {want} "), (r, c)
    # the turned tavern's castle moves from (3, 3) to (6, 6)
    assert cells(lines[6], 6)[6] == " K "
    assert cells(lines[3], 3)[3] == " T "


def test_text_defaults_for_missing_keys():
    pos = {"sections": FIRST, "cards": CARDS3, "players": [{"settlements": [[7, 6], [8, 6]]}, {"settlements": []}]}
    text = render_terminal_text(pos)
    seat0 = next(line for line in text.split("\n") if line.startswith("seat 0 ("))
    seat1 = next(line for line in text.split("\n") if line.startswith("seat 1 ("))
    assert "supply 38" in seat0 and "to move" in seat0 and "tiles: none" in seat0
    assert "supply 40" in seat1 and "to move" not in seat1
    lines = map_lines(text)
    for (r, c), kind in FIRST_LOCATIONS.items():
        assert cells(lines[r], r)[c] == MARK[kind] + "2"


def test_status_line_shows_turn_deck_discard_and_game_over():
    pos = first_game(turn=12, deck_count=9, discard=["grass", "grass", "forest"], final_round=True, removed=["desert"])
    text = render_terminal_text(pos)
    status = text.split("\n")[0]
    assert "turn 12" in status and "deck 9 cards" in status and "grass 2, forest 1" in status
    assert "final round" in status and "seat 0 to move" in status and "out of the game: desert 1" in status
    over = render_terminal_text(first_game(game_over=True, to_move=2)).split("\n")
    assert "game over" in over[0] and "to move" not in "\n".join(over)


# ------------------------------------------------------------------ rich


def test_render_terminal_has_map_legend_panels_and_colours():
    console = Console(record=True, width=120, color_system="truecolor", file=io.StringIO())
    console.print(render_terminal(first_game(to_move=1)))
    text = console.export_text(clear=False)
    html = console.export_html(inline_styles=True)
    lines = text.split("\n")
    row3 = next(line for line in lines if line.startswith(" 3 "))
    # odd row: cells start two characters later, water as ~, the castle as K
    assert row3[5:16] == " ~   ~   f "
    assert row3[17:20] == " K "
    row7 = next(line for line in lines if line.startswith(" 7 "))
    assert row7[5 + 4 * 6 : 8 + 4 * 6] == "▐0▌"
    assert "seat 1 (blue) - to move" in text
    assert "terrain card:  grass" in text
    assert "knights: 2 per settlement" in text
    assert "water" in text and "mountain" in text and "castle" in text and "tavern" in text
    # grass, water and the red seat appear as background colours
    assert "background-color: #9fd16a" in html
    assert "background-color: #3f86d0" in html
    assert f"background-color: {SEAT_COLOURS[0]}" in html


# ------------------------------------------------------------------ SVG


def test_svg_parses_and_has_400_hexes_in_odd_r_geometry():
    root = svg_root(render_svg(first_game()))
    assert root.tag == f"{SVG}svg"
    polys = hex_polygons(root)
    assert len(polys) == 400
    at = {(int(p.get("data-r")), int(p.get("data-c"))): p for p in polys}
    assert len(at) == 400 and set(at) == {(r, c) for r in range(20) for c in range(20)}
    x00, y00 = centre(at[(0, 0)].get("points"))
    x01, _ = centre(at[(0, 1)].get("points"))
    x10, y10 = centre(at[(1, 0)].get("points"))
    pts = [tuple(map(float, p.split(","))) for p in at[(0, 0)].get("points").split()]
    size = sum(math.dist(p, (x00, y00)) for p in pts) / 6
    assert len(pts) == 6
    assert min(pts, key=lambda p: p[1])[0] == pytest.approx(x00, abs=0.02)  # pointy top
    assert x01 - x00 == pytest.approx(math.sqrt(3) * size, abs=0.05)
    assert y10 - y00 == pytest.approx(1.5 * size, abs=0.05)
    assert x10 - x00 == pytest.approx(math.sqrt(3) * size / 2, abs=0.05)
    x_19_19, y_19_19 = centre(at[(19, 19)].get("points"))
    assert x_19_19 - x00 == pytest.approx(math.sqrt(3) * size * 19.5, abs=0.3)
    assert y_19_19 - y00 == pytest.approx(1.5 * size * 19, abs=0.3)


def test_svg_hex_kinds_follow_the_map_and_turned_sections():
    pos = first_game(players=[{"settlements": []}, {"settlements": []}])
    pos["sections"] = [["tavern", True], ["paddock", False], ["oasis", True], ["farm", False]]
    polys = hex_polygons(svg_root(render_svg(pos)))
    at = {(int(p.get("data-r")), int(p.get("data-c"))): p.get("data-kind") for p in polys}
    names = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower", "T": "forest"}
    names.update({"W": "water", "M": "mountain", "K": "castle"})
    for r in range(10):
        for c in range(10):
            want = SECTIONS["tavern"][9 - r][9 - c]
            assert at[(r, c)] == ("tavern" if want == "L" else names[want])
            want = SECTIONS["oasis"][9 - r][9 - c]
            assert at[(10 + r, c)] == ("oasis" if want == "L" else names[want])
            want = SECTIONS["paddock"][r][c]
            assert at[(r, 10 + c)] == ("paddock" if want == "L" else names[want])
    assert at[(6, 6)] == "castle" and at[(3, 3)] == "forest"


def test_svg_houses_in_seat_colours():
    pos = first_game()
    root = svg_root(render_svg(pos))
    houses = [e for e in root.iter() if e.get("class") == "house"]
    assert len(houses) == 6
    hexes = {(int(p.get("data-r")), int(p.get("data-c"))): p for p in hex_polygons(root)}
    seen = set()
    for h in houses:
        seat, r, c = int(h.get("data-seat")), int(h.get("data-r")), int(h.get("data-c"))
        assert [r, c] in pos["players"][seat]["settlements"]
        assert h.get("fill") == SEAT_COLOURS[seat]
        hx, hy = centre(hexes[(r, c)].get("points"))
        xs = [float(p.split(",")[0]) for p in h.get("points").split()]
        assert min(xs) < hx < max(xs)
        seen.add((r, c))
    assert len(seen) == 6


def test_svg_highlights_and_badges():
    pos = first_game(tiles_left=[{"at": [6, 2], "count": 1}, {"at": [17, 5], "count": 0}])
    root = svg_root(render_svg(pos, highlight=[[4, 4], (10, 10), [19, 0]]))
    marks = [e for e in root.iter() if e.get("class") == "highlight"]
    assert sorted((int(m.get("data-r")), int(m.get("data-c"))) for m in marks) == [(4, 4), (10, 10), (19, 0)]
    hexes = {(int(p.get("data-r")), int(p.get("data-c"))): p for p in hex_polygons(root)}
    for m in marks:
        mx, my = centre(m.get("points"))
        hx, hy = centre(hexes[(int(m.get("data-r")), int(m.get("data-c")))].get("points"))
        assert (mx, my) == (pytest.approx(hx, abs=0.02), pytest.approx(hy, abs=0.02))
    badges = {(int(b.get("data-r")), int(b.get("data-c"))): b for b in root.iter() if b.get("class") == "badge"}
    assert set(badges) == set(FIRST_LOCATIONS)
    for h, badge in badges.items():
        want = {(6, 2): 1, (17, 5): 0}.get(h, 2)
        assert badge.get("data-count") == str(want)
        assert "".join(badge.itertext()).strip() == str(want)
    assert not [e for e in svg_root(render_svg(pos)).iter() if e.get("class") == "highlight"]


def test_svg_panel_players_cards_title_and_defaults():
    pos = {"sections": FIRST, "cards": CARDS3, "players": [{"settlements": [[7, 6], [8, 6]]}, {"settlements": []}]}
    pos["players"][0]["tiles"] = [{"kind": "paddock", "from": [6, 11], "state": "used"}]
    svg = render_svg(pos, title="Turn <5> & more")
    root = svg_root(svg)
    words = " ".join(t for e in root.iter(f"{SVG}text") for t in e.itertext())
    assert "Turn <5> & more" in words
    assert root.find(f"{SVG}title").text == "Turn <5> & more"
    assert "supply 38" in words and "supply 40" in words
    assert "Fishermen" in words and "Merchants" in words and "Knights" in words and "Castles" in words
    assert "Seat 0 (red)" in words and "Seat 1 (blue)" in words and "to move" in words
    assert "paddock · used" in words
    tiles = [e for e in root.iter() if e.get("class") == "tile"]
    assert [(t.get("data-kind"), t.get("data-state")) for t in tiles] == [("paddock", "used")]
    # every location has its 2 tiles by default
    assert sorted(b.get("data-count") for b in root.iter() if b.get("class") == "badge") == ["2"] * 8


def test_svg_coordinates_on_every_edge():
    root = svg_root(render_svg(first_game()))
    coords = next(e for e in root.iter(f"{SVG}g") if e.get("class") == "coords")
    labels = [t.text for t in coords.iter(f"{SVG}text")]
    # columns at the top and bottom, rows at the left and right
    assert sorted(labels, key=int) == sorted([str(i) for i in range(20)] * 4, key=int)


def test_svg_is_standalone_and_deterministic():
    pos = first_game(tiles_left=[{"at": [6, 2], "count": 1}])
    one = render_svg(pos, highlight=[[1, 1]])
    assert one == render_svg(copy.deepcopy(pos), highlight=[[1, 1]])
    assert one.startswith("<?xml")
    assert not re.search(r"(href|src)=\"(https?:|//|data:)", one)
    assert "@import" not in one and "url(http" not in one
    # every use refers to something defined in the document
    ids = set(re.findall(r'id="([^"]+)"', one))
    assert set(re.findall(r'xlink:href="#([^"]+)"', one)) <= ids


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda p: p["sections"].__setitem__(0, ["castle", False]), "unknown section 'castle'"),
        (lambda p: p["sections"].__setitem__(1, ["tavern", False]), "used twice"),
        (lambda p: p["sections"].pop(), "4 [name, turned]"),
        (lambda p: p["cards"].__setitem__(2, "bakers"), "unknown card 'bakers'"),
        (lambda p: p["players"][0]["settlements"].append([20, 3]), "off the map"),
        (lambda p: p["players"][0]["settlements"].append([3, -1]), "off the map"),
        (lambda p: p["players"][0]["settlements"].append([3, 3]), "castle hex"),
        (lambda p: p["players"][1]["settlements"].append([7, 6]), "already holds a settlement of seat 0"),
        (lambda p: p["players"][0]["settlements"].append("7,7"), "[row, column] pair"),
        (lambda p: p["players"][0].__setitem__("terrain", "swamp"), "unknown terrain 'swamp'"),
        (lambda p: p["players"][0].__setitem__("supply", -1), "supply is -1"),
        (lambda p: p["players"][0].__setitem__("tiles", [{"kind": "farm", "from": [6, 2]}]), "cannot come from"),
        (
            lambda p: p["players"][0].__setitem__("tiles", [{"kind": "tavern", "from": [6, 2], "state": "spent"}]),
            "state",
        ),
        (lambda p: p.__setitem__("tiles_left", [{"at": [0, 0], "count": 1}]), "not a location hex"),
        (lambda p: p.__setitem__("tiles_left", [{"at": [6, 2], "count": 3}]), "count is 3"),
        (lambda p: p.__setitem__("to_move", 3), "to_move is 3"),
        (lambda p: p.__setitem__("players", p["players"][:1]), "2 to 4 players"),
        (lambda p: p.pop("sections"), "no 'sections'"),
    ],
)
def test_bad_positions_raise_clear_errors(change, words):
    pos = first_game()
    change(pos)
    for draw in (render_svg, render_terminal_text, render_terminal):
        with pytest.raises(InvalidPosition, match=re.escape(words)):
            draw(pos)


def test_bad_highlight_and_non_object():
    with pytest.raises(InvalidPosition, match=r"highlight\[1\] is \[4, 20\]: off the map"):
        render_svg(first_game(), highlight=[[1, 1], [4, 20]])
    with pytest.raises(InvalidPosition, match="JSON object"):
        render_svg([1, 2, 3])


# ------------------------------------------------------------------ score table


def result():
    return {
        "players": [
            {"seat": 0, "cards": {"castles": 3, "fishermen": 4, "merchants": 8, "knights": 6}, "total": 21},
            {"seat": 1, "cards": {"castles": 6, "fishermen": 7, "merchants": 0, "knights": 8}, "total": 21},
            {"seat": 2, "cards": {"castles": 0, "fishermen": 1, "merchants": 4, "knights": 2}, "total": 7},
        ],
        "winners": [0, 1],
    }


def table_rows(table) -> list[list[str]]:
    console = Console(record=True, width=140, file=io.StringIO())
    console.print(table)
    rows = []
    for line in console.export_text().split("\n"):
        parts = [p.strip() for p in re.split(r"[│┃]", line)]
        if len(parts) > 2:
            rows.append(parts[1:-1])
    return rows


def test_score_table_rows_totals_and_winners():
    table = score_table(first_game(), result())
    assert len(table.columns) == 4 and table.row_count == 5
    rows = table_rows(table)
    assert rows[0][0] == "card"
    assert "★" in rows[0][1] and "★" in rows[0][2] and "★" not in rows[0][3]
    body = {r[0]: r[1:] for r in rows[1:]}
    assert [r[0] for r in rows[1:]] == ["castles", "fishermen", "merchants", "knights", "total"]
    assert body["castles"] == ["3", "6", "0"]
    assert body["merchants"] == ["8", "0", "4"]
    assert body["total"] == ["21 ★", "21 ★", "7"]


def test_score_table_extra_keys_and_bad_results():
    res = result()
    res["players"][2]["cards"]["bonus"] = 5
    rows = table_rows(score_table(first_game(), res))
    assert [r[0] for r in rows[1:]] == ["castles", "fishermen", "merchants", "knights", "bonus", "total"]
    assert rows[5][1:] == ["0", "0", "5"]
    res = result()
    res["players"].pop()
    with pytest.raises(InvalidPosition, match="the result has 2 players, the position 3"):
        score_table(first_game(), res)
    res = result()
    res["winners"] = [5]
    with pytest.raises(InvalidPosition, match="winners"):
        score_table(first_game(), res)
    res = result()
    res["players"][0]["total"] = "lots"
    with pytest.raises(InvalidPosition, match="total must be a whole number"):
        score_table(first_game(), res)


# ------------------------------------------------------------------ narrow terminals and real games


def test_narrow_console_gets_the_two_character_layout():
    console = Console(record=True, width=80, color_system="truecolor", file=io.StringIO())
    console.print(render_terminal(first_game(tiles_left=[{"at": [6, 2], "count": 0}])))
    lines = console.export_text().split("\n")
    assert max(len(line.rstrip()) for line in lines if line[:3].strip().isdigit()) <= 80
    row3 = next(line for line in lines if line.startswith(" 3 "))
    row6 = next(line for line in lines if line.startswith(" 6 "))
    row7 = next(line for line in lines if line.startswith(" 7 "))
    # hexes 2 characters wide, odd rows shifted by 1: row 3 is W W F K G G ...
    assert row3[4:16] == "~ ~ f K 0▌g "  # seat 0 at (3, 4)
    assert row6[3:11] == "d f v0c "  # the tavern location at (6, 2), with no tile left
    assert row7[4 + 2 * 6 : 6 + 2 * 6] == "0▌"
    assert any(line.split() == [str(c % 10) for c in range(20)] for line in lines)


def test_drawing_positions_of_a_played_game():
    from builders.core.agents import RandomAgent, play
    from builders.kingdom.game import KingdomBuilder

    game = KingdomBuilder()
    state = game.new_state(game.random_setup(3, 11))
    play(state, [RandomAgent(110 + seat) for seat in range(3)])
    pos = state.to_json()
    root = svg_root(render_svg(pos))
    assert len(hex_polygons(root)) == 400
    houses = [e for e in root.iter() if e.get("class") == "house"]
    assert len(houses) == sum(len(p["settlements"]) for p in pos["players"]) > 0
    assert "game over" in render_terminal_text(pos).split("\n")[0]
    rows = table_rows(score_table(pos, state.result().to_json("cards")))
    totals = dict(zip(range(3), rows[-1][1:]))
    assert [int(t.rstrip(" ★")) for t in totals.values()] == list(state.result().scores)
