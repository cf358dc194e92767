"""The web client's pages (the HTML files of the static folder; the static files are mounted by the
application)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse


def router(static: Path) -> APIRouter:
    r = APIRouter(include_in_schema=False)

    def page(name: str):
        path = static / name
        if path.is_file():
            return FileResponse(path)
        return HTMLResponse(
            "<!doctype html><title>Builders</title><p>The web client is not installed. "
            'The API is described at <a href="/docs">/docs</a>.</p>',
            status_code=404,
        )

    @r.get("/")
    async def lobby():
        return page("index.html")

    @r.get("/play/{game_id}")
    async def play_page(game_id: str):
        return page("play.html")

    @r.get("/replay/{game_id}")
    async def replay_page(game_id: str):
        return page("replay.html")

    @r.get("/account")
    async def account_page():
        return page("account.html")

    @r.get("/players/{username}")
    async def profile_page(username: str):
        return page("profile.html")

    return r
