"""Command-line groups of the ``builders`` command, one module per game."""
