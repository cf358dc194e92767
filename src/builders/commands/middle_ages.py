"""Command-line group; filled in by its game."""

import typer

app = typer.Typer(no_args_is_help=True)
