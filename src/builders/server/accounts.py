"""Accounts: sign up, sign in and out, passwords, guests, sessions, CSRF and personal API tokens.

A person is an account: a named one (a username, unique regardless of case, and a password hashed
with Argon2) or a guest (an account with no name yet, made on first need, that signing up later turns
into a named one keeping its games). A browser holds its session in an HttpOnly, SameSite=Lax cookie
(Secure behind https); only the SHA-256 of the cookie is stored. Every state-changing request that
relies on the cookie must carry the session's CSRF token in the ``X-CSRF-Token`` header. Programs use
a personal API token (``Authorization: Bearer ...``), shown once when made and stored hashed; requests
with it need no CSRF token (a browser never sends it by itself); a token cannot make tokens.

Every game socket opened with a session or an API token is remembered with it (:class:`OpenSockets`):
signing out, a password change (the account's other sessions and all its tokens end), revoking a token
and deleting the account close those sockets at once on this process (code :data:`CLOSE_ENDED`), and
within :data:`WATCH_SECONDS` on every other process, which asks the database which of the credentials
of its sockets still hold.

Sign-in attempts are limited per address, per (name, address) and per name, in limits shared by the
server processes (Redis, else the database: :mod:`builders.server.limits`); an address the account
signed in from before is not held by the per-name limit, so failures from other addresses slow an
attacker without locking the owner out.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
import os
import re
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Path as PathParam, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from builders.core.messages import Message, msg
from builders.server import names
from builders.server.games import ApiError
from builders.server.limits import shared
from builders.server.repos.accounts import AccountRecord, AccountRepo, Taken
from builders.server.schemas import (
    ApiTokenInfo,
    CreatedApiToken,
    LanguageChoice,
    NewApiToken,
    PasswordChange,
    SessionInfo,
    SignIn,
)
from builders.server.store import Store

SESSION_COOKIE = "builders_session"
CSRF_HEADER = "X-CSRF-Token"
#: a session lasts this long after it is made (seconds)
SESSION_SECONDS = 30 * 24 * 3600
GUEST_SECONDS = 365 * 24 * 3600
#: a username (matched whole, after NFKC)
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
USERNAME_RULE = msg("a username is 3 to 20 letters, digits, '_' or '-'")
#: the skeleton of a guest's name (Account.display: "guest 12"; a 0 looks like an o, a 1 like an l)
GUEST_LOOK = re.compile(r"guest *[0-9ol]+")
MIN_PASSWORD = 8
MAX_PASSWORD = 200
TOKEN_PREFIX = "bld_"
#: the close code of a game socket whose credential ended (signed out, password changed, token
#: revoked, account deleted)
CLOSE_ENDED = 4401
#: how often each process asks the database whether the credentials of its sockets still hold
WATCH_SECONDS = 0.5
#: why a browser's sockets close when it signs in or up again (its old session ends)
REPLACED = msg("this browser signed in again: connect again")
SIGNED_OUT = msg("you signed out")
#: the display name of a deleted account's seats
DELETED_NAME = "deleted player"
#: the addresses remembered per account (the most recent)
KNOWN_ADDRESSES = 20
#: seconds the display names of accounts are kept in memory
NAMES_SECONDS = 60.0

log = logging.getLogger("builders.server")


@dataclass(frozen=True)
class Account:
    id: int
    username: str | None
    #: the language the account chose for what the server says (None: the browser's)
    language: str | None = None

    @property
    def guest(self) -> bool:
        return self.username is None

    @property
    def display(self) -> str:
        return self.username or f"guest {self.id}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.username,
            "guest": self.guest,
            "name": self.display,
            "language": self.language,
        }


@dataclass(frozen=True)
class Who:
    """Who sent a request: an account (or none) and how it was recognised."""

    account: Account | None
    via: str  # "cookie", "bearer" or "none"
    csrf: str | None = None
    #: ("session", SHA-256 of the cookie) or ("token", the API token's id): what a socket is closed by
    credential: tuple[str, str] | None = None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class RateLimit:
    """At most ``count`` events per key in any ``window`` seconds (kept in memory)."""

    def __init__(self, count: int, window: float):
        self.count = count
        self.window = window
        self.events: dict[str, deque[float]] = {}

    def check(self, key: str, now: float | None = None) -> float:
        """Records an event; returns 0, or the seconds to wait when the key is over its limit (the
        refused event is not recorded)."""
        now = time.monotonic() if now is None else now
        seen = self.events.setdefault(key, deque())
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if len(seen) >= self.count:
            return seen[0] + self.window - now
        seen.append(now)
        if len(self.events) > 100_000:  # forget idle keys
            for k in [k for k, v in self.events.items() if not v or v[-1] <= now - self.window]:
                del self.events[k]
        return 0.0


class OpenSockets:
    """The game sockets of this process opened with a credential. :meth:`end` closes a credential's
    sockets (from any thread); while there are any, a task asks the database every
    :data:`WATCH_SECONDS` which credentials still hold and closes the sockets of the others (ended
    on another process). A socket is anything with ``end(code, reason)``."""

    def __init__(self, alive: Any):
        self.alive = alive
        self.held: dict[tuple[str, str], set[Any]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task | None = None

    def add(self, socket: Any, credential: tuple[str, str]) -> None:
        self.loop = asyncio.get_running_loop()
        self.held.setdefault(credential, set()).add(socket)
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._watch())

    def remove(self, socket: Any, credential: tuple[str, str]) -> None:
        found = self.held.get(credential)
        if found is not None:
            found.discard(socket)
            if not found:
                del self.held[credential]

    def end(self, credentials: list[tuple[str, str]], reason: Message) -> None:
        """Close the sockets of ``credentials`` with :data:`CLOSE_ENDED` and ``reason``."""
        loop = self.loop
        if loop is None or not credentials:
            return
        try:
            here = asyncio.get_running_loop() is loop
        except RuntimeError:
            here = False
        if here:
            self._end(credentials, reason)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(self._end, credentials, reason)

    def _end(self, credentials: list[tuple[str, str]], reason: Message) -> None:
        for credential in credentials:
            for socket in self.held.pop(credential, ()):
                socket.end(CLOSE_ENDED, reason)

    async def _watch(self) -> None:
        while self.held:
            await asyncio.sleep(WATCH_SECONDS)
            held = list(self.held)
            if not held:
                break
            try:
                alive = await asyncio.to_thread(self.alive, held)
            except Exception as e:  # noqa: BLE001 - the database is away: ask again next time
                log.warning("the credentials of the open sockets cannot be checked: %s", type(e).__name__)
                continue
            self._end(
                [c for c in held if c not in alive],
                msg("your sign-in ended (signed out, password changed, token revoked or account deleted)"),
            )


class DeleteAccount(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, description="the account's password, to confirm")


class Accounts:
    def __init__(
        self,
        store: Store,
        *,
        redis_url: str | None = None,
        login_per_name: tuple[int, float] = (10, 300.0),
        login_per_address: tuple[int, float] = (30, 300.0),
        login_per_name_address: tuple[int, float] = (5, 300.0),
    ):
        from pwdlib import PasswordHash
        from pwdlib.hashers.argon2 import Argon2Hasher

        self.store = store
        #: the tables of accounts, sessions and tokens
        self.rows = AccountRepo(store.engine)
        self._hasher = PasswordHash((Argon2Hasher(),))
        # Argon2 takes about 64 MiB and most of a second per hash: a few at a time, the others wait
        self._hashing = threading.BoundedSemaphore(max(2, (os.cpu_count() or 2)))
        #: the sign-in limits, shared by the server processes
        self.limits = shared(redis_url, store.engine, "login:")
        self.login_per_name = login_per_name
        self.login_per_address = login_per_address
        self.login_per_name_address = login_per_name_address
        self._names: dict[int, str | None] = {}
        #: the accounts of _names that were deleted; both are forgotten every NAMES_SECONDS (another
        #: process may have deleted an account)
        self._deleted: set[int] = set()
        self._names_at = time.monotonic()
        self.sockets = OpenSockets(self.alive)

    def hash(self, password: str) -> str:
        with self._hashing:
            return self._hasher.hash(password)

    def verify(self, password: str, digest: str) -> bool:
        with self._hashing:
            return self._hasher.verify(password, digest)

    # -- accounts --------------------------------------------------------------------------------
    def get(self, account_id: int) -> Account | None:
        return _account(self.rows.get(account_id))

    def by_username(self, username: str) -> Account | None:
        username = _normal(username)
        if username is None or not USERNAME.fullmatch(username):
            return None
        return _account(self.rows.by_name_key(username.lower()))

    def names(self, ids: set[int]) -> dict[int, str]:
        """The display names of these accounts."""
        if time.monotonic() - self._names_at > NAMES_SECONDS:
            self._names, self._deleted, self._names_at = {}, set(), time.monotonic()
        missing = [i for i in ids if i not in self._names]
        if missing:
            for row in self.rows.names(missing):
                self._names[row.id] = row.username
                if row.deleted:
                    self._deleted.add(row.id)
        return {i: DELETED_NAME if i in self._deleted else Account(i, self._names.get(i)).display for i in ids}

    def create_guest(self) -> Account:
        return Account(self.rows.create_guest(time.time()), None)

    @staticmethod
    def check_new(username: Any, password: Any) -> str:
        """The username (NFKC), or 400 when it or the password cannot be an account's."""
        if not isinstance(username, str):
            raise ApiError(400, USERNAME_RULE)
        try:
            username = names.check_name(username, "username", 100)
        except names.BadText as e:
            raise ApiError(400, e.message) from None
        if not USERNAME.fullmatch(username):
            raise ApiError(400, USERNAME_RULE)
        check_password(password)
        return username

    def look_alike(self, name: str) -> Account | None:
        """The named account whose username looks like ``name`` (the same skeleton), if any."""
        return _account(self.rows.by_skeleton(names.skeleton(name)))

    def check_seat_name(self, name: str, account: int | None) -> None:
        """409 when ``name``, a seat's name, looks like a registered player's username or like a
        guest's name ("guest 12"), unless it is the seat's own ``account``'s."""
        found = self.look_alike(name)
        if found is not None and found.id != account:
            raise ApiError(
                409, msg("the name {name!r} looks like {found}: choose another", name=name, found=_whose(found))
            )
        if GUEST_LOOK.fullmatch(names.skeleton(name)):
            own = self.get(account) if account is not None else None
            if own is None or not own.guest or names.skeleton(own.display) != names.skeleton(name):
                raise ApiError(409, msg("the name {name!r} looks like a guest's name: choose another", name=name))

    def _refuse_taken(self, username: str, guest: Account | None) -> None:
        found = self.look_alike(username)
        if found is None or (guest is not None and found.id == guest.id):
            return
        if (found.username or "").lower() == username.lower():
            raise ApiError(409, msg("the username {username!r} is taken", username=username))
        raise ApiError(409, msg("the username {username!r} looks like {found}", username=username, found=_whose(found)))

    def sign_up(self, username: str, password: str, guest: Account | None) -> Account:
        """A named account; a guest's account becomes it (keeping its games). A username that looks
        like another's (the same skeleton, see builders.server.names) is taken."""
        username = self.check_new(username, password)
        self._refuse_taken(username, guest)
        digest = self.hash(password)
        names_of = {
            "username": username,
            "username_key": username.lower(),
            "username_skeleton": names.skeleton(username),
        }
        try:
            account_id = self.rows.name(
                guest.id if guest is not None and guest.guest else None, names_of, digest, time.time()
            )
        except Taken:  # signed up meanwhile by another request
            self._refuse_taken(username, guest)
            raise ApiError(409, msg("the username {username!r} is taken", username=username)) from None
        self._names[account_id] = username
        return Account(account_id, username)

    def sign_in(self, username: Any, password: Any, address: str) -> Account:
        name_key = (_normal(username) or "").lower()
        self.limit_sign_in(name_key[:40], address)
        row = self.rows.login(name_key)
        stored = row.password_hash if row is not None else None
        ok = False
        if isinstance(password, str) and len(password) <= MAX_PASSWORD:
            if stored:
                ok = self.verify(password, stored)
            else:  # the same work for an unknown name: the time taken does not tell names apart
                self.hash(password)
        if not ok or row is None:
            raise ApiError(401, msg("wrong username or password"))
        self.remember_address(row.account.id, address)
        return Account(row.account.id, row.account.username, row.account.language)

    def limit_sign_in(self, name_key: str, address: str) -> None:
        """429 (with the seconds to wait) when a sign-in to ``name_key`` from ``address`` is over a
        limit: per address, per (name, address), and per name unless the account signed in from
        ``address`` before. Each attempt counts, on every server process."""
        checks = [
            (f"address:{address}", self.login_per_address),
            (f"name-address:{name_key}:{address}", self.login_per_name_address),
        ]
        if not self.known_address(name_key, address):
            checks.append((f"name:{name_key}", self.login_per_name))
        for key, (count, per) in checks:
            wait = self.limits.take(key, count, per)
            if wait:
                raise ApiError(
                    429, msg("too many sign-in attempts; try again in {seconds} seconds", seconds=math.ceil(wait))
                )

    def known_address(self, name_key: str, address: str) -> bool:
        """Whether the account named ``name_key`` signed in from ``address`` before."""
        return self.rows.known_address(name_key, address_digest(address))

    def remember_address(self, account_id: int, address: str) -> None:
        """``address`` signed in to the account: remembered (with the account's latest others)."""
        self.rows.remember_address(account_id, address_digest(address), time.time(), KNOWN_ADDRESSES)

    def change_password(self, account: Account, old: str, new: str, keep_session: str) -> None:
        """The new password; the account's other sessions and all its API tokens end (their sockets
        are closed)."""
        check_password(new)
        self.check_password_of(account, old, msg("the current password is wrong"))
        # every other browser signed in to this account is signed out, every program too
        ended = self.rows.change_password(account.id, self.hash(new), keep_session)
        self.sockets.end(
            [c for c in ended if c != ("session", keep_session)], msg("the account's password changed: sign in again")
        )

    def delete_account(self, account: Account) -> None:
        """The account is deleted (:meth:`check_password_of` first): its sessions, tokens, known addresses
        and name go (the name is free again), its sockets are closed; its row stays, marked deleted,
        for the seats of finished games (shown as "deleted player"), and so do its ratings (no longer
        listed). Its seats of the games going on are resigned next (see :func:`leave_games`)."""
        ended = self.rows.delete(account.id, DELETED_NAME, time.time())
        self._names.pop(account.id, None)
        self.sockets.end(ended, msg("the account was deleted"))

    def check_password_of(self, account: Account, password: Any, wrong: Message) -> None:
        """403 ``wrong`` unless ``password`` is the account's."""
        stored = self.rows.password_hash(account.id)
        if not stored or not isinstance(password, str) or not self.verify(password, stored):
            raise ApiError(403, wrong)

    # -- sessions --------------------------------------------------------------------------------
    def new_session(self, account: Account) -> tuple[str, str]:
        """A session for ``account``: (cookie value, CSRF token)."""
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = time.time()
        life = GUEST_SECONDS if account.guest else SESSION_SECONDS
        self.rows.add_session(sha(cookie), account.id, csrf, now, now + life)
        return cookie, csrf

    def end_session(self, cookie: str, reason: Message = SIGNED_OUT) -> None:
        """The session ends; so do the sockets opened with it."""
        self.rows.end_session(sha(cookie))
        self.sockets.end([("session", sha(cookie))], reason)

    def alive(self, credentials: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of ``credentials`` that still hold (sessions not ended nor expired, tokens not revoked)."""
        sessions = [value for kind, value in credentials if kind == "session"]
        tokens = [int(value) for kind, value in credentials if kind == "token"]
        return self.rows.alive(sessions, tokens, time.time())

    def session(self, cookie: str | None) -> tuple[Account, str] | None:
        if not cookie or len(cookie) > 100:
            return None
        row = self.rows.session(sha(cookie))
        if row is None or row.expires < time.time():
            return None
        return Account(row.account.id, row.account.username, row.account.language), row.csrf

    def identify(self, request: Any, write: bool = False) -> Who:
        """Who sent ``request`` (an HTTP request or a WebSocket). With ``write``, a request that relies
        on the session cookie must carry its CSRF token (403 otherwise); a wrong API token is 401."""
        auth = request.headers.get("authorization")
        if auth:
            scheme, _, value = auth.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise ApiError(401, msg("the Authorization header must be 'Bearer <personal API token>'"))
            found = self._token(value.strip())
            if found is None:
                raise ApiError(401, msg("the personal API token is not valid"))
            request.state.account_language = found[0].language  # the language of its refusals
            return Who(found[0], "bearer", credential=("token", str(found[1])))
        found = self.session(request.cookies.get(SESSION_COOKIE))
        if found is None:
            return Who(None, "none")
        account, csrf = found
        request.state.account_language = account.language
        if write:
            sent = request.headers.get(CSRF_HEADER.lower()) or ""
            if not hmac.compare_digest(sent.encode("utf-8", "replace"), csrf.encode()):
                raise ApiError(403, msg("this request needs your session's CSRF token in the X-CSRF-Token header"))
        return Who(account, "cookie", csrf, ("session", sha(request.cookies[SESSION_COOKIE])))

    def set_language(self, account: Account, language: str | None) -> Account:
        """The account's language (None: the browser's); the account as it is now."""
        self.rows.set_language(account.id, language)
        return Account(account.id, account.username, language)

    # -- personal API tokens ---------------------------------------------------------------------
    def create_token(self, account: Account, name: str) -> dict[str, Any]:
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        now = time.time()
        token_id = self.rows.add_token(account.id, name, sha(token), now)
        return {"id": token_id, "name": name, "created": now, "token": token}

    def tokens(self, account: Account) -> list[dict[str, Any]]:
        return [{"id": r.id, "name": r.name, "created": r.created} for r in self.rows.tokens(account.id)]

    def delete_token(self, account: Account, token_id: int) -> None:
        if not self.rows.delete_token(account.id, token_id):
            raise ApiError(404, msg("you have no API token {token_id}", token_id=token_id))
        self.sockets.end([("token", str(token_id))], msg("the personal API token was revoked"))

    def token_account(self, token: str) -> Account | None:
        found = self._token(token)
        return found[0] if found else None

    def _token(self, token: str) -> tuple[Account, int] | None:
        """The account of a personal API token and the token's id."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        found = self.rows.token(sha(token))
        return (Account(found[0].id, found[0].username, found[0].language), found[1]) if found else None


