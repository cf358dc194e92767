"""``create_app`` wires the parts: the game service's listeners are set when the application is built
(in the order they are called), not by each part when it starts, and each part is given the others
it uses."""

from __future__ import annotations

import httpx

from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer


def test_the_listeners_are_wired_when_the_app_is_built_in_their_order(tmp_path):
    app = make_app(tmp_path)
    service, cluster, clocks, ratings = app.state.service, app.state.cluster, app.state.clocks, app.state.ratings
    assert service.on_change == [cluster.changed, clocks.changed, ratings.changed]
    assert service.on_event == [cluster.event]
    assert (service.on_load, service.on_evict) == ([clocks.arm], [clocks.disarm])
    assert clocks.service is service and ratings.service is service and ratings.accounts is app.state.accounts
    assert app.state.analyses.pool is app.state.workers and service.bots.pool is app.state.workers
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=20) as api:
        # starting adds no listener a second time
        assert (len(service.on_change), len(service.on_event), len(service.on_load)) == (3, 1, 1)
        made = api.post(
            "/api/games",
            json={
                "game": "kingdom",
                "clock": {"kind": "turn", "per_turn": 600},
                "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
            },
        )
        assert made.status_code == 201, made.text
        assert api.get(f"/api/games/{made.json()['id']}").json()["status"] == "running"
