"""``scoregate --version`` and ``scoregate version``: the package version and the database
migration this code expects, so that an operator can tell which build runs where."""

from __future__ import annotations

import json
from typing import Annotated

import typer


def schema_head() -> str:
    """The migration revision this scoregate's database schema is at (Alembic's head)."""
    from alembic.script import ScriptDirectory

    from scoregate.storage.db import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    return head or "base"


def version_text() -> str:
    """``scoregate 0.2.27 (schema 0003)``."""
    from scoregate._version import __version__

    return f"scoregate {__version__} (schema {schema_head()})"


def show_version(value: bool) -> None:
    """The eager ``--version`` option: print the version line and exit 0."""
    if value:
        print(version_text())
        raise typer.Exit()


def version(
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print {"schema_version": 1, "version": ..., "migration": ...} instead.',
        ),
    ] = False,
) -> None:
    """The package version and the database migration this code expects."""
    if as_json:
        from scoregate._version import __version__
        from scoregate.schemas.output import SCHEMA_VERSION

        doc = {"schema_version": SCHEMA_VERSION, "version": __version__, "migration": schema_head()}
        print(json.dumps(doc, indent=2))
    else:
        print(version_text())
