"""The bodies and responses of the HTTP API (pydantic models; FastAPI turns them into the OpenAPI
description served at ``/openapi.json``)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator
from pydantic_core import PydanticCustomError

from builders.core.errors import shown
from builders.core.games import game_names
from builders.core.plugins import part, plugin
from builders.core.messages import msg
from builders.server import names
from builders.server.messages import validation_problem


def _known_game(name: str) -> str:
    if name not in game_names():
        said = msg("unknown game {game} (the games are {games})", game=shown(name), games=", ".join(game_names()))
        raise PydanticCustomError("unknown_game", "{reason}", {"reason": str(said), "message": said})
    return name


#: a registered game (builders.core.plugins), checked when a request comes: a new game needs no change here
GameName = Annotated[
    str, AfterValidator(_known_game), Field(json_schema_extra=lambda schema: schema.update(enum=game_names()))
]
Level = Literal["easy", "medium", "hard", "expert"]
Status = Literal["open", "running", "finished"]
#: the type of the validation errors the application answers with 400, not 422: a text field holding a
#: control character, or a name that cannot be one (their message is the one-line reason)
TEXT_ERROR = "refused_text"


def _refusing(check: Any, *args: Any) -> AfterValidator:
    def validate(value: str) -> str:
        try:
            return check(value, *args)
        except names.BadText as e:
            raise PydanticCustomError(TEXT_ERROR, "{reason}", {"reason": str(e), "message": e.message}) from None

    return AfterValidator(validate)


def Text(field: str, max_length: int = 200, min_length: int = 0, newlines: bool = False) -> Any:  # noqa: N802
    """The type of a text field: no control characters (with ``newlines``, but line breaks) and no
    lone surrogates (builders.server.names)."""
    return Annotated[
        str, Field(min_length=min_length, max_length=max_length), _refusing(names.check_text, field, newlines)
    ]


def PersonName(field: str, max_length: int = 40, min_length: int = 1) -> Any:  # noqa: N802
    """The type of a name people see: normalised to NFKC, no control or invisible characters, no
    spaces around it (builders.server.names)."""
    return Annotated[
        str, Field(min_length=min_length, max_length=max_length), _refusing(names.check_name, field, max_length)
    ]


Seed = Annotated[int, Field(ge=0, le=2**62)]
#: a game id as it appears in paths
GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,40}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HumanSeat(_Strict):
    type: Literal["human"]
    name: PersonName("seat name") | None = Field(  # type: ignore[valid-type]
        None, description="the name shown for the seat; it may not look like another player's username"
    )
    open: bool = Field(False, description="anyone may claim the seat from the lobby")
    invite: bool = Field(False, description="a friend takes the seat with a one-time invitation link")
    user: PersonName("user", 20, 3) | None = Field(  # type: ignore[valid-type]
        None, description="the seat belongs to this account (invite by username)"
    )


class BotSeat(_Strict):
    type: Literal["bot"]
    level: Level = "medium"


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="type")]


class SetupSpec(_Strict):
    """The setup of a new game: ``seed``, and the choices of the game's own setup schema (its
    plugin's ``setup_schema``, a pydantic model whose fields are keyword arguments of its view's
    ``setup``); a game without one takes a seed only."""

    seed: Seed | None = Field(
        None,
        description="a seed makes the deal reproducible (and known to whoever "
        "knows the seed); without one the server draws a secret one",
    )

    def choices(self) -> dict[str, Any]:
        """The game's own choices, as keyword arguments of its view's ``setup`` (unset ones left out)."""
        return self.model_dump(exclude={"seed"}, exclude_none=True)


@cache
def setup_model(game: str) -> type[SetupSpec]:
    """The setup model of ``game``: the seed and its setup schema's fields."""
    schema = part(game, "setup_schema")
    if schema is None:
        return SetupSpec
    return create_model(f"{schema.__name__}Spec", __base__=(SetupSpec, schema))  # type: ignore[call-overload]