def _account(row: AccountRecord | None) -> Account | None:
    return Account(row.id, row.username, row.language) if row else None


def check_password(password: Any) -> None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise ApiError(400, msg("a password needs at least {count} characters", count=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise ApiError(400, msg("a password has at most {count} characters", count=MAX_PASSWORD))
    try:
        names.check_text(password, "password")
    except names.BadText as e:
        raise ApiError(400, e.message) from None


def _whose(account: Account) -> Message:
    """Whose name a look-alike looks like."""
    if account.username is None:
        return msg("the name of a deleted account")
    return msg("the registered player {username!r}", username=account.username)


def _normal(username: Any) -> str | None:
    """A username as typed, in NFKC (None: it cannot be one)."""
    if not isinstance(username, str) or len(username) > 100:
        return None
    try:
        return names.check_name(username, "username", 100)
    except names.BadText:
        return None


def address_digest(address: str) -> str:
    """How the addresses accounts signed in from are stored."""
    return sha("builders-address:" + address)


async def leave_games(service: Any, account_id: int) -> list[str]:
    """The account resigns its seats of the games going on (as ``POST /api/games/{id}/resign``
    without a bot does); a game left to bots alone this way counts for the caps of those but is not
    refused by them (the person is gone). Returns the games."""
    left = []
    for row in await asyncio.to_thread(service.store.games_of, account_id, 1000):
        if row["status"] == "finished":
            continue
        live = await service.fetch(row["id"])
        for seat in [s.seat for s in live.seats if s.account == account_id and s.type == "human"]:
            if not live.over:
                await service.resign_as(live, seat, None)
        left.append(live.id)
    return left


def secure_request(request: Request) -> bool:
    return request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "").lower() == "https"


def set_session_cookie(response: Response, request: Request, cookie: str, guest: bool) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        cookie,
        max_age=GUEST_SECONDS if guest else SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=secure_request(request),
        path="/",
    )


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def session_info(account: Account | None, csrf: str | None) -> dict[str, Any]:
    return {"account": account.to_json() if account else None, "csrf": csrf}


