"""Native positions cross to worker processes (the bots', hints' and analyses' pools) by pickle: each
comes back a native state of the same position, which plays on exactly as the original."""

from __future__ import annotations

import pickle
import random

import pytest

from builders.kingdom import native as kb_native
from builders.middle_ages import native as ma_native
from tests.native.test_bots import _kb_positions, _ma_positions

if not kb_native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)


@pytest.mark.parametrize(
    ("positions", "to_native", "kind"),
    [
        (_kb_positions, kb_native.from_python, kb_native.NativeKingdomState),
        (_ma_positions, ma_native.from_python, ma_native.NativeMiddleAgesState),
    ],
    ids=["kingdom", "middle-ages"],
)
def test_a_pickled_native_position_is_the_same_native_position(positions, to_native, kind):
    for k, python_state in enumerate(positions()[::3]):
        state = to_native(python_state)
        back = pickle.loads(pickle.dumps(state))
        assert type(back) is kind
        assert back.to_json() == state.to_json()
        assert back.legal_actions() == state.legal_actions()
        assert back.to_python().to_json() == python_state.to_json()
        rnd = random.Random(k)  # both play on alike to the end (chance included)
        while not state.is_over():
            legal = state.legal_actions()
            assert back.legal_actions() == legal
            action = legal[rnd.randrange(len(legal))]
            state.apply(action)
            back.apply(action)
        assert back.result().scores == state.result().scores
