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


def install(app: FastAPI) -> None:
    """Add the handlers of refusals, database failures, invalid requests and crashes to ``app``."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        retry = {"Retry-After": str(RETRY_AFTER)} if exc.status == 503 else None
        return refused(request, exc.message, exc.status, retry)

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, exc: SQLAlchemyError):
        if unreachable(exc):
            log.warning("the database cannot be reached: %s %s answered 503", request.method, request.url.path)
            return refused(request, msg("the database cannot be reached just now; nothing changed, "
                                        "try again in a few seconds"), 503, {"Retry-After": str(RETRY_AFTER)})
        log.exception("request failed: %s %s", request.method, request.url.path)
        return refused(request, msg("the server failed to handle this request"), 500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            return refused(request, msg("the request body is not valid JSON"), 400)
        texts = [e for e in errors if e.get("type") == TEXT_ERROR]  # a control character, a bad name
        if texts:
            return refused(request, texts[0].get("ctx", {}).get("message") or str(texts[0]["msg"]), 400)
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "request"
        # the common problems in the reader's language; pydantic's own sentence for the others (English)
        problem = validation_problem(first)
        if isinstance(problem, str):
            problem = problem[:300 - len(where)]
        return refused(request, msg("{field}: {problem}", field=where, problem=problem), 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        said = getattr(exc, "message", None) or http_message(exc.status_code, str(exc.detail))
        return refused(request, said, exc.status_code,
                       getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception):
        log.exception("request failed: %s %s", request.method, request.url.path)
        return refused(request, msg("the server failed to handle this request"), 500)
