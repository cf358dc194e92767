"""Helpers for tests that build Kingdom Builder positions by hand.

The map facts here are worked out from the specification (kingdom-builder/boards.md) and the board
data, independently of the engine's own board code, so that tests check the engine against the spec.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from builders.kingdom.data import location_kind_at, map_rows

Hex = tuple[int, int]

#: oracle (slot 0), paddock (1), harbor (2), farm (3), none turned: the benchmark map
BENCH_MAP = [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]]
#: barn (slot 0), tower (1), harbor (2), tavern (3), none turned
BARN_MAP = [["barn", False], ["tower", False], ["harbor", False], ["tavern", False]]
#: the recommended first game: tavern, paddock, oasis, farm
FIRST_MAP = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]

LETTERS = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower", "T": "forest"}
BUILDABLE = set(LETTERS)


def neighbours(r: int, c: int) -> list[Hex]:
    """The neighbours of global (r, c) on the 20 x 20 map, as boards.md ("Geometry") lists them."""
    if r % 2 == 0:
        cand = [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r - 1, c), (r - 1, c + 1), (r, c - 1), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    return [(a, b) for a, b in cand if 0 <= a < 20 and 0 <= b < 20]


def letter(sections, r: int, c: int) -> str:
    return map_rows([tuple(s) for s in sections])[r][c]


def hexes(sections, letters: str) -> list[Hex]:
    """Every hex of the map whose letter is one of ``letters``."""
    rows = map_rows([tuple(s) for s in sections])
    return [(r, c) for r in range(20) for c in range(20) if rows[r][c] in letters]


def locations(sections) -> dict[Hex, str]:
    secs = [tuple(s) for s in sections]
    return {h: location_kind_at(secs, *h) for h in hexes(sections, "L")}


def fmt(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def player(settlements: Iterable[Hex] = (), **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"settlements": [list(h) for h in settlements]}
    p.update(extra)
    return p


def tile(kind: str, frm: Hex, state: str = "ready") -> dict[str, Any]:
    return {"kind": kind, "from": list(frm), "state": state}


def position(sections, cards: Sequence[str], players: Sequence[dict], **extra: Any) -> dict[str, Any]:
    pos: dict[str, Any] = {
        "sections": [list(s) for s in sections],
        "cards": list(cards),
        "players": copy.deepcopy(list(players)),
    }
    pos.update(extra)
    return pos


def load(pos: dict[str, Any]):
    from builders.kingdom.state import KingdomState

    return KingdomState.from_json(copy.deepcopy(pos))


def moves(state) -> list[str]:
    """The legal actions of ``state`` as sorted notation strings."""
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def moves_of(state, kind: str) -> list[str]:
    return [m for m in moves(state) if m.split()[0] == kind]


def builds(hs: Iterable[Hex], kind: str = "build") -> list[str]:
    return sorted(f"{kind} {fmt(h)}" for h in hs)


def free_of(sections, letters: str, occupied: Iterable[Hex]) -> list[Hex]:
    occ = set(map(tuple, occupied))
    return [h for h in hexes(sections, letters) if h not in occ]


def filler(sections, n: int, avoid: str, exclude: Iterable[Hex] = ()) -> list[Hex]:
    """``n`` buildable hexes, none of whose neighbours is of a terrain in ``avoid`` (letters) or is a
    castle or location hex, and none of them in or next to ``exclude``: settlements that fill a
    player's map (so that the supply can be small) without changing the moves a test looks at."""
    rows = map_rows([tuple(s) for s in sections])
    ex = set(map(tuple, exclude))
    near_ex = ex | {nb for h in ex for nb in neighbours(*h)}
    out: list[Hex] = []
    for r in range(20):
        for c in range(20):
            if rows[r][c] not in BUILDABLE or rows[r][c] in avoid or (r, c) in near_ex:
                continue
            if any(rows[a][b] in avoid or rows[a][b] in "KL" for a, b in neighbours(r, c)):
                continue
            out.append((r, c))
            if len(out) == n:
                return out
    raise AssertionError(f"only {len(out)} filler hexes avoid {avoid!r}")


def seats(state) -> list[dict[str, Any]]:
    return state.to_json()["players"]


def settlements_of(state, seat: int) -> set[Hex]:
    return {tuple(h) for h in state.to_json()["players"][seat]["settlements"]}


# -- a reference move generator, written from rules.md alone -------------------------------------

_STEP = {
    # direction: (row step, column step on an even row, column step on an odd row)
    "W": (0, -1, -1),
    "E": (0, 1, 1),
    "NW": (-1, -1, 0),
    "NE": (-1, 0, 1),
    "SW": (1, -1, 0),
    "SE": (1, 0, 1),
}


def step(h: Hex, direction: str) -> Hex:
    dr, even, odd = _STEP[direction]
    return (h[0] + dr, h[1] + (odd if h[0] % 2 else even))


def on_map(h: Hex) -> bool:
    return 0 <= h[0] < 20 and 0 <= h[1] < 20