def _check_texts(value: Any, field: str) -> None:
    """BadText for a control character in any text of a setup: the text of a list ``cards`` is
    called a ``card``, of a list ``sections`` a ``section``."""
    if isinstance(value, str):
        names.check_text(value, field)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_texts(item, str(key))
    elif isinstance(value, list):
        for item in value:
            _check_texts(item, field[:-1] if field.endswith("s") else field)


def _setup_choices(schema: dict[str, Any]) -> None:
    """The API description of ``setup``: each registered game's choices beyond the seed."""
    parts = []
    for game in game_names():
        fields = {k: f for k, f in setup_model(game).model_fields.items() if k != "seed"}
        said = ", ".join(f"{k} ({f.description})" if f.description else k for k, f in fields.items())
        parts.append(f"{game}: {said or 'the seed only'}")
    schema["description"] = "seed, and the game's own choices: " + "; ".join(parts)


def parse_setup(game: str, raw: Any) -> SetupSpec:
    """``raw`` as the setup of ``game``; a refusal (400) saying in one line what is wrong."""
    model = setup_model(game)
    try:
        _check_texts(raw, "setup")
    except names.BadText as e:
        raise PydanticCustomError(TEXT_ERROR, "{reason}", {"reason": str(e), "message": e.message}) from None
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in ("setup", *first["loc"]))
        if first["type"] == "extra_forbidden":
            reason = msg(
                "{field}: {game} takes no such choice (its setup: {allowed})",
                field=where,
                game=plugin(game).title,
                allowed=", ".join(model.model_fields),
            )
        else:
            reason = msg("{field}: {problem}", field=where, problem=validation_problem(first))
        raise PydanticCustomError(TEXT_ERROR, "{reason}", {"reason": str(reason)[:300], "message": reason}) from None


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
    setup: SetupSpec | None = Field(
        None,
        description="seed, and the game's own choices (its setup schema)",
        json_schema_extra=lambda schema: _setup_choices(schema),
    )
    name: Text("game name", 40, 1) | None = None  # type: ignore[valid-type]
    private: bool = Field(False, description="not listed in the lobby: watched only with its link")
    clock: ClockSpec | None = Field(None, description="none: untimed")
    rated: bool = Field(
        False,
        description="people only, each a signed-up account with one seat, a clock, "
        "no seed: the result changes the players' ratings",
    )
    hints: bool = Field(False, description="the player to move may ask for the hard bot's move (never in a rated game)")
    resign_bot: Level = Field(
        "easy",
        description="in a game of 3 or 4, the bot that plays the turns of a seat "
        "whose player resigned (the others play on)",
    )
    first_game: bool = Field(
        False,
        description="a first game from the guide: private, one seat of yours and bots "
        "in the others; one of each game at a time per account (see "
        "/api/account/first-game/{game})",
    )
    colours: list[Text("colour", 40)] | None = Field(
        None,
        max_length=4,  # type: ignore[valid-type]
        description="the colour of each seat, in seat order, each "
        "a different one of red, blue, white, black, yellow, purple, pink, teal (none: "
        "red, blue, white, black)",
    )

    @model_validator(mode="before")
    @classmethod
    def _game_setup(cls, data: Any) -> Any:
        """The setup read by the schema of the game asked for (an unknown game is refused by ``game``)."""
        if isinstance(data, dict) and isinstance(data.get("setup"), dict) and data.get("game") in game_names():
            data = {**data, "setup": parse_setup(data["game"], data["setup"])}
        return data


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
    guest: bool = Field(
        False,
        description="played by a person without a registered account (a guest, or a "
        "seat token's holder): the name is theirs to choose, not a player's",
    )


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
    resigned: list[int] = Field([], description="the seats whose players resigned (placed last, never winners)")


class RatingChange(BaseModel):
    seat: int
    rating: int = Field(description="the player's rating after the game")
    change: int = Field(description="what the game changed it by (+14, -9)")
    provisional: bool


