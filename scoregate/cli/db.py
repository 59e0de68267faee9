"""``scoregate db``: the database's migrations."""

from __future__ import annotations

from typing import Annotated

import typer

from scoregate.cli.console import console

db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)


@db_app.command("upgrade")
def db_upgrade(revision: Annotated[str, typer.Argument()] = "head") -> None:
    """Run the migrations on SCOREGATE_DATABASE_URL."""
    from scoregate.config.settings import get_settings
    from scoregate.storage.db import redact_url, upgrade

    url = get_settings().secret("database_url")
    upgrade(url, revision)
    console.print(f"database at {redact_url(url or '')} is at {revision}")