def reference_moves(pos: dict[str, Any]) -> list[str]:
    """The legal actions of a position (sorted notation), computed straight from rules.md ("A turn",
    "Building rules", "The eight tiles"), independently of the engine."""
    if pos.get("game_over"):
        return []
    sections = pos["sections"]
    rows = map_rows([tuple(s) for s in sections])
    p = pos["to_move"]
    me = pos["players"][p]
    own = {tuple(h) for h in me["settlements"]}
    occupied = {tuple(h) for q in pos["players"] for h in q["settlements"]}
    supply = me["supply"]
    built = pos["built_this_turn"]
    letter_of = {v: k for k, v in LETTERS.items()}
    played = letter_of.get(me["terrain"], "")
    done = built == 3 or supply == 0
    during = 0 < built and not done
    all_hexes = [(r, c) for r in range(20) for c in range(20)]

    def adjacent_if_possible(candidates: list[Hex], mine: set[Hex]) -> list[Hex]:
        near = {n for h in mine for n in neighbours(*h)}
        return [h for h in candidates if h in near] or candidates

    def free(letters: str, occ: set[Hex]) -> list[Hex]:
        return [h for h in all_hexes if rows[h[0]][h[1]] in letters and h not in occ]

    out: list[str] = []
    if not done and played:
        out += [f"build {fmt(h)}" for h in adjacent_if_possible(free(played, occupied), own)]
    if done:
        out.append("end")
    if during:
        return sorted(out)
    kinds = {t["kind"] for t in me["tiles"] if t["state"] == "ready"}
    if supply > 0:
        targets: dict[str, list[Hex]] = {}
        if "oracle" in kinds and played:
            targets["oracle"] = adjacent_if_possible(free(played, occupied), own)
        if "farm" in kinds:
            targets["farm"] = adjacent_if_possible(free("G", occupied), own)
        if "oasis" in kinds:
            targets["oasis"] = adjacent_if_possible(free("D", occupied), own)
        if "tower" in kinds:
            edge = [h for h in free("GCDFT", occupied) if h[0] in (0, 19) or h[1] in (0, 19)]
            targets["tower"] = adjacent_if_possible(edge, own)
        if "tavern" in kinds:
            ends = set()
            for h in own:
                for d in _STEP:
                    a = step(h, d)
                    b = step(a, d)
                    if a in own and b in own:
                        for end in (step(b, d), step(h, _opposite(d))):
                            ends.add(end)
            targets["tavern"] = [h for h in free("GCDFT", occupied) if h in ends]
        for kind, hs in targets.items():
            out += [f"{kind} {fmt(h)}" for h in hs]
    for kind, letters in (("barn", played), ("harbor", "W")):
        if kind in kinds and letters:
            for s in sorted(own):
                rest_occ = occupied - {s}
                out += [f"{kind} {fmt(s)}>{fmt(h)}" for h in adjacent_if_possible(free(letters, rest_occ), own - {s})]
    if "paddock" in kinds:
        for s in sorted(own):
            for d in _STEP:
                t = step(step(s, d), d)
                if on_map(t) and rows[t[0]][t[1]] in BUILDABLE and t not in occupied:
                    out.append(f"paddock {fmt(s)}>{fmt(t)}")
    return sorted(set(out))


def _opposite(d: str) -> str:
    return {"W": "E", "E": "W", "NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}[d]


# -- reference scoring, written from rules.md ("Scoring") alone ---------------------------------


def _groups(own: set[Hex]) -> list[set[Hex]]:
    left = set(own)
    out = []
    while left:
        start = left.pop()
        group, todo = {start}, [start]
        while todo:
            for n in neighbours(*todo.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    todo.append(n)
        out.append(group)
    return out


def reference_scores(pos: dict[str, Any]) -> list[dict[str, int]]:
    """The gold of every seat per card (castles first, then the cards in order), from rules.md."""
    rows = map_rows([tuple(s) for s in pos["sections"]])
    kind = lambda h: rows[h[0]][h[1]]  # noqa: E731
    mine = [{tuple(h) for h in p["settlements"]} for p in pos["players"]]

    def sector(h: Hex) -> int:
        return (h[0] >= 10) * 2 + (h[1] >= 10)

    sector_counts = [[sum(1 for h in own if sector(h) == s) for s in range(4)] for own in mine]

    def lords(seat: int) -> int:
        gold = 0
        for s in range(4):
            counts = sorted({c[s] for c in sector_counts}, reverse=True)
            mine_count = sector_counts[seat][s]
            if mine_count == counts[0]:
                gold += 12
            elif len(counts) > 1 and mine_count == counts[1]:
                gold += 6
        return gold

    out = []
    for seat, own in enumerate(mine):
        near = lambda h, letters: any(kind(n) in letters for n in neighbours(*h))  # noqa: E731
        groups = _groups(own)
        linked = set()
        for g in groups:
            touched = {n for h in g for n in neighbours(*h) if kind(n) in "KL"}
            if len(touched) >= 2:
                linked |= touched
        per_row = [sum(1 for h in own if h[0] == r) for r in range(20)]
        card_gold = {
            "fishermen": sum(1 for h in own if kind(h) != "W" and near(h, "W")),
            "miners": sum(1 for h in own if near(h, "M")),
            "workers": sum(1 for h in own if near(h, "KL")),
            "merchants": 4 * len(linked),
            "discoverers": sum(1 for n in per_row if n),
            "knights": 2 * max(per_row),
            "hermits": len(groups),
            "citizens": max((len(g) for g in groups), default=0) // 2,
            "lords": lords(seat),
            "farmers": 3 * min(sector_counts[seat]),
        }
        castles = {n for h in own for n in neighbours(*h) if kind(n) == "K"}
        part = {"castles": 3 * len(castles)}
        for card in pos["cards"]:
            part[card] = card_gold[card]
        out.append(part)
    return out