class GameType(BaseModel):
    """A game this server plays (its plugin)."""

    name: str = Field(description="its registry name, the `game` of a new game")
    title: str
    table: str = Field(
        description="the web client's module that draws its table (empty: none, the game is "
        "played through the API alone)"
    )
    guide: str = Field(description="the web client's module of its guide (empty: none)")
    rules: str = Field(description="the web client's module of its part of the rules page (empty: none)")
    lobby: str = Field(
        description="the web client's module of its part of the lobby: what it is, its picture, "
        "its setup form (empty: none)"
    )
    style: str = Field("", description="the web client's stylesheet of the game, loaded by every page (empty: none)")
    colour: str = Field(description="its colour in the web client, a CSS colour (empty: one of the palette's)")
    min_players: int
    max_players: int


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
    rating_changes: list[RatingChange] | None = Field(
        None, description="a finished rated game: each player's rating after it and the change it made"
    )
    deadline: float | None = Field(
        None,
        description="when the clock of the player to move runs out (seconds since 1970, UTC; none: no clock running)",
    )
    clock_kind: Literal["live", "turn"] | None = Field(
        None, description="the game's clock: live (a total time each), turn (a time per turn) or none"
    )


class MyGame(Summary):
    my_seats: list[int] = Field(description="the seats of this account")
    waiting: bool = Field(description="it is one of your seats' turn")


class FirstGame(BaseModel):
    id: str | None = Field(description="your first game of this game still going on (null: none)")


class WaitingGame(BaseModel):
    id: str
    game: GameName
    name: str | None = None
    turn: int


class Waiting(BaseModel):
    games: list[WaitingGame] = Field(description="the games in which it is one of your seats' turn, newest first")


class MySeats(BaseModel):
    seats: list[int] = Field(description="the seats of your account in the game")


class Claim(_Strict):
    code: Text("code", 100, 1) = Field(description="the code of the invitation link")  # type: ignore[valid-type]


class Join(_Strict):
    seat: int = Field(ge=0, le=3)
    name: PersonName("seat name") | None = Field(  # type: ignore[valid-type]
        None, description="the name shown for the seat; it may not look like another player's username"
    )


class Joined(BaseModel):
    seat: int
    token: str | None = Field(None, description="the seat's token, for a program that joined without an account")
    link: str


class ActionBody(_Strict):
    action: Text("action", 200, 1) = Field(description="an action in the game's notation")  # type: ignore[valid-type]
    version: int | None = Field(
        None,
        ge=0,
        description="the version of the view the action was chosen from; a different current version gives 409",
    )


class ResignBody(_Strict):
    bot: Level | None = Field(
        None,
        description="hand the seat over to a bot of this level (it may be taken "
        "back in an unrated game); none: resign, a loss",
    )


class LogEntry(BaseModel):
    n: int = Field(description="the action's number in the game (1 = first)")
    seat: int
    action: str
    text: str = Field(description="the line in the reader's language (docs/i18n.md)")
    key: str = Field(description="the line's message: its English template, the same in every language")
    params: dict[str, Any] = Field(
        description="the values of the template's placeholders (a part of the "
        "line may be a message itself, {key, params})"
    )


class GameEvent(BaseModel):
    """Something that happened to a seat besides its moves: a notice for every player, and a line of
    the game's log after the move it followed."""

    kind: Literal["timeout", "resigned", "handed_over", "took_back"] = Field(
        description="timeout: the clock ran out and a bot plays on (in a rated game a loss); resigned: the "
        "player resigned; handed_over: the player handed the seat to a bot; took_back: the "
        "player plays the seat again"
    )
    seat: int
    bot: Level | None = Field(None, description="the level of the bot that plays the seat now, if any")
    after: int = Field(description="the number of actions in the game when it happened")
    at: float = Field(description="when (seconds since 1970, UTC)")


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
    clock: dict[str, Any] | None = Field(
        None, description="the clock (see builders.server.clocks): left, running, since, kind, ..."
    )
    events: list[GameEvent] = Field([], description="timeouts, resignations and seats handed over or taken back")
    rating_changes: list[RatingChange] | None = Field(None, description="a finished rated game's rating changes")
    can_abort: bool = Field(False, description="the game may still be aborted (not every person has moved)")
    first_game: bool = Field(False, description="a first game started from the guide (its walkthrough is shown)")
    rated: bool = Field(False, description="a rated game (its result moves the players' ratings)")
    guide: str = Field(
        "", description="the web client's module of the game's guide (its plugin's web_guide; empty: none)"
    )
    table: str = Field("", description="the web client's module that draws the game's table (its plugin's web_table)")
    board: dict[str, Any] | None = None
    scoring_hexes: dict[str, dict[str, list[list[int]]]] | None = None


