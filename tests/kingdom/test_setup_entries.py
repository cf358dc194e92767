"""Malformed section and card entries of a Kingdom Builder setup are InvalidSetup errors with exact
messages, never a TypeError or a bare ValueError (rules.md "Setup": 4 of the 8 sections, each unturned
or turned, and 3 cards)."""

import pytest

from builders.core.errors import InvalidSetup
from builders.kingdom.game import KingdomBuilder

GAME = KingdomBuilder()
GOOD = GAME.random_setup(2, 1)
SECTION_NAMES = "oracle, farm, oasis, tower, tavern, barn, harbor, paddock"
CARD_NAMES = "fishermen, miners, merchants, workers, discoverers, knights, hermits, lords, citizens, farmers"


def refused(setup, message):
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state(setup)
    assert type(e.value) is InvalidSetup
    assert str(e.value) == message


@pytest.mark.parametrize(
    "entry,message",
    [
        ([1, 2], f"unknown section name 1 in slot 0 (the sections are {SECTION_NAMES})"),
        (["oracle"], "section 0 must be a [name, turned] pair, not ['oracle']"),
        (["oracle", "yes"], "section 0 (oracle): turned must be true or false, not 'yes'"),
        ([["x"], False], f"unknown section name ['x'] in slot 0 (the sections are {SECTION_NAMES})"),
        (None, "section 0 must be a [name, turned] pair, not None"),
        ({"name": "oracle"}, "section 0 must be a [name, turned] pair, not {'name': 'oracle'}"),
        (["oracle", False, 1], "section 0 must be a [name, turned] pair, not ['oracle', False, 1]"),
        (7, "section 0 must be a [name, turned] pair, not 7"),
    ],
)
def test_malformed_section_entries(entry, message):
    refused(dict(GOOD, sections=[entry] + GOOD["sections"][1:]), message)


@pytest.mark.parametrize("entry", [5, None, ["miners"], {"c": 1}, "Miners", ""])
def test_malformed_card_entries(entry):
    refused(dict(GOOD, cards=[entry] + GOOD["cards"][1:]), f"unknown card {entry!r} (the cards are {CARD_NAMES})")


def test_malformed_section_and_card_lists():
    refused(dict(GOOD, sections="oracle"), "sections must be a list of 4 [name, turned] pairs")
    refused(dict(GOOD, sections=GOOD["sections"][:3]), "the map needs 4 sections, not 3")
    refused(dict(GOOD, cards={"miners": 1}), "cards must be a list of 3 Kingdom Builder card names")
    refused(dict(GOOD, cards=GOOD["cards"][:2]), "a game uses 3 Kingdom Builder cards, not 2")
