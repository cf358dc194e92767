"""``builders dataset``: self-play games of built-in bots as records and as a columnar file of decisions.

``write_dataset`` plays ``games`` games with one bot per seat and writes into a folder:

* ``records.jsonl``: one game record a line (the project's record format, :mod:`builders.core.record`),
  which the games' ``replay`` commands and :func:`builders.core.record.replay` replay exactly;
* ``steps.npz``: one row per decision of the environments (an action the encoding factors into picks
  is several decisions, as in the environments), numpy arrays of equal length read by ``numpy.load`` (and by
  pandas through numpy) without extras. The layout is in docs/rl.md ("Datasets").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from builders.rl.base import Match, make_codec, max_turns
from builders.rl.encoding import ENCODING_VERSION

#: the per-decision columns of ``steps.npz``, in order
STEP_COLUMNS = ("game", "step", "seat", "observation", "action_mask", "action", "reward")
#: the per-game columns of ``steps.npz``
GAME_COLUMNS = ("game_seed", "scores", "winners", "truncated", "decisions")


def parse_bots(text: str, players: int, game: str) -> list[Any]:
    """The agent specs of ``--bots``: one for every seat, or one per seat. ValueError saying what is wrong."""
    from builders.ai.agents import parse_agents

    specs = parse_agents(text)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"--bots needs one bot for all seats or one per seat ({players}), not {len(specs)}")
    for spec in specs:
        spec.check(game)
    return specs


def game_seed(seed: int, index: int, what: str = "setup") -> int:
    """The seed of game ``index``'s setup (or of its seat's agent) in a dataset of ``seed``."""
    from builders.ai.tournament import derive_seed

    return derive_seed("dataset", what, seed, index) >> 32


def play(
    match: Match, agents: Sequence[Any], limit: int | None, on_index: Callable[[Match, int, int], None] | None = None
) -> bool:
    """Play ``match`` to its end, seat ``p`` choosing with ``agents[p]`` (objects with ``act(state)``,
    an engine action), index by index through the match; ``on_index(match, seat, index)`` is called
    before each index is played. Returns True if the game was cut after ``limit`` turns."""
    state = match.state
    while not state.is_over():
        if limit is not None and state.turn >= limit:
            return True
        seat = state.current_player
        action = agents[seat].act(state)
        for index in match.indices(action):
            if on_index is not None:
                on_index(match, seat, index)
            match.play(index)
    return False


def write_dataset(
    game: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    out: str | Path,
    reward: str = "win",
    max_rounds: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of ``bots`` and write ``records.jsonl`` and ``steps.npz`` into ``out`` (made if
    missing). Returns a summary (games, steps, files)."""
    from builders.core.record import write_text_whole
    from builders.rl.base import check_reward

    check_reward(reward)
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError(f"--players must be 2, 3 or 4, not {players!r}")
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    codec = make_codec(game, players)
    specs = parse_bots(bots, players, game)
    limit = max_turns(game, players, max_rounds)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out must be a folder, and {folder} is a file")
    folder.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list] = {k: [] for k in ("game", "step", "seat", "observation", "action_mask", "action")}
    rewards: list[np.ndarray] = []
    per_game: dict[str, list] = {k: [] for k in GAME_COLUMNS}
    records: list[str] = []
    for g in range(games):
        setup_seed = game_seed(seed, g)
        match = Match(codec, codec.new_state(None, setup_seed))
        agents = [spec.make(game_seed(seed, g, f"agent {seat}"), game) for seat, spec in enumerate(specs)]
        seats: list[int] = []
        game_obs: list[np.ndarray] = []
        game_masks: list[np.ndarray] = []

        def keep(m: Match, seat: int, index: int, g: int = g, seats: list[int] = seats) -> None:
            rows["game"].append(g)
            rows["step"].append(len(seats))
            rows["seat"].append(seat)
            seen = m.observe(seat)
            game_obs.append(seen["observation"])
            game_masks.append(seen["action_mask"])
            rows["action"].append(index)
            seats.append(seat)

        truncated = play(match, agents, limit, keep)
        state = match.state
        final = [0.0] * players if truncated else match.rewards(reward)
        rewards.append(np.array([final[s] for s in seats], dtype=np.float32))
        rows["observation"].append(np.stack(game_obs))
        rows["action_mask"].append(np.stack(game_masks).view(np.uint8))
        scores = state.result().scores if state.is_over() else [0] * players
        per_game["game_seed"].append(setup_seed)
        per_game["scores"].append(list(scores))
        per_game["winners"].append([int(p in state.result().winners) if state.is_over() else 0 for p in range(players)])
        per_game["truncated"].append(truncated)
        per_game["decisions"].append(len(seats))
        records.append(json.dumps(state.to_record(), separators=(",", ":")))
        if progress is not None:
            progress(g + 1)
    arrays = {
        "game": np.array(rows["game"], dtype=np.int32),
        "step": np.array(rows["step"], dtype=np.int32),
        "seat": np.array(rows["seat"], dtype=np.int8),
        "observation": _join(rows["observation"]),
        "action_mask": _join(rows["action_mask"]),
        "action": np.array(rows["action"], dtype=np.int16),
        "reward": np.concatenate(rewards),
        "game_seed": np.array(per_game["game_seed"], dtype=np.int64),
        "scores": np.array(per_game["scores"], dtype=np.int32),
        "winners": np.array(per_game["winners"], dtype=np.int8),
        "truncated": np.array(per_game["truncated"], dtype=bool),
        "decisions": np.array(per_game["decisions"], dtype=np.int32),
        "encoding_version": np.array(ENCODING_VERSION, dtype=np.int32),
        "game_name": np.array(game),
        "players": np.array(players, dtype=np.int32),
        "bots": np.array([spec.label for spec in specs]),
        "reward_kind": np.array(reward),
    }
    steps_path, records_path = folder / "steps.npz", folder / "records.jsonl"
    np.savez_compressed(steps_path, **arrays)
    write_text_whole(records_path, "\n".join(records) + "\n")
    return {
        "games": games,
        "steps": len(arrays["action"]),
        "steps_file": steps_path,
        "records_file": records_path,
        "truncated": int(arrays["truncated"].sum()),
    }


def _join(blocks: list[np.ndarray]) -> np.ndarray:
    """The per-game blocks as one array, each block let go once copied (about the memory of one copy)."""
    out = np.empty((sum(len(b) for b in blocks), *blocks[0].shape[1:]), dtype=blocks[0].dtype)
    at = 0
    for i, block in enumerate(blocks):
        out[at : at + len(block)] = block
        at += len(block)
        blocks[i] = None
    return out


def index_sequences(actions: np.ndarray, game_of: np.ndarray, g: int, codec) -> list[tuple[int, ...]]:
    """The indices of game ``g`` grouped into whole engine actions (a tile's picks with their hexes)."""
    out: list[tuple[int, ...]] = []
    pending: list[int] = []
    for index in actions[game_of == g].tolist():
        pending.append(index)
        if not codec.needs_more(pending):
            out.append(tuple(pending))
            pending = []
    return out
