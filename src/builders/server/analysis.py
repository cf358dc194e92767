"""Hints during a game and the post-game analysis board, computed away from the event loop.

Hints: a game created with ``hints: true`` (never a rated game) lets the seat to move ask
``POST /api/games/{id}/hint`` for the move the hard level would play and its estimated win chance:
exactly the move and the chance the analysis of the game will show for that decision
(:func:`builders.ai.analysis.hint` with the analysis's seed and iterations; its hard bot plays its
plan for the turn through, so the hints of a turn that follows them are one plan). The planner never
gets the true states: the server draws, for the position and for each earlier decision of the turn,
one determinization from what the seat may see (``resample_hidden`` with a seed made of the game's
id, the number of actions and the seat, nothing hidden) and the worker plans from them, so nothing
hidden from the seat can shape the hint. The worker keeps each seat's bot, so that a hint that
follows the last one's plan is its next move at once.

Analyses: ``POST /api/games/{id}/analysis`` on a finished game starts the analysis of every decision
(:func:`builders.ai.analysis.analyse`) in the background lane of the server's worker pool
(:mod:`builders.server.workers`: bot moves and hints are served first); the worker writes its
progress (``done``/``total``) and then its result into the ``analyses`` table, so ``GET`` shows the progress to every server process and the result to everyone who opens
the game later, after restarts too. An analysis left running when the server stopped is started
again by the next one. With a job queue (Redis and a live ``builders worker``, see
:mod:`builders.server.jobs`) the analysis is a job: the worker reports its progress on Redis and
returns the result, and the server writes both into the table (a worker needs no database).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import Any

from fastapi import APIRouter, Header, Path as PathParam, Query, Request

from builders.core.messages import msg
from builders.core.rng import Rng
from builders.server import settings
from builders.server.games import ApiError, GameService, Live
from builders.server.repos.analyses import AnalysisRepo
from builders.server.schemas import GAME_ID_PATTERN
from builders.server.workers import BACKGROUND, PLAY, WorkerPool

log = logging.getLogger("builders.server")

#: search iterations per decision of an analysis (``BUILDERS_ANALYSIS_ITERATIONS``)
ANALYSIS_ITERATIONS = settings.NUMBERS["BUILDERS_ANALYSIS_ITERATIONS"][0]
#: how often (seconds) a running analysis writes its progress
PROGRESS_EVERY = 0.5


def _seed(*parts: Any) -> int:
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 33


# -- the jobs (run in worker processes: module-level functions) --------------------------------------
#: (game id, seat, seed, iterations) -> the hard bot of the hints of that seat (in the process that
#: computes hints), so that the next hint of a turn that follows its plan need not plan again
_HINT_BOTS: dict[tuple[str, int, int, int], Any] = {}


def hint_job(
    game_id: str, turn: list[tuple[Any, str]], state: Any, seat: int, seed: int, iterations: int
) -> dict[str, Any]:
    """The hint for ``seat`` in ``state``, with the seat's earlier decisions of the turn (each
    position with the action played there, in notation): every position a determinization made from
    the seat's observation. The analysis's hard bot of this game and seat is kept for the next."""
    from builders.ai.analysis import HardBots, hint, plan_notations

    key = (game_id, seat, seed, iterations)
    bots = _HINT_BOTS.pop(key, None)
    if bots is None:
        bots = HardBots(seed, state.GAME, iterations)
    earlier = [(s, s.parse_action(a)) for s, a in turn]
    found = hint(state, seat, seed=seed, iterations=iterations, turn=earlier, bots=bots)
    if len(_HINT_BOTS) >= 200:
        _HINT_BOTS.clear()
    _HINT_BOTS[key] = bots
    return {
        "seat": seat,
        "action": found.notation,
        "win_chance": round(found.win_chance, 4),
        "visits": found.iterations,
        "plan": plan_notations(state, found),
    }


def hint_positions(game_id: str, record: dict[str, Any], seat: int, state: Any = None) -> tuple[list, Any]:
    """What the hints' planner gets for ``seat`` at the end of ``record`` (``state``: that position,
    if the caller has it): the seat's earlier decisions of the turn (each position with its action,
    in notation) and the position, each drawn from what the seat may see (``resample_hidden``,
    seeded by the game's id, the number of actions and the seat), never a true state."""
    from builders.ai.analysis import turn_positions

    turn, last = turn_positions(record)

    def seen(position: Any) -> Any:
        i = len(position.player_actions())
        return position.resample_hidden(seat, Rng(_seed("hint", game_id, i, seat)))

    return [(seen(p), p.action_to_string(a)) for p, a in turn], seen(last if state is None else state)


def hint_from_record(game_id: str, record: dict[str, Any], seat: int, seed: int, iterations: int) -> dict[str, Any]:
    """The hint for ``seat`` at the end of ``record`` (a job of ``builders worker``): the same as the
    server's own (``hint_positions``, then ``hint_job``)."""
    earlier, state = hint_positions(game_id, record, seat)
    return hint_job(game_id, earlier, state, seat, seed, iterations)


def analysis_job(db_url: str, game_id: str, record: dict[str, Any], iterations: int, seed: int) -> None:
    """Analyse the finished game ``record``, writing progress and then the result to its row."""
    from builders.ai.analysis import analyse

    rows = AnalysisRepo.at(db_url)
    last = 0.0

    def write(values: dict[str, Any]) -> None:
        rows.write(game_id, values)

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY and done < total:
            last = now
            write({"done": done, "total": total})

    result = analyse(record, iterations=iterations, seed=seed, progress=progress)
    write(finished_values(result.to_json(), len(result.decisions)))


def finished_values(result: dict[str, Any], decisions: int) -> dict[str, Any]:
    """The values of the row of an analysis that is done."""
    return {"status": "done", "done": decisions, "total": decisions, "result": result, "finished": time.time()}


# -- the service ---------------------------------------------------------------------------------
class Analyses:
    """Hints and analyses of the games of ``service``, computed on ``pool`` (the server's
    :class:`builders.server.workers.WorkerPool`: hints in its play lane, analyses in its background
    lane), or on a pool of its own in ``mode`` ("process", "thread", "inline": hints inline,
    analyses in a thread) with ``workers`` processes for analyses and one more. Each seat of a game
    asks its hints of the same worker while it is free (``hint_key``), which keeps the seat's bot
    from one hint to the next; seats of other games are spread over the others."""

    def __init__(
        self,
        service: GameService,
        mode: str = "process",
        workers: int | None = None,
        analysis_iterations: int | None = None,
        jobs: Any = None,
        pool: WorkerPool | None = None,
    ):
        self.service = service
        #: the job queue (builders.server.jobs.JobQueue) analyses go to while a worker is alive
        self.jobs = jobs
        self.store = service.store
        #: the table of analyses
        self.rows = AnalysisRepo(service.store.engine)
        self.analysis_iterations = settings.number("BUILDERS_ANALYSIS_ITERATIONS", analysis_iterations)
        #: whether the pool is this object's own (``stop`` ends it) or shared (its owner ends it)
        self._own = pool is None
        if pool is None:
            workers = settings.number("BUILDERS_ANALYSIS_WORKERS", workers)
            pool = WorkerPool(workers + 1, mode, background=workers)
        self.pool = pool
        self.mode = pool.mode
        self._tasks: dict[str, asyncio.Task] = {}
        self._hints: dict[tuple[str, int, int], dict[str, Any]] = {}
        #: the hints being found: (game id, version, seat) -> the task finding it
        self._asked: dict[tuple[str, int, int], asyncio.Future] = {}

    # -- the pool --------------------------------------------------------------------------------
    @staticmethod
    def hint_key(game_id: str, seat: int) -> str:
        """The pool's key of the hints of ``seat`` in game ``game_id``: the same worker every time
        it is free (it keeps the seat's bot), the seats of games spread over the workers."""
        return f"hints:{game_id}/{seat}"

    def warm(self, game_id: str, seats: list[int]) -> None:
        """Start now the workers of the hints of ``seats`` (the people's seats of a game created with
        hints): their first hint then does not wait seconds for a process to start."""
        for seat in seats:
            self.pool.warm(self.hint_key(game_id, seat))

    async def start(self) -> None:
        """Start again the analyses a stopped server left running."""
        if not self.service.acting:
            return
        for game_id in self.rows.running():
            try:
                live = self.service.get(game_id)
            except ApiError:
                continue
            self._launch(live, self._row(game_id))

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        if self._own:
            self.pool.close()

    # -- hints -----------------------------------------------------------------------------------
    async def hint(self, live: Live, seat: int) -> dict[str, Any]:
        if not live.options.hints:
            raise ApiError(403, msg("this game was created without hints"))
        if live.over:
            raise ApiError(409, msg("the game is over"))
        if seat != live.state.current_player:
            raise ApiError(
                403, msg("it is seat {turn}'s turn, not seat {seat}'s", turn=live.state.current_player, seat=seat)
            )
        if live.seats[seat].type != "human":
            raise ApiError(403, msg("seat {seat} is played by a bot now", seat=seat))
        n = len(live.steps)
        key = (live.id, live.version, seat)
        found = self._hints.get(key)
        if found is None:
            # a hint asked again while it is being found (a double click, a second tab) waits for
            # that one instead of queueing another in the hints' worker
            asked = self._asked.get(key)
            if asked is None:
                asked = self._asked[key] = asyncio.ensure_future(self._find_hint(live, seat))
                asked.add_done_callback(lambda _: self._asked.pop(key, None))
            found = await asyncio.shield(asked)
            if len(self._hints) > 1000:
                self._hints.clear()
            self._hints[key] = found
        return {**found, "version": live.version, "actions": n}

    async def _find_hint(self, live: Live, seat: int) -> dict[str, Any]:
        """The hint for ``seat`` in ``live``'s position: from a ``builders worker`` while one is alive
        (a job on the bots' queue), else from this process's hints' worker."""
        # the analysis's seed and budget: the hint is the move the analysis of this game will judge
        # best (the analysis's hard bot, which plays its plan for the turn through)
        seed = _seed("analysis", live.id)
        record = self.service.record(live)
        if self.jobs is not None:
            found = await self.jobs.hint(live.id, record, seat, seed, self.analysis_iterations)
            if found is not None:
                return {k: v for k, v in found.items() if k != "worker"}
        earlier, state = hint_positions(live.id, record, seat, live.state)
        return await self.pool.run(
            PLAY,
            hint_job,
            live.id,
            earlier,
            state,
            seat,
            seed,
            self.analysis_iterations,
            key=self.hint_key(live.id, seat),
        )

    # -- analyses --------------------------------------------------------------------------------
    def _row(self, game_id: str) -> dict[str, Any] | None:
        return self.rows.get(game_id)

    @staticmethod
    def _public(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "game_id": row["game_id"],
            "status": row["status"],
            "done": row["done"],
            "total": row["total"],
            "iterations": row["iterations"],
            "result": row["result"],
            "error": row["error"],
        }

    def get(self, live: Live) -> dict[str, Any]:
        if not live.over:
            raise ApiError(409, msg("the game is not over: it can be analysed once it is over"))
        row = self._row(live.id)
        if row is None:
            raise ApiError(404, msg("this game has not been analysed yet: start its analysis with POST"))
        return self._public(row)

    def start_analysis(self, live: Live) -> tuple[dict[str, Any], bool]:
        """The analysis of ``live`` (started now if there is none, or again if it failed); whether it
        was started by this call."""
        if not live.over:
            raise ApiError(409, msg("the game is not over: it can be analysed once it is over"))
        row = self._row(live.id)
        if row is not None and row["status"] != "failed":
            if row["status"] == "running" and live.id not in self._tasks and self.service.acting:
                self._launch(live, row)
            return self._public(row), False
        values = {
            "status": "running",
            "done": 0,
            "total": len(live.steps),
            "iterations": self.analysis_iterations,
            "seed": _seed("analysis", live.id),
            "result": None,
            "error": None,
            "started": time.time(),
            "finished": None,
        }
        if not self.rows.start(live.id, values, again=row is not None):
            # another server process started it at the same moment: that one runs
            row = self._row(live.id)
            assert row is not None
            return self._public(row), False
        row = {"game_id": live.id, **values}
        self._launch(live, row)
        return self._public(row), True

    def _launch(self, live: Live, row: dict[str, Any] | None) -> None:
        if row is None or live.id in self._tasks:
            return
        record = self.service.record(live)
        task = asyncio.get_running_loop().create_task(self._analyse(live.id, record, row["iterations"], row["seed"]))
        self._tasks[live.id] = task
        task.add_done_callback(lambda _t, game_id=live.id: self._tasks.pop(game_id, None))

    def _write(self, game_id: str, values: dict[str, Any]) -> None:
        self.rows.write(game_id, values)

    async def _analyse(self, game_id: str, record: dict[str, Any], iterations: int, seed: int) -> None:
        try:
            if self.jobs is not None:

                async def progress(done: int, total: int) -> None:
                    if done < total:
                        await asyncio.to_thread(self._write, game_id, {"done": done, "total": total})

                found = await self.jobs.analysis(game_id, record, iterations, seed, progress)
                if found is not None:
                    await asyncio.to_thread(self._write, game_id, finished_values(found["result"], found["decisions"]))
                    return
            await self.pool.run(BACKGROUND, analysis_job, self.store.url, game_id, record, iterations, seed)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.exception("the analysis of game %s failed", game_id)
            self.rows.write(
                game_id, {"status": "failed", "error": f"the analysis failed: {e}"[:300], "finished": time.time()}
            )


# -- routes --------------------------------------------------------------------------------------
def router(service: GameService, accounts: Any, analyses: Analyses) -> APIRouter:
    from builders.server.privacy import visible
    from builders.server.seats import seat_for

    api = APIRouter(tags=["analysis"])
    game_id_param = PathParam(pattern=GAME_ID_PATTERN, description="the game's id")

    @api.post("/api/games/{game_id}/hint", summary="The move the hard bot would play for the seat to move")
    async def hint(
        request: Request,
        game_id: str = game_id_param,
        x_seat_token: str | None = Header(None, alias="X-Seat-Token"),
        seat: int | None = Query(None, ge=0, le=3),
    ) -> dict[str, Any]:
        live = await visible(service, accounts, game_id, request, x_seat_token)
        if not live.options.hints:
            raise ApiError(403, msg("this game was created without hints"))
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        assert who is not None
        return await analyses.hint(live, who)

    @api.post("/api/games/{game_id}/analysis", summary="Start the analysis of a finished game (or see it)")
    async def start(
        request: Request, game_id: str = game_id_param, x_seat_token: str | None = Header(None, alias="X-Seat-Token")
    ) -> Any:
        from fastapi.responses import JSONResponse

        out, started = analyses.start_analysis(await visible(service, accounts, game_id, request, x_seat_token))
        return JSONResponse(out, status_code=202 if started else 200)

    @api.get("/api/games/{game_id}/analysis", summary="A game's analysis: its progress, then its result")
    async def show(
        request: Request, game_id: str = game_id_param, x_seat_token: str | None = Header(None, alias="X-Seat-Token")
    ) -> dict[str, Any]:
        return analyses.get(await visible(service, accounts, game_id, request, x_seat_token))

    return api
