"""The HTTP middleware of the application that is not the abuse guard (:mod:`builders.server.guard`):
the limit on a request body's size."""

from __future__ import annotations

import json
from typing import Any

from builders.core.messages import msg
from builders.server.messages import refusal, scope_language

#: the largest HTTP request body accepted (bytes)
MAX_BODY = 16 * 1024


class BodyLimit:
    """Refuses request bodies larger than ``limit`` bytes with 413 (declared or streamed)."""

    def __init__(self, app: Any, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(scope, send)
                    return
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        started = False

        async def tracking_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope: Any, send: Any) -> None:
        body = json.dumps(
            refusal(
                msg("the request body is too large: at most {count} bytes", count=self.limit), scope_language(scope)
            )
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass
