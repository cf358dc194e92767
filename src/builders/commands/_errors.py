"""Errors of the ``builders`` command: bad input of any kind ends with one line ``error: ...`` on
stderr and exit status 2, never a traceback and never typer's framed box.

:func:`fail` is what a command calls; :class:`OneLineErrors` is the click group class of the root
``builders`` app, which turns the option errors found by click (``--seed abc``, a missing ``--out``,
an unknown option) and any :class:`~builders.core.errors.BuildersError` a command lets through into
that one line.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from builders.core.errors import BuildersError

#: the exit status of every error of bad input
EXIT_BAD_INPUT = 2


def _click_errors() -> tuple[type[Exception], ...]:
    """The base classes of click's errors: typer 0.2x carries its own copy of click, whose errors
    derive from ``typer.exceptions.TyperException``; older typer versions use click itself."""
    found: list[type[Exception]] = []
    typer_error = getattr(getattr(typer, "exceptions", None), "TyperException", None)
    if typer_error is not None:
        found.append(typer_error)
    try:
        import click
    except ImportError:
        pass
    else:
        found.append(click.ClickException)
    return tuple(found)


_CLICK_ERRORS = _click_errors()
#: click's exit status of a usage error (bad option value, missing or unknown option)
_USAGE = 2


def one_line(message: str) -> str:
    """``message`` on one line (click's messages may hold line breaks)."""
    return " ".join(str(message).split())


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 2."""
    typer.echo(f"error: {one_line(message)}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def _click_message(e: Any) -> str:
    text = one_line(e.format_message())
    ctx = getattr(e, "ctx", None)
    where = " ".join(str(getattr(ctx, "command_path", "")).split()[1:])  # without the program's name
    if where:
        return f"{where}: {text[:1].lower()}{text[1:]}"
    return f"{text[:1].lower()}{text[1:]}"


class OneLineErrors(TyperGroup):
    """The root group: runs the command as click does, but reports every error in one line."""

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
        try:
            code = super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
        except _CLICK_ERRORS as e:
            code = getattr(e, "exit_code", 1)
            if type(e).__name__ == "NoArgsIsHelpError":
                sys.exit(code)  # the help is printed already
            typer.echo(f"error: {_click_message(e)}", err=True)
            sys.exit(EXIT_BAD_INPUT if code == _USAGE else code)
        except BuildersError as e:
            typer.echo(f"error: {one_line(str(e))}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except typer.Abort:
            typer.echo("error: interrupted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
