"""The bodies and responses of the HTTP API (pydantic models; FastAPI turns them into the OpenAPI
description served at ``/openapi.json``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from builders.core.games import game_names

#: the registered games (builders.core.games): a new game needs no change here
GameName = Literal[tuple(game_names())]  # type: ignore[valid-type]
Level = Literal["easy", "medium", "hard", "expert"]
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
    invite: bool = Field(False, description="a friend takes the seat with a one-time invitation link")
    user: Annotated[str, Field(min_length=3, max_length=20)] | None = Field(
        None, description="the seat belongs to this account (invite by username)")


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


class ClockSpec(_Strict):
    """live: ``total`` seconds per player plus ``increment`` seconds per turn (10 min + 20 s:
    600 and 20); turn: ``per_turn`` seconds for each turn (1 day: 86400)."""

    kind: Literal["live", "turn"]
    total: int | None = Field(None, ge=1, le=24 * 3600)
    increment: int = Field(0, ge=0, le=3600)
    per_turn: int | None = Field(None, ge=1, le=30 * 24 * 3600)
    bot: Level = Field("medium", description="the bot that takes over a seat whose clock ran out")


class CreateGame(_Strict):
    game: GameName
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    setup: SetupSpec | None = None
    name: Name | None = None
    private: bool = Field(False, description="not listed in the lobby: watched only with its link")
    clock: ClockSpec | None = Field(None, description="none: untimed")
    rated: bool = Field(False, description="people only, each a signed-up account with one seat, a clock, "
                                           "no seed: the result changes the players' ratings")
    hints: bool = Field(False, description="the player to move may ask for the hard bot's move (never in a rated "
                                           "game)")
    colours: list[str] | None = Field(None, max_length=4, description="the colour of each seat, in seat order, each "
                                      "a different one of red, blue, white, black, yellow, purple, pink, teal (none: "
                                      "red, blue, white, black)")


class SeatInfo(BaseModel):
    seat: int
    type: Literal["human", "bot"]
    level: Level | None = None
    name: str | None = None
    open: bool = False
    claimed: bool = True
    connected: bool = False
    resigned: bool = False
    user: str | None = Field(None, description="the name of the account that plays the seat")
    invited: bool = Field(False, description="waiting for its invitation link to be opened")


class CreatedSeat(BaseModel):
    seat: int
    type: Literal["human", "bot"]
    level: Level | None = None
    name: str | None = None
    open: bool = False
    token: str | None = None
    link: str | None = None
    invite: str | None = Field(None, description="the one-time invitation link of the seat")
    user: str | None = None


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
    private: bool = False
    seeded: bool = Field(False, description="dealt from a seed chosen by the creator")
    rematch: str | None = Field(None, description="the id of the rematch offered after this game")
    rated: bool = False
    hints: bool = Field(False, description="the player to move may ask for a hint")
    colours: list[str] | None = Field(None, description="the colour of each seat, in seat order (none: the defaults)")
    spectators: int = Field(0, description="sockets watching the game without a seat, on every server process")


class MyGame(Summary):
    my_seats: list[int] = Field(description="the seats of this account")
    waiting: bool = Field(description="it is one of your seats' turn")


class MySeats(BaseModel):
    seats: list[int] = Field(description="the seats of your account in the game")


class Claim(_Strict):
    code: str = Field(min_length=1, max_length=100, description="the code of the invitation link")


class Join(_Strict):
    seat: int = Field(ge=0, le=3)
    name: Name | None = None


class Joined(BaseModel):
    seat: int
    token: str | None = Field(None, description="the seat's token, for a program that joined without an account")
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
    seeded: bool = Field(False, description="dealt from a seed chosen by the creator")
    rematch: str | None = Field(None, description="the id of the rematch offered after this game")
    colours: list[str] | None = Field(None, description="the colour of each seat, in seat order (none: the defaults)")
    spectators: int = Field(0, description="sockets watching the game without a seat, on every server process")
    clock: dict[str, Any] | None = Field(None, description="the clock (see builders.server.clocks): "
                                                           "left, running, since, kind, ...")
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


# -- accounts ----------------------------------------------------------------------------------------
class AccountInfo(BaseModel):
    id: int
    username: str | None = Field(description="null for a guest")
    guest: bool
    name: str = Field(description="the name shown at the table")


class SessionInfo(BaseModel):
    account: AccountInfo | None = Field(description="null: not signed in and not a guest yet")
    csrf: str | None = Field(description="send it in the X-CSRF-Token header of every change made with "
                                         "the session cookie")


class SignIn(_Strict):
    username: str = Field(max_length=100, description="3 to 20 letters, digits, '_' or '-'")
    password: str = Field(max_length=1000, description="at least 8 characters")


class PasswordChange(_Strict):
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class NewApiToken(_Strict):
    name: Name = Field(description="what the token is for")


class ApiTokenInfo(BaseModel):
    id: int
    name: str
    created: float


class CreatedApiToken(ApiTokenInfo):
    token: str = Field(description="the token itself: shown this once only")


# -- chat ----------------------------------------------------------------------------------------------
class ChatBody(_Strict):
    text: str = Field(min_length=1, max_length=2000, description="at most 500 characters (longer is refused)")


class ChatMessage(BaseModel):
    id: int
    channel: Literal["players", "spectators"]
    author: str
    seat: int | None = None
    text: str
    at: float = Field(description="seconds since 1970 (UTC)")


# -- ratings -------------------------------------------------------------------------------------------
class Leader(BaseModel):
    rank: int
    username: str
    rating: float = Field(description="mu - 3 sigma (a conservative estimate)")
    mu: float
    sigma: float
    games: int


class GameRating(BaseModel):
    rating: float
    mu: float
    sigma: float
    games: int


class RatingPoint(BaseModel):
    #: None for a private game seen by someone else than the player (the point stays, unlinked)
    game_id: str | None
    game: GameName
    rating: float
    rank: int
    at: float


class ProfileGame(BaseModel):
    id: str
    game: GameName
    name: str | None = None
    created: float
    seats: list[int]
    won: bool
    scores: list[int]
    rated: bool
    replay: str


class Profile(BaseModel):
    username: str
    ratings: dict[str, GameRating]
    history: list[RatingPoint]
    games_played: int
    rated_games: int
    wins: int
    win_rate: float | None = None
    mean_score: float | None = None
    favourite_cards: list[str]
    games: list[ProfileGame]
