"""Fuzzing, bounded in count: the HTTP API from its OpenAPI description (schemathesis), the game
socket with random messages (hypothesis). No server error, and a refused request changes nothing.

``make test`` draws a few examples of each input (BUILDERS_FUZZ_EXAMPLES, 8 by default); ``make fuzz``
draws many more (docs/testing.md)."""

from __future__ import annotations

import asyncio
import json
import os

import schemathesis
import websockets
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

# examples per operation, input mode and set of fixed inputs; the socket gets more (its inputs are cheap)
EXAMPLES = int(os.environ.get("BUILDERS_FUZZ_EXAMPLES", "8"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def snapshot(api, store, gid, token):
    view = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()
    # bots of games the fuzzer created may be playing: count games, not actions
    return store.counts()["games"], view["version"], view["view"], [s["claimed"] for s in view["seats"]]


def test_http_api_fuzz(server, api):
    store = server.app.state.store
    created = api.post(
        "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    ).json()
    gid, token = created["id"], created["seats"][0]["token"]
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 9
    seen_statuses: set[int] = set()
    ran = 0

    for operation in operations:
        variants = [{}]
        if "{game_id}" in operation.path:
            variants.append({"path_parameters": {"game_id": gid}})
            # a good resignation ends the game, a good abort deletes it: the seat's own token is kept out
            if not operation.path.endswith(("/resign", "/abort")):
                variants.append({"path_parameters": {"game_id": gid}, "headers": {"X-Seat-Token": token}})
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for fixed in variants:
                try:
                    strategy = operation.as_strategy(generation_mode=mode, **fixed)
                except Exception:  # no negative form of this operation's inputs
                    continue

                @FUZZ
                @given(case=strategy)
                def run(case):
                    before = snapshot(api, store, gid, token)
                    response = case.call(base_url=server.url, timeout=10)
                    seen_statuses.add(response.status_code)
                    case.validate_response(response, checks=[not_a_server_error])
                    assert response.status_code < 500
                    if response.status_code >= 400:
                        body = response.json()
                        assert isinstance(body["detail"], str) and body["detail"], body
                        assert snapshot(api, store, gid, token) == before, (case.method, case.path)

                try:
                    run()
                except Unsatisfiable:  # nothing left to vary (a negative case of fixed inputs)
                    continue
                ran += 1
    assert ran >= 2 * len(operations)
    assert any(400 <= s < 500 for s in seen_statuses)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
_messages = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200),
    _json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "undo", "hello", "ping", "state", "error", ""])},
        optional={
            "action": st.one_of(
                st.text(max_size=40),
                _json_values,
                st.sampled_from(["end", "build 3,4", "coins 9", "open B99", "send W01 B01", "buy", "recruit W"]),
            ),
            "version": st.one_of(st.integers(-5, 10**12), st.text(max_size=5), st.none()),
            "token": st.one_of(st.none(), st.text(max_size=40), st.integers()),
        },
    ).map(json.dumps),
    st.integers(8193, 20000).map(lambda n: "z" * n),
)


def test_socket_fuzz(server, api):
    store = server.app.state.store
    created = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]}).json()
    gid = created["id"]
    token1 = created["seats"][1]["token"]  # seat 1 is not to move: none of its actions can pass

    async def exchange(messages, as_seat: bool):
        async with websockets.connect(f"{server.ws_url}/ws/games/{gid}") as ws:
            if as_seat:
                await ws.send(json.dumps({"type": "hello", "token": token1}))
                hello = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert hello["type"] == "state" and hello["seat"] == 1
            for message in messages:
                await ws.send(message)
                # every message gets exactly one answer: an error, a pong or a view
                reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert reply["type"] in ("error", "pong", "state"), reply
                if reply["type"] == "error":
                    assert isinstance(reply["message"], str) and reply["message"]

    before = snapshot(api, store, gid, created["seats"][0]["token"])
    sent: list[int] = []

    @settings(FUZZ, max_examples=max(150, 6 * EXAMPLES))
    @given(messages=st.lists(_messages, min_size=1, max_size=5), as_seat=st.booleans())
    def run(messages, as_seat):
        sent.append(len(messages))
        asyncio.run(exchange(messages, as_seat))
        assert snapshot(api, store, gid, created["seats"][0]["token"]) == before

    run()
    assert len(sent) >= 100 and sum(sent) >= 200
