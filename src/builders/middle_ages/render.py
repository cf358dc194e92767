"""Rich tables of a position (from ``to_json``), for ``builders middle-ages show``. No printing here."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table

from builders.middle_ages.cards import CARDS, INDEX, RESOURCES

_SHORT = ("S", "W", "K", "T")  # stone, wood, knowledge, tile


def card_label(card_id: str) -> str:
    card = CARDS[INDEX[card_id]]
    if card.kind in ("building", "machine"):
        need = " ".join(f"{n}{r}" for n, r in zip(card.requirement, _SHORT) if n)
        reward = f"{card.coins}c " if card.coins else ""
        return f"{card_id} {card.english} ({need}; {reward}{card.vp}VP)"
    make = " ".join(f"{n}{r}" for n, r in zip(card.production, _SHORT) if n)
    return f"{card_id} ({make}; {card.cost}c)"


def site_label(site: dict[str, Any]) -> str:
    progress = " ".join(
        f"{got}/{need}{r}" for got, need, r in zip(site["progress"], site["requirement"], _SHORT) if need
    )
    workers = ", ".join(site["workers"]) or "no worker"
    sent = f"; sent this turn {site['sent_this_turn']}" if site["sent_this_turn"] else ""
    return f"{site['card']} {CARDS[INDEX[site['card']]].english}: {progress} [{workers}{sent}]"


def position_tables(position: dict[str, Any]) -> Group:
    """The rows, then one line per seat: coins, VP, crew, sites with progress, completed cards."""
    status = (
        "game over"
        if position["over"]
        else f"turn {position['turn'] + 1} (round {position['round'] + 1}): seat {position['current_player']} "
        f"to play, {position['actions_left']} action(s) left" + ("; final round" if position["final_round"] else "")
    )
    rows = Table(title=f"The Builders: Middle Ages: {status}", show_header=True, expand=False)
    rows.add_column("row")
    rows.add_column("cards")
    rows.add_column("deck")
    top = position["building_deck"][0] if position["building_deck"] else "-"
    rows.add_row(
        "buildings",
        "\n".join(card_label(c) for c in position["building_row"]) or "-",
        f"{len(position['building_deck'])} cards, top {top}",
    )
    rows.add_row(
        "workers",
        "\n".join(card_label(c) for c in position["worker_row"]) or "-",
        f"{len(position['worker_deck'])} cards",
    )
    seats = Table(show_header=True, expand=False, caption=f"resources: {', '.join(RESOURCES)}")
    for name in ("seat", "coins", "VP", "crew", "sites (got/needed)", "completed"):
        seats.add_column(name)
    for player in position["players"]:
        marker = "*" if player["seat"] == position["current_player"] and not position["over"] else ""
        seats.add_row(
            f"{player['seat']}{marker}",
            str(player["coins"]),
            str(player["vp"]),
            "\n".join(card_label(c) for c in player["crew"]) or "-",
            "\n".join(site_label(s) for s in player["sites"]) or "-",
            "\n".join(card_label(c) for c in player["completed"]) or "-",
        )
    return Group(rows, seats)


def score_table(score: dict[str, Any]) -> Table:
    table = Table(title="Score", show_header=True)
    for name in ("seat", "buildings", "machines", "coins", "total", ""):
        table.add_column(name)
    for player in score["players"]:
        b = player["breakdown"]
        table.add_row(
            str(player["seat"]),
            str(b["buildings"]),
            str(b["machines"]),
            str(b["coins"]),
            str(player["total"]),
            "wins" if player["seat"] in score["winners"] else "",
        )
    return table
