"""The cards of The Builders: Middle Ages, with their printed numbers.

Every card has an id (``W01``-``W42`` workers, ``B01``-``B34`` buildings, ``M1``-``M8`` machines) and,
inside the engine, a small integer index: workers 0-41, buildings 42-75, machines 76-83. Resources are
always in the printed order: stone, wood, knowledge, tile.

The engine packs four resource amounts into one integer, 8 bits each (stone in the low byte), so that
adding workers to a site is one integer addition and "every requirement met" is one test
(:func:`covers`).
"""

from __future__ import annotations

from typing import NamedTuple

RESOURCES: tuple[str, ...] = ("stone", "wood", "knowledge", "tile")

APPRENTICE, LABOURER, CRAFTSMAN, MASTER, BUILDING, MACHINE = (
    "apprentice",
    "labourer",
    "craftsman",
    "master",
    "building",
    "machine",
)


class Card(NamedTuple):
    id: str
    kind: str  # apprentice, labourer, craftsman, master, building or machine
    cost: int  # coins to send it (workers: their cost; machines: 0; buildings: 0, never sent)
    production: tuple[int, int, int, int]  # workers and completed machines; buildings: zeros
    requirement: tuple[int, int, int, int]  # buildings and machines; workers: zeros
    coins: int  # paid to the owner on completion (buildings)
    vp: int  # victory points once completed (buildings and machines)
    english: str = ""
    french: str = ""


def _worker(n: int, kind: str, cost: int, s: int, w: int, k: int, t: int) -> Card:
    return Card(f"W{n:02d}", kind, cost, (s, w, k, t), (0, 0, 0, 0), 0, 0)


# id, type, cost, stone, wood, knowledge, tile
_WORKERS = (
    (1, APPRENTICE, 2, 1, 0, 1, 0),
    (2, APPRENTICE, 2, 0, 1, 1, 0),
    (3, APPRENTICE, 2, 1, 0, 0, 1),
    (4, APPRENTICE, 2, 1, 1, 0, 0),
    (5, APPRENTICE, 2, 0, 0, 1, 1),
    (6, APPRENTICE, 2, 0, 1, 0, 1),
    (7, LABOURER, 3, 0, 2, 0, 1),
    (8, LABOURER, 3, 1, 0, 2, 0),
    (9, LABOURER, 3, 0, 0, 1, 2),
    (10, LABOURER, 3, 1, 2, 0, 0),
    (11, LABOURER, 3, 0, 1, 0, 2),
    (12, LABOURER, 3, 2, 0, 0, 1),
    (13, LABOURER, 3, 1, 0, 0, 2),
    (14, LABOURER, 3, 0, 2, 1, 0),
    (15, LABOURER, 3, 0, 0, 2, 1),
    (16, LABOURER, 3, 0, 1, 2, 0),
    (17, LABOURER, 3, 2, 1, 0, 0),
    (18, LABOURER, 3, 2, 0, 1, 0),
    (19, CRAFTSMAN, 4, 1, 1, 1, 1),
    (20, CRAFTSMAN, 4, 3, 1, 0, 0),
    (21, CRAFTSMAN, 4, 0, 0, 1, 3),
    (22, CRAFTSMAN, 4, 0, 3, 0, 1),
    (23, CRAFTSMAN, 4, 2, 1, 1, 0),
    (24, CRAFTSMAN, 4, 1, 2, 0, 1),
    (25, CRAFTSMAN, 4, 2, 0, 0, 2),
    (26, CRAFTSMAN, 4, 2, 0, 2, 0),
    (27, CRAFTSMAN, 4, 1, 0, 2, 1),
    (28, CRAFTSMAN, 4, 0, 0, 2, 2),
    (29, CRAFTSMAN, 4, 2, 2, 0, 0),
    (30, CRAFTSMAN, 4, 1, 1, 1, 1),
    (31, CRAFTSMAN, 4, 1, 0, 3, 0),
    (32, CRAFTSMAN, 4, 0, 2, 2, 0),
    (33, CRAFTSMAN, 4, 0, 1, 1, 2),
    (34, CRAFTSMAN, 4, 0, 2, 0, 2),
    (35, MASTER, 5, 3, 0, 0, 2),
    (36, MASTER, 5, 0, 0, 2, 3),
    (37, MASTER, 5, 0, 2, 3, 0),
    (38, MASTER, 5, 3, 2, 0, 0),
    (39, MASTER, 5, 0, 0, 3, 2),
    (40, MASTER, 5, 2, 0, 0, 3),
    (41, MASTER, 5, 2, 3, 0, 0),
    (42, MASTER, 5, 0, 3, 2, 0),
)

