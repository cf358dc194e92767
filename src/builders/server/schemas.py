"""The bodies and responses of the HTTP API (pydantic models; FastAPI turns them into the OpenAPI
description served at ``/openapi.json``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from builders.core.games import game_names

#: the registered games (builders.core.games): a new game needs no change here
GameName = Literal[tuple(game_names())]  # type: ignore[valid-type]
Level = Literal["easy", "medium", "hard"]
Status = Literal["open", "running", "finished"]
Name = Annotated[str, Field(min_length=1, max_length=40)]
Seed = Annotated[int, Field(ge=0, le=2**62)]
#: a game id as it appears in paths
GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,40}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HumanSeat(_Strict):
    type: Literal["human"]
    name: Name | None = None
    open: bool = Field(False, description="anyone may claim the seat from the lobby")


class BotSeat(_Strict):
    type: Literal["bot"]
    level: Level = "medium"


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="type")]


class SetupSpec(_Strict):
    """Kingdom Builder: ``mode`` first, random or custom (custom needs sections and cards).
    The Builders: Middle Ages: only ``seed`` counts (mode random)."""

    mode: Literal["first", "random", "custom"] = "random"
    seed: Seed | None = Field(None, description="a seed makes the deal reproducible (and known to whoever "
                                                "knows the seed); without one the server draws a secret one")
    sections: list[tuple[str, bool]] | None = Field(None, min_length=4, max_length=4)
    cards: list[str] | None = Field(None, min_length=3, max_length=3)


class CreateGame(_Strict):
    game: GameName
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    setup: SetupSpec | None = None
    name: Name | None = None


class SeatInfo(BaseModel):
    seat: int
    type: Literal["human", "bot"]
    level: Level | None = None
    name: str | None = None
    open: bool = False
    claimed: bool = True
    connected: bool = False
    resigned: bool = False


class CreatedSeat(BaseModel):
    seat: int
    type: Literal["human", "bot"]
    level: Level | None = None
    name: str | None = None
    open: bool = False
    token: str | None = None
    link: str | None = None


class Created(BaseModel):
    id: str
    game: GameName
    seats: list[CreatedSeat]
    watch: str


class ResultSeat(BaseModel):
    seat: int
    breakdown: dict[str, int]
    total: int


class ResultModel(BaseModel):
    players: list[ResultSeat]
    winners: list[int] = []


class Summary(BaseModel):
    id: str
    game: GameName
    name: str | None = None
    status: Status
    created: float = Field(description="seconds since 1970 (UTC)")
    seats: list[SeatInfo]
    to_move: int | None = None
    turn: int
    version: int
    result: ResultModel | None = None


class Join(_Strict):
    seat: int = Field(ge=0, le=3)
    name: Name | None = None


class Joined(BaseModel):
    seat: int
    token: str
    link: str


class ActionBody(_Strict):
    action: str = Field(min_length=1, max_length=200, description="an action in the game's notation")
    version: int | None = Field(None, ge=0, description="the version of the view the action was chosen "
                                                        "from; a different current version gives 409")


class ResignBody(_Strict):
    bot: Level | None = Field(None, description="the level of the bot that takes the seat over "
                                                "(default: medium)")


class LogEntry(BaseModel):
    n: int = Field(description="the action's number in the game (1 = first)")
    seat: int
    action: str
    text: str


class View(BaseModel):
    id: str
    game: GameName
    status: Status
    seat: int | None = Field(description="the seat this view is for; null for a spectator")
    version: int
    actions: int = Field(description="the number of player actions in the game's record")
    turn: int
    to_move: int | None
    view: dict[str, Any] = Field(description="the engine's observation for this seat")
    legal: list[str]
    legal_costs: dict[str, dict[str, int]] | None = None
    can_undo: bool
    log: list[LogEntry]
    scores: ResultModel
    result: ResultModel | None = None
    seats: list[SeatInfo]
    board: dict[str, Any] | None = None
    scoring_hexes: dict[str, dict[str, list[list[int]]]] | None = None


class ReplayView(View):
    total: int


class ErrorModel(BaseModel):
    detail: str


class RecordModel(BaseModel):
    model_config = ConfigDict(extra="allow")
    game: GameName
    format: int
    setup: dict[str, Any]
    history: list[Any]
    result: dict[str, Any] | None = None
