"""Scoring (rules.md, "Scoring"; FAQ seed 003, "Подсчет очков" 1-13) on hand-made final positions
of the first-game map (castles 3,3 7,15 11,11 17,1; tavern locations 6,2 6,7; paddock 6,11)."""

from __future__ import annotations

import pytest

from builders.kingdom import KingdomState
from builders.kingdom.data import map_rows

FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
ROWS = map_rows([tuple(s) for s in FIRST])
LAND = [[r, c] for r in range(20) for c in range(20) if ROWS[r][c] in "GCDFT"]


def final(settlements, cards=("fishermen", "merchants", "knights")):
    return KingdomState.from_json(
        {
            "sections": FIRST,
            "cards": list(cards),
            "game_over": True,
            "players": [{"settlements": s} for s in settlements],
        }
    )


def gold(settlements, card):
    st = final(settlements, cards=[card] + [c for c in ("miners", "workers", "hermits") if c != card][:2])
    return [b[card] for b in st.result().breakdown]


def in_sector(k, n, skip=0):
    """n land hexes of sector k (slot order), skipping the first ``skip``."""
    hexes = [h for h in LAND if (h[0] >= 10) * 2 + (h[1] >= 10) == k]
    return hexes[skip : skip + n]


def test_castles_count_castles_not_settlements():
    """rules.md, Scoring, Castles; FAQ scoring 1: 3 per castle with at least one own settlement next to it."""
    st = final([[[3, 4], [4, 4], [7, 14]], [[0, 0]]])
    assert [b["castles"] for b in st.result().breakdown] == [6, 0]


def test_fishermen_settlement_on_water_does_not_score():
    """rules.md, Fishermen; FAQ scoring 3-4: 1 per settlement next to water, not on water."""
    assert gold([[[3, 2], [4, 2], [0, 0]], []], "fishermen") == [1, 0]


def test_miners_per_settlement():
    """rules.md, Miners; FAQ scoring 4: two settlements next to one mountain score 2."""
    assert gold([[[0, 2], [1, 4], [0, 0]], []], "miners") == [2, 0]


def test_workers_castles_and_locations():
    """rules.md, Workers: 1 per settlement next to a castle or a location hex."""
    assert gold([[[3, 4], [7, 6], [0, 0]], []], "workers") == [2, 0]


def test_merchants_two_chains_of_two_score_16():
    """rules.md, Merchants; FAQ scoring 5: groups A-B and C-D score 16. A = castle 3,3, B = tavern
    6,2 (chain 4,4 5,3 6,3; 5,3 is water: settlements on water count for merchants), C = tavern 6,7,
    D = paddock 6,11 (chain 6,8 6,9 6,10)."""
    chains = [[4, 4], [5, 3], [6, 3], [6, 8], [6, 9], [6, 10]]
    assert gold([chains, []], "merchants") == [16, 0]
    assert gold([chains[:3], chains[3:]], "merchants") == [8, 8]
    # a chain touching one castle or location only scores nothing
    assert gold([[[4, 4], [5, 4]], []], "merchants") == [0, 0]


def test_merchants_chains_joined_through_a_location():
    """rules.md, Merchants: "a castle or location touched by two chains joins them": chain 4,4 5,3
    6,3 links castle 3,3 to tavern 6,2; a separate chain 7,1 ... 16,1 down column 1 links tavern 6,2
    to castle 17,1. Linked: 3,3 6,2 17,1 = 12."""
    x = [[4, 4], [5, 3], [6, 3]]
    y = [[r, 1] for r in range(7, 17)]
    assert gold([x + y, []], "merchants") == [12, 0]
    assert gold([y, x], "merchants") == [8, 8]


def test_discoverers_rows():
    """rules.md, Discoverers; FAQ scoring 6: 1 per row holding at least one own settlement."""
    assert gold([[[0, 0], [0, 1], [3, 4], [19, 10]], [[5, 5]]], "discoverers") == [3, 1]


def test_knights_best_row():
    """rules.md, Knights; FAQ scoring 7: 2 per settlement on the row with the most."""
    assert gold([[[7, 6], [7, 7], [7, 2], [0, 0], [0, 1]], []], "knights") == [6, 0]


def test_hermits_groups():
    """rules.md, Hermits; FAQ scoring 8: 1 per separate group, a lone settlement is a group."""
    assert gold([[[0, 0], [0, 1], [3, 4], [7, 6], [7, 7]], []], "hermits") == [3, 0]


