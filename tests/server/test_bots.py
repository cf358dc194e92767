"""Bots think in a worker process: the server keeps answering while a bot thinks."""

from __future__ import annotations

import time

import httpx

from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer, slow_agent


def test_a_thinking_bot_does_not_block_the_server(tmp_path):
    app = make_app(tmp_path, bot_mode="process", bot_factory=slow_agent)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        created = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "hard"}, {"type": "human"}]}
        ).json()
        gid = created["id"]
        started = time.monotonic()
        worst = 0.0
        polls = 0
        while api.get(f"/api/games/{gid}").json()["version"] == 0:
            t = time.monotonic()
            r = api.get(f"/api/games/{gid}/state")
            worst = max(worst, time.monotonic() - t)
            assert r.status_code == 200
            polls += 1
            assert time.monotonic() - started < 30, "the bot never moved"
        # the bot needed 2 s of CPU; the server answered all along (a bot on the server's own
        # thread would have held every answer for those 2 s; 1.5 s leaves room for a busy machine)
        assert time.monotonic() - started >= 1.9
        assert polls >= 10 and worst < 1.5
        view = api.get(f"/api/games/{gid}/state").json()
        assert view["version"] >= 1 and view["log"][0]["seat"] == 0


def test_bot_workers_come_back_after_a_crash():
    import asyncio
    import os
    import signal

    from builders.core.games import get_game
    from builders.server.bots import BotRunner, random_agent

    runner = BotRunner("process", random_agent)
    record = {"game": "kingdom", "format": 1, "setup": get_game("kingdom").random_setup(2, 1), "history": []}

    async def main():
        first = await runner.choose(record, "easy", 7)
        state = get_game("kingdom").new_state(record["setup"])
        assert first in [state.action_to_string(a) for a in state.legal_actions()]
        for pid in runner.pool.pids():
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.3)
        # same record, same seed: the same move, from a new worker
        assert await runner.choose(record, "easy", 7) == first

    try:
        asyncio.run(main())
    finally:
        runner.close()


def test_a_planning_bot_plays_its_turns_plan_from_one_decision():
    """Kingdom Builder's hard level plans whole turns: one decision gives the turn's action and the
    rest of its plan (three builds, then end or the tiles), each legal in turn, the first the same as
    choose_action's; the other levels give one action. A plan stops at a card drawn in the turn
    (rules.md, building rule 4), after which the bot is asked again."""
    from builders.ai.planner_kingdom import TurnPlanner
    from builders.core.games import get_game
    from builders.server.bots import choose_action, choose_turn

    def planner(game, level, seed):
        return TurnPlanner(seed, turn_time=None, beam=10, plans=2, reply=2)

    g = get_game("kingdom")
    for setup_seed in (1, 2, 3):
        setup = g.random_setup(2, setup_seed)
        record = {"game": "kingdom", "format": 2, "setup": setup, "history": []}
        texts = choose_turn(record, "hard", 7, planner)
        assert texts[0] == choose_action(record, "hard", 7, planner)
        state = g.new_state(setup)
        seat = state.current_player
        for text in texts:
            assert state.current_player == seat
            state.apply(state.parse_action(text))
        assert len(texts) == 4 and texts[-1] == "end"  # a first turn: three builds and end
        assert state.current_player != seat
        assert choose_turn(record, "medium", 7) == [choose_action(record, "medium", 7)]


def test_a_planning_bot_of_the_builders_plays_its_plan_up_to_a_draw():
    """The Builders' hard level plans whole turns too: one decision gives the action and the plan's
    next ones, up to the end of the turn or the first action after a card is drawn into a row (the
    card was hidden: the bot is asked again there)."""
    from builders.ai.planner_middle_ages import MiddleAgesPlanner
    from builders.server.bots import choose_action, choose_turn

    def planner(game, level, seed):
        return MiddleAgesPlanner(seed, turn_time=None, beam=8, plans=2, reply=2)

    from builders.core.record import replay
    from tests.ai.test_planner_middle_ages import turn_start

    lengths = []
    for seed in range(6):
        record = turn_start(seed, 30).to_record()
        texts = choose_turn(record, "hard", 7, planner)
        assert texts[0] == choose_action(record, "hard", 7, planner)
        state = replay(record)
        seat = state.current_player
        rows = (tuple(state.brow), tuple(state.wrow))
        for k, text in enumerate(texts):
            assert state.current_player == seat
            if k:
                assert (tuple(state.brow), tuple(state.wrow)) == rows  # no card drawn before it
            state.apply(state.parse_action(text))
        assert texts[-1] == "end" or (tuple(state.brow), tuple(state.wrow)) != rows
        lengths.append(len(texts))
    assert max(lengths) > 1
