"""The card data against the totals of the-builders/cards.md."""

from collections import Counter

from builders.middle_ages.cards import (
    BUILDING_DECK,
    BUILDINGS,
    CARDS,
    COST,
    MACHINES,
    PROD,
    REQ,
    WORKERS,
    card_id_index,
    covers,
    pack,
    unpack,
)


def test_worker_types_and_costs():
    """cards.md "Workers (42)": 6 apprentices (cost 2), 12 labourers (3), 16 craftsmen (4), 8 masters (5)."""
    workers = [CARDS[i] for i in WORKERS]
    assert len(workers) == 42
    assert Counter((w.kind, w.cost) for w in workers) == {
        ("apprentice", 2): 6,
        ("labourer", 3): 12,
        ("craftsman", 4): 16,
        ("master", 5): 8,
    }


def test_worker_resource_totals_and_cost_is_production():
    """cards.md: total production over the 42 workers is 38 in each resource; cost = total production."""
    totals = [sum(CARDS[i].production[r] for i in WORKERS) for r in range(4)]
    assert totals == [38, 38, 38, 38]
    assert all(sum(CARDS[i].production) == CARDS[i].cost for i in WORKERS)


def test_buildings_and_machines():
    """cards.md: 34 buildings with 110 VP, 8 machines with 12 VP, 42 cards in the building deck."""
    assert len(BUILDINGS) == 34 and sum(CARDS[i].vp for i in BUILDINGS) == 110
    assert len(MACHINES) == 8 and sum(CARDS[i].vp for i in MACHINES) == 12
    assert len(BUILDING_DECK) == 42
    assert all(CARDS[i].coins == 0 and CARDS[i].cost == 0 for i in MACHINES)


def test_printed_numbers_of_some_cards():
    """cards.md rows: B31 The Chapel 18 coins 5 VP needs 3/2/2/3; W21 craftsman 0/0/1/3; M5 Crane makes 3 stone."""
    chapel = CARDS[card_id_index("B31")]
    assert (chapel.english, chapel.french, chapel.coins, chapel.vp, chapel.requirement) == (
        "The Chapel",
        "La chapelle",
        18,
        5,
        (3, 2, 2, 3),
    )
    w21 = CARDS[card_id_index("W21")]
    assert (w21.kind, w21.cost, w21.production) == ("craftsman", 4, (0, 0, 1, 3))
    m5 = CARDS[card_id_index("M5")]
    assert (m5.english, m5.vp, m5.requirement, m5.production) == ("Crane", 2, (0, 2, 1, 0), (3, 0, 0, 0))
    cathedral = CARDS[card_id_index("B34")]
    assert (cathedral.french, cathedral.coins, cathedral.vp, cathedral.requirement) == (
        "La cathédrale",
        20,
        8,
        (5, 4, 4, 4),
    )


def test_ids_are_unique_and_lenient_lookup():
    assert len({c.id for c in CARDS}) == 84
    assert card_id_index("w7") == card_id_index("W07") == 6
    assert card_id_index("m03") == card_id_index("M3") == 78
    assert card_id_index("B35") is None and card_id_index("X1") is None and card_id_index("M") is None


def test_packed_resources_and_covers():
    assert unpack(pack((1, 2, 3, 4))) == [1, 2, 3, 4]
    assert PROD[card_id_index("W21")] == pack((0, 0, 1, 3))
    assert REQ[card_id_index("B31")] == pack((3, 2, 2, 3))
    assert covers(pack((3, 2, 2, 3)), pack((3, 2, 2, 3)))
    assert covers(pack((9, 2, 2, 3)), pack((3, 2, 2, 3)))
    assert not covers(pack((9, 9, 9, 2)), pack((3, 2, 2, 3)))
    assert not covers(pack((2, 9, 9, 9)), pack((3, 2, 2, 3)))
    assert COST[card_id_index("M1")] == 0