def test_citizens_largest_group():
    """rules.md, Citizens; FAQ scoring 12: 1 per 2 settlements of the largest group, rounded down."""
    assert gold([[[7, 6], [7, 7], [7, 8], [8, 7], [8, 8], [0, 0], [0, 1]], []], "citizens") == [2, 0]


def test_lords_ties_and_second_place():
    """rules.md, Lords; FAQ scoring 9-11: counts 10, 10, 8, 8 in a sector give 12, 12, 6, 6 (the
    other sectors: everybody 0, so everybody 12)."""
    hexes = in_sector(0, 36)
    seats = [hexes[0:10], hexes[10:20], hexes[20:28], hexes[28:36]]
    assert gold(seats, "lords") == [48, 48, 42, 42]


def test_lords_zero_counts_take_part():
    """rules.md, Lords: counts 5 and 0 give 12 and 6; if all have 0, all get 12."""
    assert gold([in_sector(0, 5), []], "lords") == [12 + 36, 6 + 36]
    assert gold([[], []], "lords") == [48, 48]
    # highest 5, second-highest distinct 3 (two players): 12, 6, 6, and 0 for the lone 0
    hexes = in_sector(1, 11)
    assert gold([hexes[:5], hexes[5:8], hexes[8:11], []], "lords") == [12 + 36, 6 + 36, 6 + 36, 0 + 36]


def test_farmers_fewest_sector():
    """rules.md, Farmers; FAQ scoring 13: 3 per settlement in the sector with the fewest; 0 if a sector
    has none."""
    four = in_sector(0, 3) + in_sector(1, 2) + in_sector(2, 4) + in_sector(3, 2)
    three = in_sector(0, 1, skip=10) + in_sector(1, 1, skip=10) + in_sector(2, 1, skip=10)
    assert gold([four, three], "farmers") == [6, 0]


def test_breakdown_order_totals_and_shared_wins():
    """rules.md, Scoring: castles then the 3 cards in setup order; equal top scores share the win."""
    st = final([[[3, 4]], [[7, 14]]], cards=["knights", "hermits", "lords"])
    res = st.result()
    assert [list(b) for b in res.breakdown] == [["castles", "knights", "hermits", "lords"]] * 2
    # lords: 12 and 6 in sectors 0 and 1 (1 against 0), 12 in the empty sectors 2 and 3
    assert res.breakdown[0] == {"castles": 3, "knights": 2, "hermits": 1, "lords": 12 + 6 + 24}
    assert res.scores == (48, 48) and res.winners == (0, 1)
    assert res.to_json("cards")["players"][0] == {"seat": 0, "cards": res.breakdown[0], "total": 48}


def test_score_breakdown_any_time_and_scoring_hexes():
    """The running gold of every seat, usable before the end; the hexes behind a card."""
    st = KingdomState.from_json(
        {
            "sections": FIRST,
            "cards": ["workers", "merchants", "knights"],
            "players": [{"settlements": [[4, 4], [5, 3], [6, 3], [0, 0]]}, {"settlements": []}],
        }
    )
    assert st.score_breakdown()[0] == {"castles": 3, "workers": 2, "merchants": 8, "knights": 2}
    assert st.scoring_hexes(0, "merchants") == [(3, 3), (6, 2)]
    assert st.scoring_hexes(0, "workers") == [(4, 4), (6, 3)]
    assert st.scoring_hexes(0, "castles") == [(3, 3)]
    with pytest.raises(ValueError):
        st.result()


def test_lords_hexes_of_the_third_count_in_a_sector_do_not_score():
    """rules.md, Scoring (Lords): in each sector the most settlements score 12 and the second most 6; a
    third count scores nothing, so none of its hexes is shown as scoring. Sector 0 (rows 0-9, columns
    0-9) holds 3, 2 and 1 settlements of seats 0, 1 and 2; no other sector holds any."""
    from builders.kingdom import KingdomState
    from builders.kingdom.data import map_rows
    from builders.kingdom.scoring import scoring_hexes

    first = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
    rows = map_rows([tuple(s) for s in first])
    grass = [[r, c] for r in range(10) for c in range(10) if rows[r][c] == "G"][:6]
    st = KingdomState.from_json(
        {
            "sections": first,
            "cards": ["lords", "hermits", "knights"],
            "players": [
                {"settlements": grass[:3], "terrain": "grass"},
                {"settlements": grass[3:5], "terrain": "grass"},
                {"settlements": grass[5:], "terrain": "grass"},
            ],
        }
    )
    assert [scoring_hexes(st, seat, "lords") for seat in range(3)] == [
        [tuple(h) for h in grass[:3]],
        [tuple(h) for h in grass[3:5]],
        [],
    ]
