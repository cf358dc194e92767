"""The fast legal-action generator against the rules themselves: at positions of random games, the legal
actions are exactly the well-formed codes that rules.why_illegal accepts, in the documented order, and a
position rebuilt from its JSON (mid-turn, with workers sent this turn) or copied has the same ones; the
running production of the workers not yet recruited is their sum."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders.core.games import on_python
from builders.middle_ages import rules
from builders.middle_ages.cards import PROD
from builders.middle_ages.codes import BUY, COINS, END, OPEN, RECRUIT, SEND
from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState

GAME = MiddleAges()
#: every well-formed action code
ALL_CODES = [code for code in range(SEND + (84 << 7)) if rules.is_action_code(code)]


def reference(state: MiddleAgesState) -> list[int]:
    """docs/middle-ages.md: end, buy, coins, the opens and recruits in row order, then the sends site by
    site (in the order the sites were opened), worker by worker (crew order). Asked of the rules on a
    Python copy of the position (the rules read its fields some 2,000 times)."""
    state = on_python(state)
    legal = {code for code in ALL_CODES if rules.why_illegal(state, code) is None}
    p = state.cur
    order = [END, BUY] + [COINS + k for k in (1, 2, 3)] + state.brow + state.wrow
    order += [SEND + (s << 7) + w for s in state.sites[p] for w in state.crew[p]]
    assert legal <= set(order)
    return [code for code in order if code in legal]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), moves=st.integers(0, 2**32))
def test_legal_actions_are_what_the_rules_allow(players, seed, moves):
    state = GAME.new_state(GAME.random_setup(players, seed))
    rnd = random.Random(moves)
    step = 0
    while not state.is_over():
        legal = state.legal_actions()
        if step % 7 == 0 or any(state.sent[s] for s in state.sites[state.cur]):
            assert legal == reference(state)
            rebuilt = MiddleAgesState.from_json(state.to_json(), state.setup)
            assert rebuilt.legal_actions() == legal
            assert state.copy().legal_actions() == legal
            unrecruited = sum(PROD[c - RECRUIT] for c in state.wrow) + sum(PROD[c] for c in state.wdeck)
            assert state.unrecruited == rebuilt.unrecruited == unrecruited
        state.apply(rnd.choice(legal))
        step += 1
    assert state.legal_actions() == []


def test_codes_cover_every_kind():
    kinds = {END: 0, BUY: 0, "coins": 0, "open": 0, "recruit": 0, "send": 0}
    for code in ALL_CODES:
        key = (
            code
            if code in (END, BUY)
            else "coins"
            if code < OPEN
            else "open"
            if code < RECRUIT
            else "recruit"
            if code < SEND
            else "send"
        )
        kinds[key] += 1
    # 3 coin actions, 42 buildings and machines to open, 42 workers to recruit, 42 sites x 50 senders
    assert kinds == {END: 1, BUY: 1, "coins": 3, "open": 42, "recruit": 42, "send": 42 * 50}
