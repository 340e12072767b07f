"""No traceback reaches a staff terminal: an exception that no command expected ends the command
with one line on stderr and exit code 1. TOUCHLINE_DEBUG=1 lets it through, traceback and all.

What Typer and Click use for control flow passes untouched: usage errors (exit code 2), `Exit`
(a command's own exit code), `Abort` and end of input (Ctrl-C, Ctrl-D), and a closed pipe."""

import errno
import os
from typing import Any

import typer
from typer._click.core import Context
from typer.core import TyperGroup

from .terminal_text import visible

DEBUG_VARIABLE = "TOUCHLINE_DEBUG"
PASSED_THROUGH = (typer.Exit, typer.Abort, typer.TyperException, EOFError)


def debugging() -> bool:
    return os.environ.get(DEBUG_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def one_line(error: BaseException) -> str:
    """`touchline: internal error: KeyError: 'x'; run with TOUCHLINE_DEBUG=1 for the traceback`."""
    message = " ".join(str(error).split())  # a multi-line message stays on the one line
    kind = type(error).__name__
    return visible(
        f"touchline: internal error: {kind}{': ' + message if message else ''}; "
        f"run with {DEBUG_VARIABLE}=1 for the traceback"
    )


class OneLineErrors(TyperGroup):
    """The root group: its invoke runs every command, so every command's exceptions pass here."""

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            if isinstance(error, PASSED_THROUGH) or _closed_pipe(error) or debugging():
                raise
            typer.echo(one_line(error), err=True)
            raise typer.Exit(1) from None


def _closed_pipe(error: Exception) -> bool:
    # Typer ends quietly on a closed pipe (`touchline outbox list | head -1`).
    return isinstance(error, OSError) and error.errno == errno.EPIPE
