"""The game server: the authoritative rules of every game played over the network.

FastAPI over HTTP and WebSockets, games stored with SQLAlchemy (SQLite by default). See
``docs/server.md`` for the API and :func:`builders.server.app.create_app` for the application.
"""

from __future__ import annotations


def create_app(*args, **kwargs):
    """See :func:`builders.server.app.create_app` (imported on first use)."""
    from builders.server.app import create_app as _create_app

    return _create_app(*args, **kwargs)


__all__ = ["create_app"]