class ReplayView(View):
    total: int


class ErrorModel(BaseModel):
    detail: str = Field(description="what was wrong, in one line, in the reader's language (docs/i18n.md)")
    code: str = Field(description="the message's key: its English template, the same in every language")
    params: dict[str, Any] = Field(description="the values of the template's placeholders")


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
    language: str | None = Field(None, description="the language chosen for the server's words (null: the browser's)")


class LanguageChoice(_Strict):
    language: Literal["en", "de", "fr"] | None = Field(
        description="the language of the server's refusals and log lines (null: the browser's Accept-Language)"
    )


class SessionInfo(BaseModel):
    account: AccountInfo | None = Field(description="null: not signed in and not a guest yet")
    csrf: str | None = Field(
        description="send it in the X-CSRF-Token header of every change made with the session cookie"
    )


class SignIn(_Strict):
    username: Text("username", 100) = Field(  # type: ignore[valid-type]
        description="3 to 20 letters, digits, '_' or '-' (normalised to NFKC)"
    )
    password: Text("password", 1000) = Field(description="at least 8 characters")  # type: ignore[valid-type]


class PasswordChange(_Strict):
    old: Text("password", 1000)  # type: ignore[valid-type]
    new: Text("new password", 1000)  # type: ignore[valid-type]


class NewApiToken(_Strict):
    name: Text("token name", 40, 1) = Field(description="what the token is for")  # type: ignore[valid-type]


class ApiTokenInfo(BaseModel):
    id: int
    name: str
    created: float


class CreatedApiToken(ApiTokenInfo):
    token: str = Field(description="the token itself: shown this once only")


# -- chat ----------------------------------------------------------------------------------------------
class ChatBody(_Strict):
    text: Text("chat message", 2000, 1, newlines=True) = Field(  # type: ignore[valid-type]
        description="at most 500 characters (longer is refused); line breaks are kept, other control characters refused"
    )


class ChatMessage(BaseModel):
    id: int
    channel: Literal["players", "spectators"]
    author: str
    seat: int | None = None
    text: str
    at: float = Field(description="seconds since 1970 (UTC)")
    account: bool = Field(
        False,
        description="written by a signed-in account (author is its name); otherwise by "
        "the seat's guest or program (author is the seat's colour)",
    )


# -- ratings -------------------------------------------------------------------------------------------
class Leader(BaseModel):
    rank: int
    username: str
    rating: int = Field(description="on the familiar scale: 1500 for a new player (60 times mu)")
    provisional: bool = Field(description="too few rated games yet to be sure of the rating")
    mu: float
    sigma: float
    games: int


class GameRating(BaseModel):
    rating: int
    provisional: bool
    mu: float
    sigma: float
    games: int


class RatingPoint(BaseModel):
    #: None for a private game seen by someone else than the player (the point stays, unlinked)
    game_id: str | None
    game: GameName
    rating: int
    change: int = Field(description="what this game changed the rating by")
    provisional: bool
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


class FavouriteCard(BaseModel):
    """One of a player's favourite cards: its game and its id (named in words by the game's web module)."""

    game: GameName
    card: str


class Profile(BaseModel):
    username: str
    ratings: dict[str, GameRating]
    history: list[RatingPoint]
    games_played: int
    rated_games: int
    wins: int
    win_rate: float | None = None
    mean_score: float | None = None
    favourite_cards: list[FavouriteCard] = Field(
        description="the three cards of each game the player played most often in finished games (what the "
        "game's plugin counts), by game in the registry's order, the most often first; empty for none"
    )
    games: list[ProfileGame]