def router(accounts: Accounts, on_sign_in: Any = None, on_delete: Any = None) -> APIRouter:
    """The HTTP routes of accounts and sessions (Argon2 runs in the thread pool). ``on_sign_in(guest,
    account)`` (a coroutine function) is called when a guest's browser signs in to a named account,
    ``on_delete(account)`` (one too) once an account is deleted."""
    r = APIRouter(tags=["accounts"])

    @r.get("/api/session", response_model=SessionInfo, summary="Who this browser is signed in as")
    def get_session(request: Request):
        who = accounts.identify(request)
        return session_info(who.account, who.csrf)

    @r.post("/api/session/guest", response_model=SessionInfo, summary="Play as a guest (an anonymous account)")
    def guest(request: Request, response: Response):
        who = accounts.identify(request)
        if who.account is not None:
            return session_info(who.account, who.csrf)
        account = accounts.create_guest()
        cookie, csrf = accounts.new_session(account)
        set_session_cookie(response, request, cookie, guest=True)
        return session_info(account, csrf)

    @r.post(
        "/api/accounts",
        status_code=201,
        response_model=SessionInfo,
        summary="Sign up (a guest's account becomes the new named account, with its games)",
    )
    def sign_up(body: SignIn, request: Request, response: Response):
        who = accounts.identify(request, write=True)
        if who.account is not None and not who.account.guest:
            raise ApiError(409, msg("you are signed in as {username}: sign out first", username=who.account.username))
        account = accounts.sign_up(body.username, body.password, who.account if who.via == "cookie" else None)
        old = request.cookies.get(SESSION_COOKIE)
        if old and who.via == "cookie":
            accounts.end_session(old, REPLACED)
        cookie, csrf = accounts.new_session(account)
        set_session_cookie(response, request, cookie, guest=False)
        return session_info(account, csrf)

    @r.post(
        "/api/session",
        response_model=SessionInfo,
        summary="Sign in",
        responses={429: {"description": "too many sign-in attempts"}},
    )
    async def sign_in(body: SignIn, request: Request, response: Response):
        account = await run_in_threadpool(accounts.sign_in, body.username, body.password, address_of(request))
        old = request.cookies.get(SESSION_COOKIE)
        before = accounts.session(old) if old else None
        if old:
            accounts.end_session(old, REPLACED)
        if before is not None and before[0].guest and on_sign_in is not None:
            await on_sign_in(before[0].id, account.id)  # the guest's games come along
        cookie, csrf = accounts.new_session(account)
        set_session_cookie(response, request, cookie, guest=False)
        return session_info(account, csrf)

    @r.delete("/api/session", status_code=204, summary="Sign out")
    def sign_out(request: Request):
        who = accounts.identify(request, write=True)
        if who.via != "cookie":
            raise ApiError(401, msg("you are not signed in"))
        accounts.end_session(request.cookies[SESSION_COOKIE])
        response = Response(status_code=204)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @r.post("/api/account/password", status_code=204, summary="Change your password")
    def change_password(body: PasswordChange, request: Request):
        who = accounts.identify(request, write=True)
        if who.via != "cookie" or who.account is None or who.account.guest:
            raise ApiError(401, msg("sign in to change your password"))
        accounts.change_password(who.account, body.old, body.new, sha(request.cookies[SESSION_COOKIE]))
        return Response(status_code=204)

    def named(request: Request, write: bool) -> Account:
        who = accounts.identify(request, write=write)
        if who.account is None:
            raise ApiError(401, msg("sign in first"))
        if who.account.guest:
            raise ApiError(403, msg("a guest has no API tokens: sign up first"))
        return who.account

    @r.put(
        "/api/account/language",
        response_model=SessionInfo,
        summary="The language the server speaks to you (null: your browser's), for a guest too",
    )
    def set_language(body: LanguageChoice, request: Request):
        who = accounts.identify(request, write=True)
        if who.account is None:
            raise ApiError(401, msg("sign in or play as a guest first"))
        return session_info(accounts.set_language(who.account, body.language), who.csrf)

    @r.get("/api/account/tokens", response_model=list[ApiTokenInfo], summary="Your personal API tokens")
    def list_tokens(request: Request):
        return accounts.tokens(named(request, False))

    @r.post(
        "/api/account/tokens",
        status_code=201,
        response_model=CreatedApiToken,
        summary="Make a personal API token (shown once)",
    )
    def new_token(body: NewApiToken, request: Request):
        account = named(request, True)
        if accounts.identify(request).via != "cookie":
            raise ApiError(403, msg("a personal API token cannot make tokens: sign in to make one"))
        return accounts.create_token(account, body.name)

    @r.delete("/api/account/tokens/{token_id}", status_code=204, summary="Revoke a personal API token")
    def revoke(request: Request, token_id: int = PathParam(ge=1, le=2**31)):
        accounts.delete_token(named(request, True), token_id)
        return Response(status_code=204)

    @r.delete(
        "/api/account",
        status_code=204,
        summary="Delete your account (with its password)",
        responses={403: {"description": "the password is wrong, or not a signed-in session"}},
    )
    async def delete_account(body: DeleteAccount, request: Request):
        who = await run_in_threadpool(accounts.identify, request, True)
        if who.account is None:
            raise ApiError(401, msg("sign in to delete your account"))
        if who.via != "cookie":
            raise ApiError(403, msg("an account is deleted from a signed-in session, not with a personal API token"))
        if who.account.guest:
            raise ApiError(403, msg("a guest account has no password to confirm with: sign up first, or just sign out"))
        await run_in_threadpool(accounts.check_password_of, who.account, body.password, msg("the password is wrong"))
        await run_in_threadpool(accounts.delete_account, who.account)  # its credentials end first
        if on_delete is not None:
            await on_delete(who.account.id)  # then its seats of the games going on are resigned
        response = Response(status_code=204)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    return r