# id, English, French, coins, VP, stone, wood, knowledge, tile
_BUILDINGS = (
    (1, "The Bower", "La tonnelle", 8, 0, 1, 0, 0, 1),
    (2, "The Wooden Shack", "La cabane", 8, 0, 0, 1, 1, 0),
    (3, "The Covered Bridge", "Le pont couvert", 6, 1, 0, 1, 2, 0),
    (4, "The Treehouse", "La cabane perchée", 6, 1, 0, 2, 1, 0),
    (5, "The Stone Bridge", "Le pont en pierre", 6, 1, 2, 0, 1, 0),
    (6, "The Wash House", "Le lavoir", 6, 1, 0, 1, 0, 2),
    (7, "The Straw Hut", "La hutte de paille", 6, 1, 1, 0, 0, 2),
    (8, "The Townhouse", "La maison urbaine", 10, 2, 2, 0, 2, 1),
    (9, "The Cottage", "La chaumière", 10, 2, 0, 2, 1, 2),
    (10, "The Rural House", "La maison rurale", 10, 2, 1, 2, 1, 1),
    (11, "The House", "La maisonnette", 10, 2, 2, 1, 0, 2),
    (12, "The Cowshed", "L'étable", 12, 3, 0, 1, 2, 3),
    (13, "The Inn", "L'auberge", 12, 3, 2, 1, 1, 2),
    (14, "The Pigsty", "La porcherie", 12, 3, 0, 2, 2, 2),
    (15, "The Rural Relay", "Le relais rural", 12, 3, 0, 3, 1, 2),
    (16, "The Grain Silo", "Le silo à grains", 12, 3, 0, 2, 3, 1),
    (17, "The Stables", "L'écurie", 14, 3, 0, 3, 1, 3),
    (18, "The Forge", "La forge", 14, 3, 2, 2, 0, 3),
    (19, "The Windmill", "Le moulin à vent", 14, 3, 3, 0, 3, 1),
    (20, "The Watermill", "Le moulin à eau", 14, 3, 0, 2, 3, 2),
    (21, "The Covered Market", "Les halles", 16, 4, 0, 3, 2, 3),
    (22, "The Bourgeois House", "La maison bourgeoise", 16, 4, 2, 2, 2, 2),
    (23, "The Post", "Le relais postal", 16, 4, 3, 1, 2, 2),
    (24, "The Hotel", "L'hôtel", 16, 4, 1, 3, 3, 1),
    (25, "The Tavern", "La taverne", 16, 4, 1, 3, 1, 3),
    (26, "The Farm", "La ferme", 16, 4, 4, 2, 0, 2),
    (27, "The Church", "L'église", 18, 5, 4, 0, 2, 4),
    (28, "The Watchtower", "La tour de guet", 18, 5, 3, 3, 2, 2),
    (29, "The Abbey", "L'abbaye", 18, 5, 4, 3, 2, 1),
    (30, "The Cloister", "Le cloître", 18, 5, 4, 2, 4, 0),
    (31, "The Chapel", "La chapelle", 18, 5, 3, 2, 2, 3),
    (32, "The Aqueduct", "L'aqueduc", 20, 6, 5, 2, 5, 0),
    (33, "The Castle", "Le château-fort", 20, 7, 5, 3, 5, 3),
    (34, "The Cathedral", "La cathédrale", 20, 8, 5, 4, 4, 4),
)

