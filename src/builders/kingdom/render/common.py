"""What every drawing of a Kingdom Builder position shares: colours, names and marks, and the reading of
a position JSON (any position file, also one written by hand) into one checked shape, defaults filled in.

Geometry: global (R, C), 0-19, row 0 on top, pointy-top hexes, odd rows shifted half a hex to the right."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeGuard

from builders.core.errors import InvalidPosition
from builders.kingdom.checks import shown
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS, map_rows

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


def _fail(message: str) -> NoReturn:
    raise InvalidPosition(message)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if not _is_int(value):
        _fail(f"{where} must be a whole number, not {shown(value)}")
    if value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        _fail(f"{where} is {shown(value)}: it must be {bound}")
    return value


def _hex(value: Any, where: str) -> Hex:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(_is_int(v) for v in value):
        _fail(f"{where} must be a [row, column] pair of whole numbers, not {shown(value)}")
    r, c = value
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        _fail(f"{where} is [{shown(r)}, {shown(c)}]: off the map (rows and columns run from 0 to {SIZE - 1})")
    return (r, c)


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        _fail(f"{where} must be a list, not {shown(value)}")
    return list(value)


def _terrain_cards(value: Any, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    cards = tuple(_list(value, where))
    for i, card in enumerate(cards):
        if card not in TERRAINS:
            _fail(f"{where}[{i}]: unknown terrain card {shown(card)} (known: {', '.join(TERRAINS)})")
    return cards


def _read(position: Any) -> _View:
    """Check ``position`` and bring it into one shape, defaults filled in."""
    if not isinstance(position, Mapping):
        _fail(f"a position must be a JSON object, not {type(position).__name__}")
    for key in ("sections", "cards", "players"):
        if key not in position:
            _fail(f"the position has no {shown(key)}")

    sections_in = _list(position["sections"], "sections")
    if len(sections_in) != 4:
        _fail(f"sections must list 4 [name, turned] pairs (slots 0-3), not {len(sections_in)}")
    sections: list[tuple[str, bool]] = []
    for i, pair in enumerate(sections_in):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            _fail(f"sections[{i}] must be a [name, turned] pair, not {shown(pair)}")
        name, turned = pair
        if name not in SECTION_NAMES:
            _fail(f"sections[{i}]: unknown section {shown(name)} (known: {', '.join(SECTION_NAMES)})")
        if not isinstance(turned, bool):
            _fail(f"sections[{i}]: 'turned' must be true or false, not {shown(turned)}")
        if any(name == other for other, _ in sections):
            _fail(f"sections[{i}]: section {shown(name)} is used twice (the 4 sections must differ)")
        sections.append((name, turned))
    rows = map_rows(sections)

    cards = _list(position["cards"], "cards")
    if len(cards) != 3:
        _fail(f"cards must list 3 Kingdom Builder cards, not {len(cards)}")
    for i, card in enumerate(cards):
        if card not in CARDS:
            _fail(f"cards[{i}]: unknown card {shown(card)} (known: {', '.join(CARDS)})")
    if len(set(cards)) != 3:
        _fail(f"cards must be 3 different cards, not {shown(cards)}")

    players_in = _list(position["players"], "players")
    if not 2 <= len(players_in) <= 4:
        _fail(f"a game has 2 to 4 players, not {len(players_in)}")
    players: list[_Player] = []
    occupant: dict[Hex, int] = {}
    for seat, p in enumerate(players_in):
        where = f"players[{seat}]"
        if not isinstance(p, Mapping):
            _fail(f"{where} must be a JSON object, not {shown(p)}")
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
            _fail(f"{where}.terrain: unknown terrain {shown(terrain)} (known: {', '.join(TERRAINS)}, or null)")
        tiles: list[_Tile] = []
        for i, t in enumerate(_list(p.get("tiles") or [], f"{where}.tiles")):
            tw = f"{where}.tiles[{i}]"
            if not isinstance(t, Mapping):
                _fail(f"{tw} must be an object with 'kind', 'from' and 'state', not {shown(t)}")
            kind = t.get("kind")
            if kind not in SECTION_NAMES:
                _fail(f"{tw}: unknown tile kind {shown(kind)} (known: {', '.join(SECTION_NAMES)})")
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
                _fail(f"{tw}.state must be one of {', '.join(TILE_STATES)}, not {shown(state)}")
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
                _fail(f"tiles_left[{i}] must be an object with 'at' and 'count', not {shown(entry)}")
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
            _fail(f"{key} must be true or false, not {shown(value)}")
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
