"""The server's repositories: every SQL statement of the server outside the game store.

Each module holds one class built on the SQLAlchemy engine, with named methods that read or write
one concern's tables and return plain typed records (dataclasses) or values: accounts and their
credentials (:mod:`.accounts`), analyses (:mod:`.analyses`), chat (:mod:`.chat`), the housekeeping
and "your games" queries on games (:mod:`.games`), leases (:mod:`.leases`), the shared rate limits
(:mod:`.limits`) and ratings (:mod:`.ratings`). The games and their actions are stored by
:class:`builders.server.store.Store`; the tables are declared in :mod:`builders.server.models`. No
other module of the server builds SQL (``tests/server/test_repositories.py`` checks it).
"""
