"""The application's answers to failures: every refusal and error is JSON with a one-line ``detail``
in the reader's language, its key and parameters (builders.server.messages)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from builders.core.messages import Message, msg
from builders.server.games import ApiError
from builders.server.messages import http_message, language, refusal, validation_problem
from builders.server.ops import RETRY_AFTER
from builders.server.schemas import TEXT_ERROR
from builders.server.store import unreachable

log = logging.getLogger("builders.server")


def refused(request: Request, message: Message, status: int, headers: dict[str, str] | None = None):
    """A refusal in the reader's language, with its key and parameters (builders.server.messages)."""
    return JSONResponse(refusal(message, language(request)), status_code=status, headers=headers)


def reader_known(request: Request) -> Request:
    """``request`` with its account's language looked up when nothing read it yet (a request refused
    before its route asked who sent it: a malformed body, an unknown game); a failed look-up is passed
    over, the refusal is still said."""
    accounts = getattr(request.app.state, "accounts", None)
    if accounts is not None and not hasattr(request.state, "account_language"):
        try:
            accounts.identify(request)
        except Exception:  # noqa: BLE001 - a wrong credential or an unreachable database: the other choices hold
            pass
    return request


def install(app: FastAPI) -> None:
    """Add the handlers of refusals, database failures, invalid requests and crashes to ``app``."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        retry = {"Retry-After": str(RETRY_AFTER)} if exc.status == 503 else None
        return refused(request if exc.status == 503 else reader_known(request), exc.message, exc.status, retry)

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, exc: SQLAlchemyError):
        if unreachable(exc):
            log.warning("the database cannot be reached: %s %s answered 503", request.method, request.url.path)
            return refused(
                request,
                msg("the database cannot be reached just now; nothing changed, try again in a few seconds"),
                503,
                {"Retry-After": str(RETRY_AFTER)},
            )
        log.exception("request failed: %s %s", request.method, request.url.path)
        return refused(request, msg("the server failed to handle this request"), 500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            return refused(reader_known(request), msg("the request body is not valid JSON"), 400)
        texts = [e for e in errors if e.get("type") == TEXT_ERROR]  # a control character, a bad name
        if texts:
            return refused(reader_known(request), validation_problem(texts[0]), 400)  # the message it was raised with
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "request"
        return refused(
            reader_known(request), msg("{field}: {problem}", field=where, problem=validation_problem(first)), 422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        headers = getattr(exc, "headers", None) or {}
        said = getattr(exc, "message", None) or http_message(
            exc.status_code, str(exc.detail), request.url.path, request.method, headers.get("Allow")
        )
        return refused(request, said, exc.status_code, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception):
        log.exception("request failed: %s %s", request.method, request.url.path)
        return refused(request, msg("the server failed to handle this request"), 500)
