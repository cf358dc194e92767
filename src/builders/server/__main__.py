"""``python -m builders.server [--host H] [--port P] [--db URL] [--bot-delay S]``."""

from builders.server.run import main

main()
