"""Alembic migrations of the server's database (see :mod:`builders.server.migrate`)."""
