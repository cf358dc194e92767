"""The differential check of The Builders: Middle Ages' native core against the Python engine (used by
tests/native/test_middle_ages_diff.py and benchmarks/native.py)."""

from __future__ import annotations

import random

from builders.middle_ages import native
from builders.middle_ages.game import MiddleAges
from builders.middle_ages.scoring import breakdown
from builders.middle_ages.state import MiddleAgesState


def difference(py: MiddleAgesState, nat: native.NativeMiddleAgesState) -> str | None:
    """The first field in which the Python state and the native one differ, or None."""
    other = nat.to_python()
    for name in (*native.FIELDS, "history", "forced"):
        if getattr(py, name) != getattr(other, name):
            return f"{name}: {getattr(py, name)!r} != {getattr(other, name)!r}"
    return None


def play_both(py: MiddleAgesState, choose, check_every: int = 1) -> tuple[int, list[str]]:
    """Play ``py``'s game on both cores, ``choose(state, legal)`` picking on the Python state; the
    decisions made and the disagreements found (the legal actions at every decision, the state every
    ``check_every`` decisions and at the end, the scores every 10 times that, the records)."""
    nat = native.from_python(py)
    problems: list[str] = []
    decisions = 0
    while not py.is_over():
        legal = py.legal_actions()
        if nat.legal_actions() != legal:
            return decisions, [f"decision {decisions}: legal actions differ"]
        action = choose(py, legal)
        py.apply(action)
        nat.apply(action)
        decisions += 1
        if decisions % check_every and not py.is_over():
            continue
        diff = difference(py, nat)
        if diff:
            return decisions, [f"decision {decisions}: {diff}"]
        if decisions % (10 * check_every) == 0 and nat.score_breakdown() != [
            py_breakdown(py, s) for s in range(py.num_players)
        ]:
            return decisions, [f"decision {decisions}: scores differ"]
    if not nat.is_over() or nat.to_record() != py.to_record() or nat.result() != py.result():
        problems.append("the ends differ")
    return decisions, problems


def py_breakdown(py: MiddleAgesState, seat: int) -> dict[str, int]:
    return breakdown(py, seat)


def random_games(first_seed: int, games: int, check_every: int = 1) -> tuple[int, list[str]]:
    """Random setups from consecutive seeds, 2-4 players, random play: (decisions, disagreements)."""
    game = MiddleAges()
    total, problems = 0, []
    for seed in range(first_seed, first_seed + games):
        rnd = random.Random(seed)
        made, found = play_both(
            game.new_state(game.random_setup(2 + seed % 3, seed)),
            lambda state, legal, rnd=rnd: legal[rnd.randrange(len(legal))],
            check_every,
        )
        total += made
        problems += [f"seed {seed}: {p}" for p in found]
    return total, problems
