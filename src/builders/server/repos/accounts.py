"""Accounts, sessions, personal API tokens and the addresses accounts signed in from."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from builders.server.models import (
    AccountRow,
    ApiTokenRow,
    ChatRow,
    DeletedAccountRow,
    KnownAddressRow,
    SessionRow,
)

#: credentials as the sockets know them: ("session", SHA-256 of the cookie) or ("token", its id)
Credential = tuple[str, str]


@dataclass(frozen=True)
class AccountRecord:
    id: int
    username: str | None
    language: str | None = None


@dataclass(frozen=True)
class NameRecord:
    """An account's stored name (None: a guest, or deleted) and whether it was deleted."""

    id: int
    username: str | None
    deleted: bool


@dataclass(frozen=True)
class LoginRecord:
    account: AccountRecord
    password_hash: str | None


@dataclass(frozen=True)
class SessionRecord:
    account: AccountRecord
    csrf: str
    expires: float


@dataclass(frozen=True)
class TokenRecord:
    id: int
    name: str
    created: float


class Taken(Exception):
    """A unique name was taken by another request meanwhile: nothing was written."""


class AccountRepo:
    """The tables of people: ``accounts``, ``deleted_accounts``, ``sessions``, ``api_tokens`` and
    ``known_addresses``."""

    def __init__(self, engine: Engine):
        self.engine = engine

    # -- accounts --------------------------------------------------------------------------------
    def get(self, account_id: int) -> AccountRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(AccountRow.id, AccountRow.username).where(AccountRow.id == account_id)).first()
        return AccountRecord(row.id, row.username) if row else None

    def by_name_key(self, name_key: str) -> AccountRecord | None:
        """The account whose username in lower case is ``name_key``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.username).where(AccountRow.username_key == name_key)
            ).first()
        return AccountRecord(row.id, row.username) if row else None

    def by_skeleton(self, skeleton: str) -> AccountRecord | None:
        """The named account whose username's skeleton is ``skeleton``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.username).where(AccountRow.username_skeleton == skeleton)
            ).first()
        return AccountRecord(row.id, row.username) if row else None

    def names(self, ids: list[int]) -> list[NameRecord]:
        """The stored names of the accounts ``ids`` (those that exist)."""
        with self.engine.connect() as conn:
            return [
                NameRecord(row.id, row.username, row.at is not None)
                for row in conn.execute(
                    select(AccountRow.id, AccountRow.username, DeletedAccountRow.at)
                    .outerjoin(DeletedAccountRow, DeletedAccountRow.account_id == AccountRow.id)
                    .where(AccountRow.id.in_(ids))
                )
            ]

    def create_guest(self, now: float) -> int:
        with self.engine.begin() as conn:
            return conn.execute(insert(AccountRow).values(created=now)).inserted_primary_key[0]

    def name(self, guest: int | None, names: dict[str, str], password_hash: str, now: float) -> int:
        """A named account (the guest ``guest`` becomes it, if given) with the name's columns ``names``;
        its id. :class:`Taken` if a unique column is taken."""
        try:
            with self.engine.begin() as conn:
                if guest is not None:
                    conn.execute(
                        update(AccountRow).where(AccountRow.id == guest).values(**names, password_hash=password_hash)
                    )
                    return guest
                return conn.execute(
                    insert(AccountRow).values(**names, password_hash=password_hash, created=now)
                ).inserted_primary_key[0]
        except IntegrityError:
            raise Taken(names.get("username")) from None

    def login(self, name_key: str) -> LoginRecord | None:
        """The account named ``name_key`` (in lower case) with its password hash."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.username, AccountRow.password_hash, AccountRow.language).where(
                    AccountRow.username_key == name_key
                )
            ).first()
        return LoginRecord(AccountRecord(row.id, row.username, row.language), row.password_hash) if row else None

    def password_hash(self, account_id: int) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(AccountRow.password_hash).where(AccountRow.id == account_id)).scalar()

    def set_language(self, account_id: int, language: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(AccountRow).where(AccountRow.id == account_id).values(language=language))

    def change_password(self, account_id: int, password_hash: str, keep_session: str) -> list[Credential]:
        """The new password hash; the account's sessions but ``keep_session`` and all its tokens are
        deleted. The credentials the account had before."""
        with self.engine.begin() as conn:
            conn.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))
            ended = _credentials(conn, account_id)
            conn.execute(
                delete(SessionRow).where(SessionRow.account_id == account_id, SessionRow.token_sha != keep_session)
            )
            conn.execute(delete(ApiTokenRow).where(ApiTokenRow.account_id == account_id))
        return ended

    def delete(self, account_id: int, author: str, now: float) -> list[Credential]:
        """The account's sessions, tokens, known addresses, name and password go, its chat messages
        are signed ``author``, and it is marked deleted; the credentials it had."""
        with self.engine.begin() as conn:
            ended = _credentials(conn, account_id)
            conn.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            conn.execute(delete(ApiTokenRow).where(ApiTokenRow.account_id == account_id))
            conn.execute(delete(KnownAddressRow).where(KnownAddressRow.account_id == account_id))
            names_of = [c for c in ("username", "username_key", "username_skeleton") if c in AccountRow.__table__.c]
            conn.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(password_hash=None, **{c: None for c in names_of})
            )
            conn.execute(update(ChatRow).where(ChatRow.account_id == account_id).values(author=author))
            conn.execute(insert(DeletedAccountRow).values(account_id=account_id, at=now))
        return ended

    # -- addresses -------------------------------------------------------------------------------
    def known_address(self, name_key: str, address_sha: str) -> bool:
        """Whether the account named ``name_key`` signed in from the address ``address_sha`` before."""
        with self.engine.connect() as conn:
            return (
                conn.execute(
                    select(KnownAddressRow.last)
                    .join(AccountRow, AccountRow.id == KnownAddressRow.account_id)
                    .where(AccountRow.username_key == name_key, KnownAddressRow.address_sha == address_sha)
                ).first()
                is not None
            )

    def remember_address(self, account_id: int, address_sha: str, now: float, keep: int) -> None:
        """The account signed in from ``address_sha`` at ``now``; only its ``keep`` latest stay."""
        table = KnownAddressRow.__table__
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(table)
                .where(table.c.account_id == account_id, table.c.address_sha == address_sha)
                .values(last=now)
            ).rowcount
            if not moved:
                conn.execute(insert(table).values(account_id=account_id, address_sha=address_sha, last=now))
                old = (
                    conn.execute(
                        select(table.c.address_sha)
                        .where(table.c.account_id == account_id)
                        .order_by(table.c.last.desc())
                        .offset(keep)
                    )
                    .scalars()
                    .all()
                )
                if old:
                    conn.execute(delete(table).where(table.c.account_id == account_id, table.c.address_sha.in_(old)))

    # -- sessions and tokens ---------------------------------------------------------------------
    def add_session(self, token_sha: str, account_id: int, csrf: str, now: float, expires: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(SessionRow).values(
                    token_sha=token_sha, account_id=account_id, csrf=csrf, created=now, expires=expires
                )
            )

    def end_session(self, token_sha: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.token_sha == token_sha))

    def end_sessions_before(self, now: float) -> None:
        """Delete the sessions past their end."""
        with self.engine.begin() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.expires < now))

    def session(self, token_sha: str) -> SessionRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    SessionRow.account_id, SessionRow.csrf, SessionRow.expires, AccountRow.username, AccountRow.language
                )
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_sha == token_sha)
            ).first()
        if row is None:
            return None
        return SessionRecord(AccountRecord(row.account_id, row.username, row.language), row.csrf, row.expires)

    def alive(self, sessions: list[str], tokens: list[int], now: float) -> set[Credential]:
        """Those of the sessions (by digest) not ended nor expired at ``now`` and of the tokens (by
        id) not revoked, as credentials."""
        found: set[Credential] = set()
        with self.engine.connect() as conn:
            for i in range(0, len(sessions), 500):
                found.update(
                    ("session", t)
                    for t in conn.execute(
                        select(SessionRow.token_sha).where(
                            SessionRow.token_sha.in_(sessions[i : i + 500]), SessionRow.expires > now
                        )
                    ).scalars()
                )
            for i in range(0, len(tokens), 500):
                found.update(
                    ("token", str(t))
                    for t in conn.execute(
                        select(ApiTokenRow.id).where(ApiTokenRow.id.in_(tokens[i : i + 500]))
                    ).scalars()
                )
        return found

    def add_token(self, account_id: int, name: str, token_sha: str, now: float) -> int:
        with self.engine.begin() as conn:
            return conn.execute(
                insert(ApiTokenRow).values(account_id=account_id, name=name, token_sha=token_sha, created=now)
            ).inserted_primary_key[0]

    def tokens(self, account_id: int) -> list[TokenRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ApiTokenRow.id, ApiTokenRow.name, ApiTokenRow.created)
                .where(ApiTokenRow.account_id == account_id)
                .order_by(ApiTokenRow.id)
            ).all()
        return [TokenRecord(r.id, r.name, r.created) for r in rows]

    def delete_token(self, account_id: int, token_id: int) -> bool:
        """Whether the account's token ``token_id`` was there (and is deleted now)."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(ApiTokenRow).where(ApiTokenRow.id == token_id, ApiTokenRow.account_id == account_id)
            )
        return gone.rowcount == 1

    def token(self, token_sha: str) -> tuple[AccountRecord, int] | None:
        """The account of the token with the digest ``token_sha`` and the token's id."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.username, AccountRow.language, ApiTokenRow.id.label("token_id"))
                .join(ApiTokenRow, ApiTokenRow.account_id == AccountRow.id)
                .where(ApiTokenRow.token_sha == token_sha)
            ).first()
        return (AccountRecord(row.id, row.username, row.language), row.token_id) if row else None


def _credentials(conn, account_id: int) -> list[Credential]:
    """The sessions and API tokens of an account, as credentials of sockets."""
    sessions = conn.execute(select(SessionRow.token_sha).where(SessionRow.account_id == account_id)).scalars()
    tokens = conn.execute(select(ApiTokenRow.id).where(ApiTokenRow.account_id == account_id)).scalars()
    return [("session", t) for t in sessions] + [("token", str(i)) for i in tokens]