# id, English, French, VP, stone, wood, knowledge, tile, production once built
_MACHINES = (
    (1, "Crane", "Une grue", 1, 0, 1, 0, 1, (2, 0, 0, 0)),
    (2, "Circular Saw", "Une scie circulaire", 1, 1, 0, 1, 0, (0, 2, 0, 0)),
    (3, "Survey Tools", "Un instrument de mesure", 1, 1, 1, 0, 0, (0, 0, 2, 0)),
    (4, "Tile Oven", "Un four à tuiles", 1, 0, 1, 1, 0, (0, 0, 0, 2)),
    (5, "Crane", "Une grue", 2, 0, 2, 1, 0, (3, 0, 0, 0)),
    (6, "Circular Saw", "Une scie circulaire", 2, 0, 0, 2, 1, (0, 3, 0, 0)),
    (7, "Survey Tools", "Un instrument de mesure", 2, 1, 0, 0, 2, (0, 0, 3, 0)),
    (8, "Tile Oven", "Un four à tuiles", 2, 2, 1, 0, 0, (0, 0, 0, 3)),
)

#: every card, by index: workers 0-41, buildings 42-75, machines 76-83
CARDS: tuple[Card, ...] = (
    tuple(_worker(*row) for row in _WORKERS)
    + tuple(
        Card(f"B{n:02d}", BUILDING, 0, (0, 0, 0, 0), (s, w, k, t), coins, vp, en, fr)
        for n, en, fr, coins, vp, s, w, k, t in _BUILDINGS
    )
    + tuple(
        Card(f"M{n}", MACHINE, 0, prod, (s, w, k, t), 0, vp, en, fr) for n, en, fr, vp, s, w, k, t, prod in _MACHINES
    )
)

NUM_CARDS = len(CARDS)  # 84
WORKERS = range(0, 42)  # worker cards
BUILDINGS = range(42, 76)  # building cards
MACHINES = range(76, 84)  # machine cards
BUILDING_DECK = range(42, 84)  # the 42 cards of the building deck
APPRENTICES = tuple(i for i in WORKERS if CARDS[i].kind == APPRENTICE)

#: card id ("W07", "B31", "M3") -> index
INDEX: dict[str, int] = {card.id: i for i, card in enumerate(CARDS)}
#: index -> card id
IDS: tuple[str, ...] = tuple(card.id for card in CARDS)


def pack(amounts: tuple[int, int, int, int] | list[int]) -> int:
    """Four resource amounts (stone, wood, knowledge, tile) as one integer, 8 bits each."""
    s, w, k, t = amounts
    return s | (w << 8) | (k << 16) | (t << 24)


def unpack(packed: int) -> list[int]:
    return [packed & 0xFF, (packed >> 8) & 0xFF, (packed >> 16) & 0xFF, (packed >> 24) & 0xFF]


#: the guard bits of the packed form; every amount stays below 128
GUARD = 0x80808080


def covers(progress: int, requirement: int) -> bool:
    """True when ``progress`` meets ``requirement`` in all four resources (both packed)."""
    return ((progress | GUARD) - requirement) & GUARD == GUARD


#: per index: coins to send the card as a worker (buildings: 0, they are never sent)
COST: tuple[int, ...] = tuple(card.cost for card in CARDS)
#: per index: packed production (workers; machines once completed)
PROD: tuple[int, ...] = tuple(pack(card.production) for card in CARDS)
#: per index: packed requirement (buildings and machines)
REQ: tuple[int, ...] = tuple(pack(card.requirement) for card in CARDS)
#: per index: coins on completion
REWARD: tuple[int, ...] = tuple(card.coins for card in CARDS)
#: per index: VP on completion
VP: tuple[int, ...] = tuple(card.vp for card in CARDS)


def card_id_index(text: str) -> int | None:
    """The index of a card id, leniently ("w7", "W07", "m03" all work); None if there is no such card."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in "WBM" or not t[1:].isdigit():
        return None
    n = int(t[1:])
    canonical = f"{t[0]}{n}" if t[0] == "M" else f"{t[0]}{n:02d}"
    return INDEX.get(canonical)


def describe(index: int) -> str:
    """A card for people: ``B31 The Chapel (La chapelle)``, ``W19 craftsman``."""
    card = CARDS[index]
    if card.kind in (BUILDING, MACHINE):
        return f"{card.id} {card.english} ({card.french})"
    return f"{card.id} {card.kind}"
