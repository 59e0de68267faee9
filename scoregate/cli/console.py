"""The consoles the commands print through, and how a command stops on a usage error."""

from __future__ import annotations

import typer

from scoregate.reports.terminal import make_console, safe

console = make_console()
err = make_console(stderr=True)


def die(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: MESSAGE`` on stderr; returns the exit to raise (2: a usage error)."""
    err.print(f"[bold red]error:[/] {safe(message)}")
    return typer.Exit(code)
